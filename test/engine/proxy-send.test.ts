// The engine's send through a real proxy (Debian's tinyproxy on 127.0.0.1,
// test/fixtures/proxy.mjs): what went through it is read in its log. http:// URLs go in
// absolute form, https:// through CONNECT (curl's behaviour); cookies and redirects behave as
// without a proxy; NO_PROXY bypasses it; a malformed setting sends nothing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../engine/src/http/send.js';
import { newJar } from '../../engine/src/http/cookies.js';
import { startApi, tempDir, type Api } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startProxy } from '../fixtures/proxy.mjs';

interface Proxy {
  url: string;
  port: number;
  requests(): string[];
  close(): Promise<void>;
}

let api: Api;
let proxy: Proxy;
let authProxy: Proxy;
let tls: { url: string; close(): void };

/** An HTTPS server with a throwaway self-signed certificate (openssl), answering its path. */
async function startTls(): Promise<{ url: string; close(): void }> {
  const dir = tempDir('proxy-tls-');
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ tls: true, path: req.url, ...(req.headers['x-dup'] ? { dup: req.headersDistinct['x-dup'] } : {}) }));
  });
  fs.rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `https://127.0.0.1:${port}`, close: () => server.close() };
}

beforeAll(async () => {
  api = await startApi();
  proxy = await startProxy();
  authProxy = await startProxy({ auth: 'pu:pw' });
  tls = await startTls();
});
afterAll(async () => {
  await api.close();
  await proxy.close();
  await authProxy.close();
  tls.close();
});

const get = (url: string) => ({ method: 'GET', url, headers: [] as [string, string][] });
const seen = (p: Proxy, text: string) => p.requests().filter((r) => r.includes(text));

describe('send through a proxy', () => {
  it('an http:// URL goes through http_proxy, in absolute form', async () => {
    const ex = await send(get(`${api.url}/small?via=env`), { proxy: { env: { http_proxy: proxy.url } } });
    expect(ex.response.status).toBe(200);
    expect(JSON.parse(Buffer.from(ex.response.body).toString()).name).toBe('small');
    expect(seen(proxy, '/small?via=env')).toEqual([`GET ${api.url}/small?via=env HTTP/1.1`]);
  });

  it('the explicit proxy beats the environment', async () => {
    await send(get(`${api.url}/small?via=option`), { proxy: { proxy: proxy.url, env: { http_proxy: 'http://127.0.0.1:9' } } });
    expect(seen(proxy, 'via=option')).toHaveLength(1);
  });

  it('NO_PROXY bypasses the proxy', async () => {
    const ex = await send(get(`${api.url}/small?via=bypass`), { proxy: { env: { http_proxy: proxy.url, NO_PROXY: '127.0.0.0/8' } } });
    expect(ex.response.status).toBe(200);
    expect(seen(proxy, 'via=bypass')).toEqual([]);
  });

  it('HTTP_PROXY in upper case is not read, as curl does not', async () => {
    await send(get(`${api.url}/small?via=upper`), { proxy: { env: { HTTP_PROXY: proxy.url } } });
    expect(seen(proxy, 'via=upper')).toEqual([]);
  });

  it('an https:// URL goes through a CONNECT tunnel', async () => {
    const ex = await send(get(`${tls.url}/secret?x=1`), { insecure: true, proxy: { env: { HTTPS_PROXY: proxy.url } } });
    expect(JSON.parse(Buffer.from(ex.response.body).toString())).toEqual({ tls: true, path: '/secret?x=1' });
    const host = tls.url.slice('https://'.length);
    expect(seen(proxy, `CONNECT ${host}`)).toHaveLength(1);
    // The path travels inside the tunnel: the proxy never sees it.
    expect(seen(proxy, '/secret')).toEqual([]);
  });

  it('keep-alive: the tunnels to one https:// origin are kept and reused', async () => {
    const connects = () => proxy.requests().filter((r) => r.startsWith('CONNECT ')).length;
    // A pool of its own (other credentials): its first tunnels are this test's.
    const o = { insecure: true, proxy: { proxy: proxy.url, proxyUser: 'keep:alive' } };
    const before = connects();
    for (let i = 0; i < 6; i++) expect((await send(get(`${tls.url}/k${i}`), o)).response.status).toBe(200);
    // The direct path opens a second connection after the first exchange too (undici 7.30.2);
    // without a kept pool each of the six requests would open a tunnel.
    expect(connects() - before).toBeLessThanOrEqual(2);
  });

  it('a header given twice reaches the server twice through the tunnel', async () => {
    const req = { ...get(`${tls.url}/dup`), headers: [['X-Dup', 'a'], ['X-Dup', 'b']] as [string, string][] };
    const ex = await send(req, { insecure: true, proxy: { proxy: proxy.url } });
    expect(JSON.parse(Buffer.from(ex.response.body).toString()).dup).toEqual(['a', 'b']);
  });

  it('redirects are followed through the proxy, and the cookie jar fills as without one', async () => {
    const jar = newJar();
    await send(get(`${api.url}/cookies/set?pc=1`), { jar, proxy: { proxy: proxy.url } });
    const ex = await send(get(`${api.url}/redirect/2?jar=yes`), { jar, proxy: { proxy: proxy.url } });
    expect(ex.redirects.length).toBe(2);
    expect(ex.response.status).toBe(200);
    const back = await send(get(`${api.url}/cookies`), { jar, proxy: { proxy: proxy.url } });
    expect(JSON.parse(Buffer.from(back.response.body).toString()).cookies).toEqual({ pc: '1' });
    const lines = proxy.requests();
    expect(lines.some((l) => l.startsWith(`GET ${api.url}/redirect/2?jar=yes `))).toBe(true);
    expect(lines.some((l) => l.startsWith(`GET ${api.url}/redirect/1`))).toBe(true);
    expect(lines.some((l) => l === `GET ${api.url}/cookies HTTP/1.1`)).toBe(true);
  });

  it('credentials in the proxy URL are sent to the proxy, and -U beats them', async () => {
    const at = authProxy.url.replace('http://', 'http://pu:pw@');
    const ok = await send(get(`${api.url}/small?auth=url`), { proxy: { proxy: at } });
    expect(ok.response.status).toBe(200);
    expect(seen(authProxy, 'auth=url')).toHaveLength(1);
    // For an http:// URL the proxy's refusal is the response, as curl shows it: 407 without
    // credentials, and tinyproxy's 401 for wrong ones (here -U's, over the URL's right ones).
    const none = await send(get(`${api.url}/small?auth=none`), { proxy: { proxy: authProxy.url } });
    expect(none.response.status).toBe(407);
    const bad = await send(get(`${api.url}/small?auth=user`), { proxy: { proxy: at, proxyUser: 'pu:wrong' } });
    expect(bad.response.status).toBe(401);
    // Through a CONNECT tunnel there is no response to show: an error that says what to do.
    const tunnel = await send(get(`${tls.url}/x`), { insecure: true, proxy: { proxy: authProxy.url } }).catch((e) => e);
    expect(tunnel.code).toBe('network-error');
    expect(tunnel.message).toMatch(/answered 407 \(it wants credentials\)/);
    expect(tunnel.hint).toMatch(/-U user:password/);
    const through = await send(get(`${tls.url}/y`), { insecure: true, proxy: { proxy: authProxy.url, proxyUser: 'pu:pw' } });
    expect(through.response.status).toBe(200);
  });

  it('a proxy that refuses connections is named in the error with where it came from', async () => {
    const e = await send(get(`${api.url}/small`), { proxy: { env: { all_proxy: 'http://127.0.0.1:9' } } }).catch((x) => x);
    expect(e.code).toBe('connection-refused');
    expect(e.message).toContain('the proxy http://127.0.0.1:9 (from all_proxy)');
    expect(e.details.curlExit).toBe(7);
  });

  it('a malformed proxy or NO_PROXY entry is bad-proxy and nothing is sent', async () => {
    const before = proxy.requests().length;
    const e1 = await send(get(`${api.url}/small?bad=1`), { proxy: { env: { http_proxy: 'http://[::1' } } }).catch((x) => x);
    expect(e1.code).toBe('bad-proxy');
    expect(e1.message).toMatch(/^http_proxy: not a proxy URL/);
    const e2 = await send(get(`${api.url}/small?bad=2`), { proxy: { env: { http_proxy: proxy.url, no_proxy: '127.0.0.1:8080' } } }).catch((x) => x);
    expect(e2.code).toBe('bad-proxy');
    expect(e2.details.variable).toBe('no_proxy');
    expect(proxy.requests().length).toBe(before);
  });
});
