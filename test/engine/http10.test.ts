// The HTTP version a server answers with is the one every front end shows: Python's
// `python3 -m http.server` (test/fixtures/python-http-server.mjs) answers HTTP/1.0, a node:http
// server HTTP/1.1. undici reads the status line's version but hands none to a handler;
// patches/undici+7.30.2.patch passes it on (http/dispatch.ts), so `send`, the shell verbs'
// -v and -i (shell-verbs/run.ts through session/trace.ts) and sheet/send's result (Emacs'
// trailer and response history) say HTTP/1.0 where the server did, as curl does.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../engine/src/http/send.js';
import { run } from '../../engine/src/shell-verbs/run.js';
import { spawnEngine, tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startPythonHttpServer } from '../fixtures/python-http-server.mjs';

let py: { url: string; close(): Promise<void> };
let node11: http.Server;
let node11Url: string;
let dir: string;

beforeAll(async () => {
  dir = tempDir('http10-');
  py = await startPythonHttpServer();
  node11 = http.createServer((_req, res) => res.end('hello from node\n'));
  await new Promise<void>((r) => node11.listen(0, '127.0.0.1', r));
  node11Url = `http://127.0.0.1:${(node11.address() as { port: number }).port}`;
});
afterAll(async () => {
  await py.close();
  await new Promise((r) => node11.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const NO_PROXY = { proxy: { env: {} } };

/** The shell verbs' command in this process: GET base+path with the options, its stderr and stdout. */
async function verb(base: string, p: string, opts: string[]) {
  const r = await run({ argv: ['GET', `${base}*`, p, 'none', '', path.join(dir, 'jar'), '0', ...opts], cwd: dir, pathEnv: process.env.PATH ?? '', readStdin: async () => Buffer.alloc(0) });
  return { code: r.code, out: Buffer.concat(r.stdout).toString('utf8'), err: Buffer.concat(r.stderr).toString('utf8') };
}

describe('send', () => {
  it('an HTTP/1.0 answer is 1.0, an HTTP/1.1 answer 1.1, as curl reads them', async () => {
    const ten = await send({ method: 'GET', url: `${py.url}/hello.txt`, headers: [] }, NO_PROXY);
    expect(ten.response.httpVersion).toBe('1.0');
    expect(Buffer.from(ten.response.body).toString()).toBe('hello from http.server\n');
    const eleven = await send({ method: 'GET', url: `${node11Url}/`, headers: [] }, NO_PROXY);
    expect(eleven.response.httpVersion).toBe('1.1');
    // curl beside it reads the same status lines.
    const curl = async (url: string) => (await promisify(execFile)('curl', ['-s', '-D', '-', '-o', '/dev/null', '--noproxy', '*', url])).stdout.split('\r\n')[0];
    expect(await curl(`${py.url}/hello.txt`)).toBe('HTTP/1.0 200 OK');
    expect(await curl(`${node11Url}/`)).toBe('HTTP/1.1 200 OK');
  });

  it('a sink is told the version before the body (the shell verbs stream to one)', async () => {
    const versions: string[] = [];
    const { Writable } = await import('node:stream');
    await send({ method: 'GET', url: `${py.url}/hello.json`, headers: [] }, {
      ...NO_PROXY,
      sink: async (head) => {
        versions.push(head.httpVersion ?? 'none');
        return new Writable({ write: (_c, _e, cb) => cb() });
      },
    });
    expect(versions).toEqual(['1.0']);
  });
});

describe('the shell verbs', () => {
  it('-v says "< HTTP/1.0 200 OK" for http.server and "< HTTP/1.1 200 OK" for node', async () => {
    const ten = await verb(py.url, '/hello.txt', ['-v']);
    expect(ten.code).toBe(0);
    expect(ten.err).toMatch(/^< HTTP\/1\.0 200 OK$/m);
    expect(ten.err).not.toMatch(/^< HTTP\/1\.1/m);
    expect(ten.out).toBe('hello from http.server\n');
    const eleven = await verb(node11Url, '/', ['-v']);
    expect(eleven.err).toMatch(/^< HTTP\/1\.1 200 OK$/m);
  });

  it('-i starts with the status line the server sent', async () => {
    const r = await verb(py.url, '/hello.txt', ['-i']);
    expect(r.code).toBe(0);
    expect(`${r.err}${r.out}`).toMatch(/^HTTP\/1\.0 200 OK\r?$/m);
  });
});

describe('sheet/send (Emacs, sheet run)', () => {
  it("the result's response.httpVersion is 1.0, the trailer's status line HTTP/1.0", async () => {
    const eng = spawnEngine();
    try {
      await eng.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
      const r = await eng.conn.sendRequest<{ response: { httpVersion: string; status: number; statusLine: string } }>('sheet/send', { text: `GET ${py.url}/hello.json\n`, line: 1 });
      expect(r.response).toMatchObject({ httpVersion: '1.0', status: 200, statusLine: 'HTTP/1.0 200 OK' });
    } finally {
      await eng.close();
    }
  });
});
