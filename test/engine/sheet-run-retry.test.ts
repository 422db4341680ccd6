// `sheet run --retry N --retry-delay MS` and `--repeat N` (issue 26 item 4; sheet-command/retry.ts): a
// request that fails by transport, or by an assertion marked retry, is sent again (a POST only
// when marked), a pass on a retry is reported flaky (progress line, JSON, JUnit property, TAP,
// HTML); an assertion not marked retry is not retried; --repeat runs the
// files N times. A real TCP server on 127.0.0.1 that resets its first connections, and the
// fault server, which counts what it got.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { hitCount, startFaults } from '../fixtures/faults.mjs';

let faults: { url: string; close(): Promise<void> };
let dir: string;
let server: net.Server;
let port = 0;
/** How many connections to reset before answering; and how many came. */
let resets = 0;
let connections = 0;

beforeAll(async () => {
  faults = await startFaults();
  dir = tempDir('retry-');
  server = net.createServer((sock) => {
    connections++;
    sock.on('error', () => {});
    if (resets > 0) {
      resets--;
      sock.resetAndDestroy();
      return;
    }
    sock.once('data', () => sock.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await faults.close();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

function sheetFile(name: string, text: string): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, text);
  return f;
}

describe('sheet run --retry', () => {
  it('a transport failure is sent again; a pass on a retry is flaky in the progress line and every report', async () => {
    const f = sheetFile('flaky.sheet', `GET http://127.0.0.1:${port}/x\n-> expect-status 200\n`);
    resets = 2;
    connections = 0;
    const t0 = Date.now();
    const r = await runSheet(['run', f, '--retry', '2', '--retry-delay', '300', '--report', 'json:r.json', '--report', 'junit:r.xml', '--report', 'html:r.html'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(600);
    expect(connections).toBe(3);
    expect(r.out).toMatch(/✓ 200 GET \/x \(flaky\.sheet:1\) \d+ ms \(flaky: passed on attempt 3\)/);
    expect(r.out).toMatch(/1 flaky/);
    const rep = JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8'));
    expect(rep.files[0].results[0]).toMatchObject({ outcome: 'passed', attempts: 3, flaky: true });
    expect(rep.summary.flaky).toBe(1);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(fs.readFileSync(path.join(dir, 'r.xml'), 'utf8'));
    expect([xml.testsuites.testsuite.testcase.properties.property].flat()).toEqual([
      { name: 'attempts', value: '3' },
      { name: 'flaky', value: 'true' },
    ]);
    expect(fs.readFileSync(path.join(dir, 'r.html'), 'utf8')).toContain('data-flaky="yes">flaky: passed on attempt 3');
  });

  it('retries run out: a transport failure (exit 3), each try counted', async () => {
    const f = sheetFile('down.sheet', `GET http://127.0.0.1:${port}/y\n`);
    resets = 3;
    connections = 0;
    const r = await runSheet(['run', f, '--retry', '1', '--retry-delay', '0'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(connections).toBe(2);
    expect(r.out).toContain('(failed on attempt 2)');
    resets = 0;
  });

  it('a failed assertion not marked retry is not retried', async () => {
    const f = sheetFile('assert.sheet', `GET ${faults.url}/retry-assert\n-> expect-status 201\n`);
    const r = await runSheet(['run', f, '--retry', '3', '--retry-delay', '0'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(await hitCount(faults.url, '/retry-assert')).toBe(1);
  });

  it('a POST is not sent again after a transport failure unless an assertion of it is marked retry', async () => {
    const f = sheetFile('post.sheet', `POST http://127.0.0.1:${port}/p\nContent-Type: text/plain\n\nbody\n`);
    resets = 3;
    connections = 0;
    const r = await runSheet(['run', f, '--retry', '2', '--retry-delay', '0'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(connections).toBe(1);
    resets = 0;
  });
});

describe('sheet run --retry with assertions marked retry (-> expect-status 200 retry)', () => {
  it('a request is sent again until its retryable assertions pass: flaky in the progress line and every report', async () => {
    const f = sheetFile('until.sheet', `GET ${faults.url}/fail-times/2/until\n-> expect-status 200 retry\n-> expect-body ^ok$\n`);
    const t0 = Date.now();
    const r = await runSheet(['run', f, '--retry', '4', '--retry-delay', '200', '--report', 'json:u.json', '--report', 'junit:u.xml', '--report', 'tap:u.tap', '--report', 'html:u.html'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    expect(await hitCount(faults.url, '/fail-times/2/until')).toBe(3);
    expect(r.out).toMatch(/✓ 200 GET \/fail-times\/2\/until \(until\.sheet:1\) \d+ ms \(flaky: passed on attempt 3\)/);
    expect(r.out).toMatch(/1 flaky/);
    const rep = JSON.parse(fs.readFileSync(path.join(dir, 'u.json'), 'utf8'));
    expect(rep.files[0].results[0]).toMatchObject({ outcome: 'passed', attempts: 3, flaky: true, status: 200 });
    expect(rep.files[0].results[0].assertions.map((a: { args: string; passed: boolean }) => [a.args, a.passed])).toEqual([
      ['200 retry', true],
      ['^ok$', true],
    ]);
    expect(rep.summary.flaky).toBe(1);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(fs.readFileSync(path.join(dir, 'u.xml'), 'utf8'));
    expect([xml.testsuites.testsuite.testcase.properties.property].flat()).toEqual([
      { name: 'attempts', value: '3' },
      { name: 'flaky', value: 'true' },
    ]);
    expect(fs.readFileSync(path.join(dir, 'u.tap'), 'utf8')).toContain(`ok 1 - GET ${faults.url}/fail-times/2/until\n  ---\n  flaky: true\n  attempts: 3\n  ...`);
    expect(fs.readFileSync(path.join(dir, 'u.html'), 'utf8')).toContain('data-flaky="yes">flaky: passed on attempt 3');
  });

  it('the tries run out: the assertion fails (exit 1), each try counted, not flaky', async () => {
    const f = sheetFile('never.sheet', `GET ${faults.url}/fail-times/9/never\n-> expect-status 2xx retry\n`);
    const r = await runSheet(['run', f, '--retry', '2', '--retry-delay', '0', '--report', 'json:n.json', '--report', 'tap:n.tap'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(await hitCount(faults.url, '/fail-times/9/never')).toBe(3);
    expect(r.out).toContain('(failed on attempt 3)');
    expect(r.out).toContain('expect-status 2xx retry: failed, got 503 Service Unavailable: body not yet (try 3)');
    const res = JSON.parse(fs.readFileSync(path.join(dir, 'n.json'), 'utf8')).files[0].results[0];
    expect(res).toMatchObject({ outcome: 'failed', attempts: 3 });
    expect(res.flaky).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, 'n.tap'), 'utf8')).toContain('  attempts: 3\n');
  });

  it('only a failed retryable assertion sends again: a failed plain one beside a passing retryable one does not', async () => {
    const f = sheetFile('plain.sheet', `GET ${faults.url}/fail-times/1/plain\n-> expect-status 503 retry\n-> expect-body ^ok$\n`);
    const r = await runSheet(['run', f, '--retry', '3', '--retry-delay', '0'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(await hitCount(faults.url, '/fail-times/1/plain')).toBe(1);
  });

  it('a POST with an assertion marked retry is sent again (the mark is the leave to)', async () => {
    const f = sheetFile('post-marked.sheet', `POST ${faults.url}/fail-times/1/post\nContent-Type: text/plain\n-> expect-status 200 retry\n\nhello\n`);
    const r = await runSheet(['run', f, '--retry', '2', '--retry-delay', '0'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(await hitCount(faults.url, '/fail-times/1/post')).toBe(2);
    expect(r.out).toContain('(flaky: passed on attempt 2)');
  });

  it('without --retry a retryable assertion is an ordinary one: sent once', async () => {
    const f = sheetFile('once.sheet', `GET ${faults.url}/fail-times/1/once\n-> expect-status 200 retry\n`);
    const r = await runSheet(['run', f], { cwd: dir });
    expect(r.code).toBe(1);
    expect(await hitCount(faults.url, '/fail-times/1/once')).toBe(1);
  });

  it.each([
    ['-> expect-status retry', 'expect-status retry: the argument must be a status code (200) or class (2xx)'],
    ['-> expect-body retry', 'expect-body retry: the argument must be a regular expression'],
    ['-> expect-body ([ retry', 'expect-body ([ retry: Invalid regular expression'],
    ['-> expect-retry 200 retry', 'unknown assertion expect-retry'],
  ])('a malformed retryable assertion %j is a sheet error: exit 2, nothing sent', async (hook, msg) => {
    const key = `/fail-times/0/bad-${Buffer.from(hook).toString('hex')}`;
    const f = sheetFile('bad.sheet', `GET ${faults.url}${key}\n${hook}\n`);
    const r = await runSheet(['run', f, '--retry', '2', '--retry-delay', '0'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.out + r.err).toContain(`bad.sheet:2: ${msg}`);
    expect(await hitCount(faults.url, key)).toBe(0);
  });
  it.each([
    [['--retry=-1'], '--retry -1: a number of retries'],
    [['--retry', 'x'], '--retry x: a number of retries'],
    [['--retry-delay', '1.5'], '--retry-delay 1.5: milliseconds'],
    [['--repeat', '0'], '--repeat 0: a number of runs'],
  ])('%j is a usage error', async (args, msg) => {
    const r = await runSheet(['run', 'flaky.sheet', ...args], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.err).toContain(msg);
  });
});

describe('sheet run --repeat', () => {
  it('runs the files N times over, each run counted and reported', async () => {
    const f = sheetFile('soak.sheet', `GET ${faults.url}/repeat-me\n-> expect-status 200\n`);
    const r = await runSheet(['run', f, '--repeat', '3', '--report', 'json:s.json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/3 of 3 requests/);
    const hits = (await (await fetch(`${faults.url}/hits`)).json()) as Record<string, number>;
    expect(hits['/repeat-me']).toBe(3);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 's.json'), 'utf8')).files).toHaveLength(3);
  });
});
