// HTTP/2, Unix sockets and IPv6 literals (engine/src/http/dispatchers.ts, docs/networks.md):
// curl's --http2 offers h2 by ALPN to an https:// server (a local node:http2 secure server made
// by test/fixtures/private-ca.mjs) and the exchange says which version answered; --unix-socket
// connects to a socket file instead of the URL's host (a node http server on one, as the Docker
// API listens); http://[::1]:PORT/ reaches a server on the IPv6 loopback with curl's Host header.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, type SendOptions } from '../../engine/src/http/send.js';
import { tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startPrivateCa } from '../fixtures/private-ca.mjs';
// @ts-expect-error plain ESM fixture without types
import { startProxy } from '../fixtures/proxy.mjs';

let dir: string;
let h2: { url: string; ca: string; close(): Promise<void> };
let sock: http.Server;
let v6: http.Server;
let v6Port = 0;
const socketFile = () => path.join(dir, 'docker.sock');

/** Answers with what it received: method, path, Host and the HTTP version. */
const echo = (req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ method: req.method, path: req.url, host: req.headers.host, version: req.httpVersion }));
};

beforeAll(async () => {
  dir = tempDir('h2-socket-');
  h2 = await startPrivateCa(dir, { http2: true });
  sock = http.createServer(echo);
  await new Promise<void>((r) => sock.listen(socketFile(), r));
  v6 = http.createServer(echo);
  await new Promise<void>((r) => v6.listen(0, '::1', r));
  v6Port = (v6.address() as { port: number }).port;
});
afterAll(async () => {
  await h2.close();
  await new Promise((r) => sock.close(r));
  await new Promise((r) => v6.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, o: SendOptions = {}) =>
  send({ method: 'GET', url, headers: [] }, { proxy: { env: {} }, ...o }).then((ex) => ({ version: ex.response.httpVersion, body: JSON.parse(Buffer.from(ex.response.body).toString()) }));

describe('HTTP/2 (curl --http2, undici allowH2)', () => {
  it('offered to an https:// server that speaks h2: HTTP/2 answers, and the exchange says so', async () => {
    const r = await get(`${h2.url}/two`, { http2: true, trust: { caFile: h2.ca, env: {} } });
    expect(r.version).toBe('2');
    expect(r.body.protocol).toBe('2');
  });
  it('not offered: the same server answers HTTP/1.1', async () => {
    const r = await get(`${h2.url}/one`, { trust: { caFile: h2.ca, env: {} } });
    expect(r.version).toBe('1.1');
    expect(r.body.protocol).toBe('1.1');
  });
  it('a server without h2 answers HTTP/1.1 though h2 was offered (ALPN)', async () => {
    const one = await startPrivateCa(tempDir('h1-only-'));
    try {
      const r = await get(`${one.url}/x`, { http2: true, trust: { caFile: one.ca, env: {} } });
      expect(r.version).toBe('1.1');
    } finally {
      await one.close();
    }
  });
  it('an http:// URL stays HTTP/1.1 (h2 by ALPN needs TLS, as curl --http2 without h2c)', async () => {
    const r = await get(`http://[::1]:${v6Port}/plain`, { http2: true });
    expect(r.version).toBe('1.1');
    expect(r.body.version).toBe('1.1');
  });
  it('through a proxy: HTTP/2 inside the CONNECT tunnel, as curl --http2 -x', async () => {
    const proxy = await startProxy();
    try {
      const r = await get(`${h2.url}/tunnel`, { http2: true, trust: { caFile: h2.ca, env: {} }, proxy: { proxy: proxy.url, env: {} } });
      expect(r.version).toBe('2');
      expect(r.body.protocol).toBe('2');
      expect(proxy.requests().some((l) => l.startsWith(`CONNECT 127.0.0.1:${new URL(h2.url).port}`))).toBe(true);
      const one = await get(`${h2.url}/tunnel-one`, { trust: { caFile: h2.ca, env: {} }, proxy: { proxy: proxy.url, env: {} } });
      expect(one.version).toBe('1.1');
    } finally {
      await proxy.close();
    }
  });
  it('a POST body reaches the h2 server', async () => {
    const ex = await send({ method: 'POST', url: `${h2.url}/post`, headers: [['Content-Type', 'text/plain']], body: Buffer.from('hello') }, { http2: true, trust: { caFile: h2.ca, env: {} }, proxy: { env: {} } });
    expect(ex.response.httpVersion).toBe('2');
    expect(JSON.parse(Buffer.from(ex.response.body).toString()).path).toBe('/post');
  });
  it('a server that answers before the streamed body ends and resets with NO_ERROR: the answer is kept (RFC 9113 8.1)', async () => {
    // private-ca.mjs answers without reading the body; node:http2 then sends RST_STREAM(NO_ERROR).
    // The body (a pipe of unknown length, as `echo hi | POST` through the shell's daemon) is
    // still open then, and the sink holds the head until the client has taken the reset: the
    // upload stops (the body is closed) or, as undici's pipeline did, the exchange failed with
    // ERR_STREAM_PREMATURE_CLOSE after 0 bytes. The 2 s bound is reached only in that failure.
    const body = new PassThrough();
    const out: Buffer[] = [];
    const ex = await send(
      { method: 'POST', url: `${h2.url}/early`, headers: [], body: new Uint8Array(0) },
      {
        http2: true,
        trust: { caFile: h2.ca, env: {} },
        proxy: { env: {} },
        bodyStream: { open: () => body, reopen: false },
        sink: async () => {
          await Promise.race([once(body, 'close'), new Promise((r) => setTimeout(r, 2000).unref())]);
          return new Writable({ write: (c: Buffer, _e, cb) => (out.push(c), cb()) });
        },
      },
    );
    expect(ex.response.httpVersion).toBe('2');
    expect(ex.response.status).toBe(200);
    expect(JSON.parse(Buffer.concat(out).toString()).path).toBe('/early');
    expect(body.destroyed).toBe(true);
  });
});

describe('Unix sockets (curl --unix-socket)', () => {
  it('the request goes to the socket, with the URL as written (the Docker API form)', async () => {
    const r = await get('http://localhost/v1.43/containers/json?all=1', { unixSocket: socketFile() });
    expect(r.body).toEqual({ method: 'GET', path: '/v1.43/containers/json?all=1', host: 'localhost', version: '1.1' });
  });
  it('no proxy is used for a socket, even when one is set', async () => {
    const r = await get('http://docker/_ping', { unixSocket: socketFile(), proxy: { proxy: 'http://127.0.0.1:1', env: {} } });
    expect(r.body.host).toBe('docker');
  });
  it('a socket nobody listens on: connection-refused naming it (curl exit 7)', async () => {
    const e = await get('http://localhost/', { unixSocket: path.join(dir, 'nothing.sock') }).catch((x) => x);
    expect(e.code).toBe('connection-refused');
    expect(e.details.curlExit).toBe(7);
    expect(e.message).toContain(`the Unix socket ${path.join(dir, 'nothing.sock')} (ENOENT)`);
  });
});

describe('IPv6 literals', () => {
  it('http://[::1]:PORT/ reaches the IPv6 loopback; Host is [::1]:PORT, as curl sends it', async () => {
    const r = await get(`http://[::1]:${v6Port}/six?q=1`);
    expect(r.body).toEqual({ method: 'GET', path: '/six?q=1', host: `[::1]:${v6Port}`, version: '1.1' });
  });
});
