// `sheet run --retry N --retry-delay MS` and `--repeat N` (issue 26 item 4; sheet-command/retry.ts): a
// request that fails by transport is sent again, a pass on a retry is reported flaky (progress
// line, JSON, JUnit property, HTML); an assertion failure is not retried; --repeat runs the
// files N times. A real TCP server on 127.0.0.1 that resets its first connections, and the
// fault server, which counts what it got.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startFaults } from '../fixtures/faults.mjs';

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

  it('a failed assertion is not retried', async () => {
    const f = sheetFile('assert.sheet', `GET ${faults.url}/retry-assert\n-> expect-status 201\n`);
    const r = await runSheet(['run', f, '--retry', '3', '--retry-delay', '0'], { cwd: dir });
    expect(r.code).toBe(1);
    const hits = (await (await fetch(`${faults.url}/hits`)).json()) as Record<string, number>;
    expect(hits['/retry-assert']).toBe(1);
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
