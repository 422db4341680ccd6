// WebSocket requests in `sheet run` (issue 40), through the real launcher and bundle against a
// `ws` server on 127.0.0.1 (test/fixtures/ws-server.mjs): a WebSocket request is a request of
// the run, its messages both ways in the JSON and HTML reports; a refused handshake and a
// close code other than 1000 fail it, and the run's exit status says so.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { WS_NATIVE_ALIAS } from './global-setup.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { root, runSheet, tempDir } from './helpers.js';
// @ts-expect-error plain JavaScript fixture
import { startWsServer } from '../fixtures/ws-server.mjs';

let server: { wsUrl: string; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  // The bundle behind engine/bin/sheet, as the Makefile's build-engine makes it.
  const out = path.join(root, 'engine/dist/sheet.cjs');
  const tmp = `${out}.${process.pid}.tmp`;
  await build({ absWorkingDir: root, entryPoints: ['engine/src/sheet-command/entry.ts'], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: tmp, logLevel: 'error', legalComments: 'none', alias: WS_NATIVE_ALIAS });
  fs.renameSync(tmp, out);
  server = await startWsServer();
  dir = tempDir('ws-run-');
}, 120000);
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('runs WebSocket requests as requests, with their messages in the JSON and HTML reports', async () => {
  const file = path.join(dir, 'chat.http');
  fs.writeFileSync(file, [
    '### echo',
    `WEBSOCKET ${server.wsUrl}/echo`,
    '',
    '{"message": "first"}',
    '=== wait-for-server',
    '{"message": "second"}',
    '',
    '### refused',
    `WS ${server.wsUrl}/refuse`,
    '',
    '### closed',
    `WS ${server.wsUrl}/close4001`,
    '',
    'subscribe',
    '',
  ].join('\n'));
  const r = await runSheet(['run', file, '--report', `json:${dir}/r.json`, '--report', `html:${dir}/r.html`], { cwd: dir });
  expect(r.code, r.err + r.out).toBe(1);
  const report = JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8'));
  const results = report.files[0].results;
  expect(results.map((x: { outcome: string; status: number; method: string }) => [x.method, x.outcome, x.status])).toEqual([['WEBSOCKET', 'passed', 101], ['WEBSOCKET', 'failed', 401], ['WEBSOCKET', 'failed', 101]]);
  expect(r.out).toContain('101 WEBSOCKET /echo');
  expect(results[0].websocket.messages.map((m: { direction: string; text: string }) => `${m.direction} ${m.text}`)).toEqual([
    'sent {"message": "first"}', 'received {"message": "first"}', 'sent {"message": "second"}', 'received {"message": "second"}',
  ]);
  expect(results[0].websocket.messages[0].atMs).toEqual(expect.any(Number));
  expect(results[1].assertions[0].message).toMatch(/refused the WebSocket handshake: 401 Unauthorized/);
  expect(results[2].websocket.close).toMatchObject({ code: 4001, reason: 'topic not allowed' });
  const html = fs.readFileSync(path.join(dir, 'r.html'), 'utf8');
  expect(html).toContain('<h3>Messages</h3>');
  expect(html).toContain('{&quot;message&quot;: &quot;second&quot;}');
  expect(html).toContain('closed by the server with 4001 (topic not allowed)');
}, 60000);
