// Private certificate authorities (engine/src/http/trust.ts, docs/networks.md): a CA made by
// test/fixtures/private-ca.mjs with openssl signs a local HTTPS server's certificate; the
// engine trusts it from --cacert, CURL_CA_BUNDLE, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS, in
// curl's order, also through a proxy's CONNECT tunnel, and refuses an unreadable or empty CA
// file before connecting.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../engine/src/http/send.js';
import { tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startProxy } from '../fixtures/proxy.mjs';
// @ts-expect-error plain ESM fixture without types
import { startPrivateCa } from '../fixtures/private-ca.mjs';

let dir: string;
let server: { url: string; ca: string; other: string; connections(): number; close(): Promise<void> };
let url: string;
let ca: string;
let other: string;
let proxy: { url: string; requests(): string[]; close(): Promise<void> };

beforeAll(async () => {
  dir = tempDir('ca-trust-');
  server = await startPrivateCa(dir);
  ({ url, ca, other } = server);
  proxy = await startProxy();
});
afterAll(async () => {
  await server.close();
  await proxy.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (p: string) => ({ method: 'GET', url: `${url}${p}`, headers: [] as [string, string][] });
const status = (p: string, trust: Parameters<typeof send>[1]['trust'], extra: Parameters<typeof send>[1] = {}) =>
  send(get(p), { trust, ...extra }).then(
    (ex) => ex.response.status,
    (e) => `${e.code} ${e.details?.curlExit}`,
  );

describe('certificate authorities, curl order', () => {
  it.each([
    ['nothing: the server is not trusted (curl exit 60)', {}, 'tls-error 60'],
    ['--cacert', { caFile: 'CA' }, 200],
    ['CURL_CA_BUNDLE', { env: { CURL_CA_BUNDLE: 'CA' } }, 200],
    ['SSL_CERT_FILE', { env: { SSL_CERT_FILE: 'CA' } }, 200],
    ['NODE_EXTRA_CA_CERTS, added to the defaults', { env: { NODE_EXTRA_CA_CERTS: 'CA' } }, 200],
    ['--cacert beats CURL_CA_BUNDLE', { caFile: 'CA', env: { CURL_CA_BUNDLE: 'OTHER' } }, 200],
    ['--cacert of another CA beats a right CURL_CA_BUNDLE', { caFile: 'OTHER', env: { CURL_CA_BUNDLE: 'CA' } }, 'tls-error 60'],
    ['CURL_CA_BUNDLE beats SSL_CERT_FILE', { env: { CURL_CA_BUNDLE: 'OTHER', SSL_CERT_FILE: 'CA' } }, 'tls-error 60'],
    ['NODE_EXTRA_CA_CERTS adds to a CA file', { env: { SSL_CERT_FILE: 'OTHER', NODE_EXTRA_CA_CERTS: 'CA' } }, 200],
    ['a relative name is taken from cwd', { caFile: 'ca.pem', cwd: 'DIR' }, 200],
  ])('%s', async (_name, o, expected) => {
    const fill = (v: string) => (v === 'CA' ? ca : v === 'OTHER' ? other : v === 'DIR' ? dir : v);
    const t = JSON.parse(JSON.stringify(o), (_k, v) => (typeof v === 'string' ? fill(v) : v));
    if (!t.env) t.env = {};
    expect(await status('/x', t)).toBe(expected);
  });

  it('the message of a certificate failure names the authorities used', async () => {
    const e = await send(get('/y'), { trust: { caFile: other, env: {} } }).catch((x) => x);
    expect(e.code).toBe('tls-error');
    expect(e.message).toContain(`(authorities: --cacert ${other})`);
  });

  it('a missing or empty CA file is bad-ca-file naming it, and nothing is sent (curl exit 77)', async () => {
    const before = server.connections();
    const empty = path.join(dir, 'empty.pem');
    fs.writeFileSync(empty, 'not a certificate\n');
    const e1 = await send(get('/z'), { trust: { env: { CURL_CA_BUNDLE: path.join(dir, 'missing.pem') } } }).catch((x) => x);
    expect(e1.code).toBe('bad-ca-file');
    expect(e1.message).toBe(`CURL_CA_BUNDLE ${path.join(dir, 'missing.pem')}: cannot read the CA file (ENOENT)`);
    expect(e1.details.curlExit).toBe(77);
    const e2 = await send(get('/z'), { trust: { caFile: empty, env: {} } }).catch((x) => x);
    expect(e2.message).toBe(`--cacert ${empty}: the CA file holds no PEM certificate`);
    const broken = path.join(dir, 'broken.pem');
    fs.writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
    const e3 = await send(get('/z'), { trust: { caFile: ca, env: { NODE_EXTRA_CA_CERTS: broken } } }).catch((x) => x);
    expect(e3.code).toBe('bad-ca-file');
    expect(e3.message).toBe(`NODE_EXTRA_CA_CERTS ${broken}: certificate 1 of the CA file is not readable (not a DER certificate in base64)`);
    expect(server.connections()).toBe(before);
  });

  it('-k needs no CA file, and an unreadable one does not matter then', async () => {
    expect(await status('/k', { caFile: path.join(dir, 'missing.pem'), env: {} }, { insecure: true })).toBe(200);
  });

  it('the CA applies inside a proxy CONNECT tunnel', async () => {
    expect(await status('/tunnel', { caFile: ca, env: {} }, { proxy: { proxy: proxy.url } })).toBe(200);
    expect(proxy.requests().some((r) => r.startsWith(`CONNECT 127.0.0.1:`))).toBe(true);
    expect(await status('/tunnel2', { env: {} }, { proxy: { proxy: proxy.url } })).toBe('tls-error 60');
  });
});
