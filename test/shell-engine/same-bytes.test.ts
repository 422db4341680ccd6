// Issue 15, "Same bytes on the wire": one request sent from the three front ends, to a raw TCP
// server on 127.0.0.1 (test/fixtures/http/capture-server.mjs: node:net, records the bytes,
// answers a fixed 200):
//   - a sheet, with C-c C-c (`sheet-http-send-current`) in a real `emacs --batch` running
//     sheet-mode and its engine;
//   - the shell verb `POST` in real bash, once in the direct mode and once through the daemon;
//   - the client library's Node entry (client-lib/src/node.ts, the engine transport).
// Compared: the request line, the header set (names lowercased, values as sent) and the body
// bytes. Left out of the header set, as inherently per client: User-Agent (each front end
// names itself) and Connection / Keep-Alive (connection management, not the request).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs fixture without types
import { startCapture } from '../fixtures/http/capture-server.mjs';
import { createClient } from '../../client-lib/src/node';

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const exec = promisify(execFile);
type Captured = { requestLine: string; headers: [string, string][]; body: Buffer };
let cap: { port: number; requests: Captured[]; close(): Promise<void> };
let tmp: string;

/** The request: a path with a query string, a few headers, a JSON body with non-ASCII text. */
const BODY = '{"name":"Zoë","city":"Łódź","note":"日本語 ✓"}';
const PATH = '/items/7';
const QUERY = 'lang=fr&q=caf%C3%A9';
const HEADERS: [string, string][] = [
  ['Content-Type', 'application/json'],
  ['Accept', 'application/json'],
  ['X-Trace', 'abc-123'],
];
const PER_CLIENT = new Set(['user-agent', 'connection', 'keep-alive']);

beforeAll(async () => {
  cap = await startCapture(() => ({ ok: true }));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'same-bytes-'));
});
afterAll(async () => {
  await cap.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** What is compared of one arrival. */
function wire(r: Captured) {
  return {
    requestLine: r.requestLine,
    headers: r.headers
      .map(([n, v]) => [n.toLowerCase(), v] as [string, string])
      .filter(([n]) => !PER_CLIENT.has(n))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    body: r.body.toString('hex'),
  };
}

/** Send the request with `send` and return what arrived. */
async function arrival(send: () => Promise<unknown>): Promise<Captured> {
  const before = cap.requests.length;
  await send();
  expect(cap.requests.length).toBe(before + 1);
  return cap.requests[before]!;
}

function fromEmacs(): Promise<unknown> {
  const base = `http://127.0.0.1:${cap.port}`;
  const sheet = [`POST ${base}${PATH}?${QUERY}`, ...HEADERS.map(([n, v]) => `${n}: ${v}`), '', BODY, ''].join('\n');
  const file = path.join(tmp, 'same.sheet');
  fs.writeFileSync(file, sheet, 'utf8');
  // Visit the file, point on the request, C-c C-c, wait for the response to be shown.
  const elisp = `(progn
    (require 'sheet-mode)
    (setq sheet-log-request nil)
    (let ((done nil))
      (add-hook 'sheet-response-loaded-hook (lambda () (setq done t)))
      (find-file ${JSON.stringify(file)})
      (sheet-mode)
      (goto-char (point-min))
      (call-interactively (key-binding (kbd "C-c C-c")))
      (let ((deadline (+ (float-time) 20)))
        (while (and (not done) (< (float-time) deadline))
          (accept-process-output nil 0.05)))
      (ignore-errors (sheet-engine-shutdown))
      (kill-emacs (if done 0 3))))`;
  return exec('emacs', ['--batch', '-Q', '-L', path.join(root, 'elisp'), '--eval', elisp], { env: { ...process.env, HOME: tmp } });
}

function fromShell(mode: 'direct' | 'daemon', rt: string): Promise<unknown> {
  const code = `source "${root}/shell/rest"; rest http://127.0.0.1:${cap.port} >/dev/null
    POST ${PATH} "$BODY" -q "${QUERY}" ${HEADERS.map(([n, v]) => `-H '${n}: ${v}'`).join(' ')} >/dev/null`;
  const env: Record<string, string | undefined> = { ...process.env, HOME: tmp, BODY, REST_RUNTIME_DIR: rt, REST_DAEMON_IDLE: '10' };
  if (mode === 'direct') env.REST_NO_DAEMON = '1';
  else delete env.REST_NO_DAEMON;
  return exec('bash', ['-c', code], { env });
}

function fromLibrary(): Promise<unknown> {
  const client = createClient({ baseUrl: `http://127.0.0.1:${cap.port}` });
  const params = Object.fromEntries(new URLSearchParams(QUERY));
  return client.one('items', 7).customPOST(JSON.parse(BODY), '', params, Object.fromEntries(HEADERS));
}

describe('the same request from Emacs, the shell and the library', () => {
  it('arrives with the same request line, header set and body bytes', async () => {
    const rt = fs.mkdtempSync(path.join(os.tmpdir(), 'same-bytes-rt-'));
    try {
      const emacs = wire(await arrival(fromEmacs));
      const direct = wire(await arrival(() => fromShell('direct', rt)));
      // The direct call above started no daemon (REST_NO_DAEMON); this one starts it, the next uses it.
      await fromShell('daemon', rt);
      for (let i = 0; i < 100 && !fs.existsSync(path.join(rt, 'engine.sock')); i++) await new Promise((r) => setTimeout(r, 100));
      expect(fs.existsSync(path.join(rt, 'engine.sock'))).toBe(true);
      const daemon = wire(await arrival(() => fromShell('daemon', rt)));
      const library = wire(await arrival(fromLibrary));

      // The request itself, as the test wrote it.
      expect(emacs.requestLine).toBe(`POST ${PATH}?${QUERY} HTTP/1.1`);
      expect(Buffer.from(emacs.body, 'hex').toString('utf8')).toBe(BODY);
      expect(emacs.headers).toEqual(
        expect.arrayContaining([
          ['content-type', 'application/json'],
          ['accept', 'application/json'],
          ['x-trace', 'abc-123'],
          ['content-length', String(Buffer.byteLength(BODY))],
        ]),
      );
      // And the same from every front end.
      expect(direct).toEqual(emacs);
      expect(daemon).toEqual(emacs);
      expect(library).toEqual(emacs);
    } finally {
      try {
        process.kill(Number(fs.readFileSync(path.join(rt, 'engine.pid'), 'utf8')), 'SIGTERM');
      } catch {
        /* no daemon */
      }
      fs.rmSync(rt, { recursive: true, force: true });
    }
  }, 90000);
});
