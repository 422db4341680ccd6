// An https:// URL whose server answers in plain HTTP (http/transport-error.ts, docs/errors.md):
// OpenSSL's "wrong version number" becomes one sentence naming HOST:PORT and http://, code
// `tls-error`, curl's exit 35 (curl itself exits 35 on the same URL), whoever sends: `send`
// (the shell verbs, the client library in Node), the curl fallback (`http/via-curl.ts`, from
// curl's own message) and sheet/send (Emacs, `sheet run`). Servers:
// a node:http server (HTTP/1.1) and Python's `python3 -m http.server` (HTTP/1.0).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { EngineError } from '../../engine/src/errors.js';
import { send } from '../../engine/src/http/send.js';
import { sendWithCurl } from '../../engine/src/http/via-curl.js';
import { spawnEngine } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startPythonHttpServer } from '../fixtures/python-http-server.mjs';

let py: { url: string; port: number; close(): Promise<void> };
let plain: http.Server;
let plainPort = 0;

beforeAll(async () => {
  py = await startPythonHttpServer();
  plain = http.createServer((_req, res) => res.end('plain\n'));
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
  plainPort = (plain.address() as { port: number }).port;
});
afterAll(async () => {
  await py.close();
  await new Promise((r) => plain.close(r));
});

/** The EngineError `send` fails with. */
async function sendError(url: string, insecure = false): Promise<EngineError> {
  const e = await send({ method: 'GET', url, headers: [] }, { proxy: { env: {} }, insecure, timeoutMs: 10_000 }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EngineError);
  return e as EngineError;
}

describe('https:// to a plain HTTP port', () => {
  it.each([
    ['node:http', () => plainPort],
    ['python3 -m http.server', () => py.port],
  ])('%s: one sentence naming HOST:PORT and http://, tls-error, curl exit 35', async (_, port) => {
    const url = `https://127.0.0.1:${port()}/hello.txt`;
    const e = await sendError(url);
    expect(e.code).toBe('tls-error');
    expect(e.message).toBe(`${url}: the server at 127.0.0.1:${port()} answered in plain HTTP, not TLS; use http://`);
    expect(e.hint).toContain(`http://127.0.0.1:${port()}/hello.txt`);
    expect(e.details).toMatchObject({ url, curlExit: 35 });
    expect(`${e.message} ${e.hint}`).not.toMatch(/wrong version number|ssl3_get_record|openssl/i);
    // curl's own exit status for the same URL.
    const curl = await promisify(execFile)('curl', ['-s', '--noproxy', '*', url]).then(() => 0, (err: { code: number }) => err.code);
    expect(curl).toBe(35);
  });

  it('-k does not change it: there is no certificate to skip', async () => {
    const e = await sendError(`https://127.0.0.1:${plainPort}/`, true);
    expect(e.message).toContain('answered in plain HTTP, not TLS; use http://');
  });

  it("the curl fallback (an option only curl performs): curl's 35 and the same sentence, not OpenSSL's", async () => {
    const url = `https://127.0.0.1:${plainPort}/x`;
    const e = await sendWithCurl({ method: 'GET', url, headers: [] }, { extraArgs: ['--noproxy', '*', '--retry', '0'], cwd: process.cwd(), pathEnv: process.env.PATH ?? '' }, async () => {
      throw new Error('no response was expected');
    }).then(() => undefined, (err: unknown) => err);
    expect(e).toBeInstanceOf(EngineError);
    expect((e as EngineError).message).toBe(`${url}: the server at 127.0.0.1:${plainPort} answered in plain HTTP, not TLS; use http://`);
    expect((e as EngineError).details).toMatchObject({ curlExit: 35 });
  });

  it('sheet/send (Emacs, sheet run): the same message and code over JSON-RPC', async () => {
    const eng = spawnEngine();
    try {
      await eng.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
      const url = `https://127.0.0.1:${py.port}/hello.json`;
      const e = await eng.conn.sendRequest('sheet/send', { text: `GET ${url}\n`, line: 1 }).then(() => undefined, (err: unknown) => err);
      expect(e).toBeInstanceOf(ResponseError);
      expect((e as ResponseError<{ code: string }>).message).toBe(`${url}: the server at 127.0.0.1:${py.port} answered in plain HTTP, not TLS; use http://`);
      expect((e as ResponseError<{ code: string }>).data?.code).toBe('tls-error');
    } finally {
      await eng.close();
    }
  });
});
