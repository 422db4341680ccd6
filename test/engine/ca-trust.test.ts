// Private certificate authorities (engine/src/http/trust.ts, docs/networks.md): a CA made here
// with openssl signs a local HTTPS server's certificate; the engine trusts it from --cacert,
// CURL_CA_BUNDLE, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS, in curl's order, also through a proxy's
// CONNECT tunnel, and refuses an unreadable or empty CA file before connecting.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../engine/src/http/send.js';
import { tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startProxy } from '../fixtures/proxy.mjs';

let dir: string;
let server: https.Server;
let url: string;
let connections = 0;
let proxy: { url: string; requests(): string[]; close(): Promise<void> };

/** A CA (ca.pem), another CA (other.pem) and a server certificate for 127.0.0.1 signed by the first. */
function makeCa(into: string): { ca: string; other: string; key: Buffer; cert: Buffer } {
  const o = (args: string[]) => execFileSync('openssl', args, { cwd: into, stdio: 'ignore' });
  o(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=sheet-rest test CA']);
  o(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other.key', '-out', 'other.pem', '-days', '1', '-subj', '/CN=another CA']);
  o(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'srv.key', '-out', 'srv.csr', '-subj', '/CN=127.0.0.1']);
  fs.writeFileSync(path.join(into, 'ext'), 'subjectAltName=IP:127.0.0.1\n');
  o(['x509', '-req', '-in', 'srv.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'srv.pem', '-days', '1', '-extfile', 'ext']);
  return { ca: path.join(into, 'ca.pem'), other: path.join(into, 'other.pem'), key: fs.readFileSync(path.join(into, 'srv.key')), cert: fs.readFileSync(path.join(into, 'srv.pem')) };
}

let ca: string;
let other: string;

beforeAll(async () => {
  dir = tempDir('ca-trust-');
  const made = makeCa(dir);
  ca = made.ca;
  other = made.other;
  server = https.createServer({ key: made.key, cert: made.cert }, (req, res) => res.end(JSON.stringify({ ok: true, path: req.url })));
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  proxy = await startProxy();
});
afterAll(async () => {
  server.close();
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
    const before = connections;
    const empty = path.join(dir, 'empty.pem');
    fs.writeFileSync(empty, 'not a certificate\n');
    const e1 = await send(get('/z'), { trust: { env: { CURL_CA_BUNDLE: path.join(dir, 'missing.pem') } } }).catch((x) => x);
    expect(e1.code).toBe('bad-ca-file');
    expect(e1.message).toBe(`CURL_CA_BUNDLE ${path.join(dir, 'missing.pem')}: cannot read the CA file (ENOENT)`);
    expect(e1.details.curlExit).toBe(77);
    const e2 = await send(get('/z'), { trust: { caFile: empty, env: {} } }).catch((x) => x);
    expect(e2.message).toBe(`--cacert ${empty}: the CA file holds no PEM certificate`);
    expect(connections).toBe(before);
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
