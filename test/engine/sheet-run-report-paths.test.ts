// Issue 36 item 4: `--report junit:reports/junit.xml` on a first CI run (no reports/ folder)
// sent the whole suite, POSTs included, then exited 2 with ENOENT and wrote no report at all.
// Report folders are created (as hurl does), every report path is checked before the first
// request, and one report that cannot be written never costs the others. A counting server on
// 127.0.0.1, the real bin and bundle.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
import { writeReports } from '../../engine/src/sheet-command/report-write.js';
import { summarize } from '../../engine/src/sheet-command/report-write.js';

let server: http.Server;
let base: string;
let dir: string;
let received = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    received++;
    req.resume();
    req.on('end', () => res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = tempDir('sheet-run-reports-');
  fs.writeFileSync(path.join(dir, 'suite.sheet'), `POST ${base}/orders\n-> expect-status 201\n\n{"n": 1}\n#\nGET ${base}/orders\n-> expect-status 201\n`);
  fs.writeFileSync(path.join(dir, 'a-file'), 'not a folder\n');
  fs.mkdirSync(path.join(dir, 'adir'));
}, 30000);

afterAll(async () => {
  await new Promise((done) => server.close(done));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet run --report PATH', () => {
  it('creates missing folders of every report (as hurl does)', async () => {
    const r = await runSheet(['run', 'suite.sheet', '--report', 'junit:reports/ci/junit.xml', '--report', 'json:out/run.json', '--report', 'html:reports/index.html'], { cwd: dir });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'reports/ci/junit.xml'), 'utf8')).toContain('<testsuites');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'out/run.json'), 'utf8')).summary.requests).toBe(2);
    expect(fs.readFileSync(path.join(dir, 'reports/index.html'), 'utf8')).toContain('<html');
  });

  it('a report path that cannot be written is a usage error naming it before anything is sent', async () => {
    const before = received;
    const r = await runSheet(['run', 'suite.sheet', '--report', 'json:ok.json', '--report', 'junit:a-file/junit.xml', '--report', 'html:adir'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot write the report junit:a-file/junit.xml: a part of its folder is a file');
    expect(r.err).toContain('cannot write the report html:adir: it is a folder; give a file name');
    expect(r.err).toContain('nothing was sent');
    expect(received).toBe(before);
  });

  it('one report that fails while being written does not cost the others', async () => {
    const summary = summarize([], { files: 0, selected: 0, durationMs: 0 });
    const bad = path.join(dir, 'a-file', 'x.json');
    const good = path.join(dir, 'late', 'junit.xml');
    const problem = await writeReports([{ format: 'json', path: bad }, { format: 'junit', path: good }], [], summary, () => undefined);
    expect(problem).toContain(`cannot write the report ${bad}`);
    expect(fs.readFileSync(good, 'utf8')).toContain('<testsuites');
  });
});
