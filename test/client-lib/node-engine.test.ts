// @vitest-environment node
// The Node entry (client-lib/src/node.ts): the library on the engine's HTTP layer (undici via
// engine/src/http/send.ts) against the example API and httpbin on 127.0.0.1: redirects, a
// Netscape cookie file that real curl then reads, timeout, abort, the engine's error codes.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, ClientHttpError } from '../../client-lib/src/node';
// @ts-expect-error plain JS fixture
import { startServer } from '../fixtures/server.mjs';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';
// @ts-expect-error plain JS fixture
import { startProxy } from '../fixtures/proxy.mjs';

let api: { url: string };
let bin: { url: string };
let dir: string;
beforeAll(async () => {
  [api, bin] = await Promise.all([startServer(), sharedHttpbin()]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-lib-node-'));
}, 30000);
afterAll(async () => {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Real curl, asynchronously: the example API runs in this process and must keep answering.
const curl = async (...args: string[]): Promise<any> => JSON.parse((await promisify(execFile)('curl', ['-s', ...args], { encoding: 'utf8' })).stdout);

const failure = async (p: PromiseLike<any>): Promise<ClientHttpError> => {
  try {
    await p;
  } catch (e) {
    return e as ClientHttpError;
  }
  throw new Error('expected a rejection');
};

describe('Node entry: the engine transport', () => {
  it('follows redirects (example API and httpbin)', async () => {
    const users: any = await createClient({ baseUrl: api.url }).all('redirect').getList();
    expect(users.length).toBeGreaterThan(0);
    const got: any = await createClient({ baseUrl: bin.url }).one('redirect', 3).get();
    expect(got.url).toBe(bin.url + '/get');
    const kept = await failure(createClient({ baseUrl: bin.url, followRedirects: false }).one('redirect', 1).get());
    expect(kept.status).toBe(302);
    expect(kept.code).toBe('HTTP_ERROR');
  });

  it("honours fetch's redirect per call: 'manual' keeps the 302, 'error' fails with NETWORK_ERROR, 'follow' follows", async () => {
    const c = createClient({ baseUrl: bin.url });
    const manual = await failure(c.one('redirect', 1).withHttpConfig({ redirect: 'manual' }).get());
    expect([manual.code, manual.status]).toEqual(['HTTP_ERROR', 302]);
    const refused = await failure(c.one('redirect', 1).withHttpConfig({ redirect: 'error' }).get());
    expect(refused.code).toBe('NETWORK_ERROR');
    expect(refused.message).toContain("redirect mode is 'error'");
    const followed: any = await createClient({ baseUrl: bin.url, followRedirects: false }).one('redirect', 1).withHttpConfig({ redirect: 'follow' }).get();
    expect(followed.url).toBe(bin.url + '/get');
  });

  it('keeps cookies in a Netscape file that curl reads, and sends them back', async () => {
    const jar = path.join(dir, 'cookies.txt');
    const c = createClient({ baseUrl: api.url, cookieJar: jar });
    await c.one('cookies', 'persistent').get();
    expect(fs.readFileSync(jar, 'utf8')).toMatch(/127\.0\.0\.1\tFALSE\t\/\tFALSE\t\d+\tkeep\tyes/);
    const back: any = await c.one('cookies').get();
    expect(back.cookies).toEqual({ keep: 'yes' });
    const byCurl = await curl('-b', jar, api.url + '/cookies');
    expect(byCurl.cookies).toEqual({ keep: 'yes' });
    // httpbin sets a cookie on a redirect: the jar holds it on the followed request.
    const jar2 = path.join(dir, 'httpbin-cookies.txt');
    const seen: any = await createClient({ baseUrl: bin.url, cookieJar: jar2 }).all('cookies').customGET('set', { flavour: 'oat' });
    expect(seen.cookies).toEqual({ flavour: 'oat' });
    const again = await curl('-b', jar2, bin.url + '/cookies');
    expect(again.cookies).toEqual({ flavour: 'oat' });
  });

  it('times out (per request and per client) with code TIMEOUT', async () => {
    const slow = await failure(createClient({ baseUrl: api.url }).one('slow').withHttpConfig({ timeout: 100 }).get({ ms: 3000 }));
    expect(slow.code).toBe('TIMEOUT');
    const started = Date.now();
    const delay = await failure(createClient({ baseUrl: bin.url, timeoutMs: 150 }).one('delay', 3).get());
    expect(delay.code).toBe('TIMEOUT');
    expect((delay.cause as any).code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('aborts through the timeout promise with code ABORTED', async () => {
    let cancel!: () => void;
    const timeout = new Promise<void>((r) => (cancel = r));
    const p = createClient({ baseUrl: api.url }).one('slow').withHttpConfig({ timeout }).get({ ms: 3000 });
    setTimeout(cancel, 50);
    const e = await failure(p);
    expect(e.code).toBe('ABORTED');
    expect(e.status).toBe(-1);
  });

  it('maps the engine error of a refused connection to NETWORK_ERROR, keeping it as cause', async () => {
    const e = await failure(createClient({ baseUrl: 'http://127.0.0.1:9' }).all('users').getList());
    expect(e.code).toBe('NETWORK_ERROR');
    expect((e.cause as any).code).toBe('connection-refused');
    expect(e.message).toMatch(/connection refused/);
  });

  it('posts JSON and reads the answer like the fetch transport', async () => {
    const echo: any = await createClient({ baseUrl: api.url }).all('lib-echo').post({ name: 'Ada' }, { q: 'a b' });
    expect(echo.method).toBe('POST');
    expect(echo.query).toBe('?q=a+b');
    expect(JSON.parse(echo.body)).toEqual({ name: 'Ada' });
    expect(echo.headers['content-type']).toBe('application/json;charset=utf-8');
  });
});

describe('Node entry: proxies (docs/networks.md)', () => {
  it('the proxy option sends through a real proxy (tinyproxy), and noProxy sends direct', async () => {
    const proxy = await startProxy();
    try {
      const small: any = await createClient({ baseUrl: api.url, proxy: proxy.url }).one('small').get({ lib: 'proxied' });
      expect(small.name).toBe('small');
      expect(proxy.requests()).toEqual([`GET ${api.url}/small?lib=proxied HTTP/1.1`]);
      await createClient({ baseUrl: api.url, proxy: proxy.url, noProxy: '127.0.0.1' }).one('small').get({ lib: 'direct' });
      expect(proxy.requests().some((r: string) => r.includes('lib=direct'))).toBe(false);
    } finally {
      await proxy.close();
    }
  });
});

describe('Node entry: client certificates and HTTP/2 (docs/networks.md)', () => {
  it('cert/key present a client certificate; a key of another certificate fails before sending', async () => {
    // @ts-expect-error plain JS fixture
    const { startPrivateCa } = await import('../fixtures/private-ca.mjs');
    const d = fs.mkdtempSync(path.join(dir, 'mtls-'));
    const s = await startPrivateCa(d, { mtls: true });
    try {
      const ok: any = await createClient({ baseUrl: s.url, insecure: true, cert: s.client.cert, key: s.client.key }).one('who').get();
      expect(ok.client).toBe('test client');
      const none = await failure(createClient({ baseUrl: s.url, insecure: true }).one('who').get());
      expect((none.cause as any).code).toBe('tls-error');
      const before = s.connections();
      const bad = await failure(createClient({ baseUrl: s.url, insecure: true, cert: s.client.cert, key: s.client.otherKey }).one('who').get());
      expect((bad.cause as any).code).toBe('bad-client-cert');
      expect(s.connections()).toBe(before);
    } finally {
      await s.close();
    }
  });

  it('http2 offers HTTP/2 to an h2 server', async () => {
    // @ts-expect-error plain JS fixture
    const { startPrivateCa } = await import('../fixtures/private-ca.mjs');
    const s = await startPrivateCa(fs.mkdtempSync(path.join(dir, 'h2-')), { http2: true });
    try {
      const two: any = await createClient({ baseUrl: s.url, insecure: true, http2: true }).one('v').get();
      expect(two.protocol).toBe('2');
      const one: any = await createClient({ baseUrl: s.url, insecure: true }).one('v').get();
      expect(one.protocol).toBe('1.1');
    } finally {
      await s.close();
    }
  });
});

describe('Node entry: IPv6 literals (docs/networks.md)', () => {
  it('a base URL http://[::1]:PORT reaches the example API on the IPv6 loopback, Host as curl sends it', async () => {
    const v6 = await startServer({ host: '::1' });
    try {
      const echo: any = await createClient({ baseUrl: v6.url }).one('echo', 'six').get({ q: '1' });
      expect(echo.path).toBe('/echo/six');
      expect(echo.headers.host).toBe(`[::1]:${v6.port}`);
    } finally {
      await v6.close();
    }
  });
});
