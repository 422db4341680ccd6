// Client certificates, HTTP/2 and Unix sockets in the front ends other than the shell
// (docs/networks.md): the JSON-RPC settings `clientCert`, `clientCertificates` (Emacs'
// sheet-client-certificates), `http2`, `unixSocket`; a `.http` file's `# @http2` and `HTTP/2`
// request line, JetBrains' SSLConfiguration and httpyac's clientCertificates in environment
// files; `sheet run --cert/--key/--pass/--http2/--unix-socket`. Servers: test/fixtures/private-ca.mjs
// (one requiring a client certificate, one speaking h2), the example API on a socket file.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, spawnEngine, tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startPrivateCa } from '../fixtures/private-ca.mjs';
// @ts-expect-error plain ESM fixture without types
import { startServer } from '../fixtures/server.mjs';

interface Ca { url: string; ca: string; client: { cert: string; key: string; encKey: string; pass: string; otherKey: string }; connections(): number; close(): Promise<void> }
let dir: string;
let mtls: Ca;
let h2: Ca;
let sock: { close(): Promise<void> };
let socketFile: string;
const CLEAN = { CURL_CA_BUNDLE: undefined, SSL_CERT_FILE: undefined, NODE_EXTRA_CA_CERTS: undefined, http_proxy: undefined, https_proxy: undefined, HTTPS_PROXY: undefined, ALL_PROXY: undefined, all_proxy: undefined };

beforeAll(async () => {
  dir = tempDir('tls-frontends-');
  fs.mkdirSync(path.join(dir, 'm'));
  fs.mkdirSync(path.join(dir, 'h'));
  mtls = await startPrivateCa(path.join(dir, 'm'), { mtls: true });
  h2 = await startPrivateCa(path.join(dir, 'h'), { http2: true });
  socketFile = path.join(dir, 'api.sock');
  sock = await startServer({ socket: socketFile });
});
afterAll(async () => {
  await mtls.close();
  await h2.close();
  await sock.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** sheet/send of `text` (line 1) in a fresh engine; the result or the error. */
const rpc = async (text: string, settings: object, extra: object = {}) => {
  const eng = spawnEngine({ env: CLEAN });
  try {
    await eng.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
    return await eng.conn.sendRequest('sheet/send', { text, line: 1, settings, ...extra }).catch((e) => e);
  } finally {
    await eng.close();
  }
};
/** The JSON body as the presentation shows it (pretty-printed, maybe with a trailer). */
const json = (r: { presentation: { text: string } }) => {
  const t = r.presentation.text;
  return JSON.parse(t.slice(t.indexOf('{'), t.lastIndexOf('}') + 1));
};

describe('JSON-RPC settings', () => {
  it('clientCertificates by host presents the certificate; clientCert wins; none: tls-error', async () => {
    const port = new URL(mtls.url).port;
    const byHost = await rpc(`GET ${mtls.url}/by-host\n`, { caFile: mtls.ca, clientCertificates: { [`127.0.0.1:${port}`]: { cert: mtls.client.cert, key: mtls.client.encKey, pass: mtls.client.pass } } });
    expect(json(byHost).client).toBe('test client');
    const none = await rpc(`GET ${mtls.url}/none\n`, { caFile: mtls.ca });
    expect(none.data.code).toBe('tls-error');
    const both = await rpc(`GET ${mtls.url}/both\n`, { caFile: mtls.ca, clientCert: { cert: mtls.client.cert, key: mtls.client.key }, clientCertificates: { '127.0.0.1': { cert: mtls.client.cert, key: mtls.client.otherKey } } });
    expect(json(both).client).toBe('test client');
  });

  it('a key that does not match is bad-client-cert naming the file, nothing sent; a malformed setting is bad-argument', async () => {
    const before = mtls.connections();
    const e = await rpc(`GET ${mtls.url}/bad\n`, { caFile: mtls.ca, clientCertificates: { '127.0.0.1': { cert: mtls.client.cert, key: mtls.client.otherKey } } });
    expect(e.data.code).toBe('bad-client-cert');
    expect(e.message).toContain(`for 127.0.0.1 ${mtls.client.otherKey}: the key does not belong to the certificate`);
    expect(mtls.connections()).toBe(before);
    const shape = await rpc(`GET ${mtls.url}/shape\n`, { clientCertificates: { '127.0.0.1': 'cert.pem' } });
    expect(shape.data.code).toBe('bad-argument');
    expect(shape.message).toContain('settings.clientCertificates["127.0.0.1"] must be {cert, key?, pass?}');
  });

  it('http2: HTTP/2 answers and the result says so; without it HTTP/1.1', async () => {
    const two = await rpc(`GET ${h2.url}/two\n`, { caFile: h2.ca, http2: true });
    expect(two.response.httpVersion).toBe('2');
    expect(json(two).protocol).toBe('2');
    const one = await rpc(`GET ${h2.url}/one\n`, { caFile: h2.ca });
    expect(one.response.httpVersion).toBe('1.1');
  });

  it('unixSocket: the request goes to the socket file', async () => {
    const r = await rpc('GET http://docker/echo/v1.43/containers/json\n', { unixSocket: socketFile });
    expect(json(r).path).toBe('/echo/v1.43/containers/json');
    expect(json(r).headers.host).toBe('docker');
  });
});

describe('sheet/curl (C-c C-u) carries the connection settings', () => {
  it('--cert/--key of the host, --http2 of the request line, --unix-socket; curl sends the same', async () => {
    const eng = spawnEngine({ env: CLEAN });
    try {
      await eng.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
      const settings = { clientCertificates: { '127.0.0.1': { cert: mtls.client.cert, key: mtls.client.key } } };
      const r = await eng.conn.sendRequest('sheet/curl', { text: `GET ${mtls.url}/curl HTTP/2\n`, line: 1, settings });
      expect(r.command).toContain(`--cert ${mtls.client.cert} --key ${mtls.client.key} --http2`);
      // The servers run in this process: curl runs without blocking it.
      const { stdout } = await promisify(execFile)('bash', ['-c', `${r.command} -s --max-time 20 --cacert ${mtls.ca}`], { encoding: 'utf8' });
      expect(JSON.parse(stdout).client).toBe('test client');
      const other = await eng.conn.sendRequest('sheet/curl', { text: 'GET http://localhost/echo/x\n', line: 1, settings: { ...settings, unixSocket: socketFile } });
      expect(other.command).not.toContain('--cert');
      expect(JSON.parse((await promisify(execFile)('bash', ['-c', `${other.command} -s --max-time 20`], { encoding: 'utf8' })).stdout).path).toBe('/echo/x');
    } finally {
      await eng.close();
    }
  });
});

describe('.http files', () => {
  it('# @http2 and HTTP/2 on the request line offer HTTP/2', async () => {
    const f = path.join(dir, 'h', 'two.http');
    for (const text of [`# @http2\nGET ${h2.url}/directive\n`, `GET ${h2.url}/line HTTP/2\n`]) {
      fs.writeFileSync(f, text);
      const r = await rpc(text, { caFile: h2.ca }, { path: f });
      expect(r.response.httpVersion).toBe('2');
    }
  });

  it("JetBrains' SSLConfiguration and httpyac's clientCertificates in environment files", async () => {
    const d = path.join(dir, 'env');
    fs.mkdirSync(d, { recursive: true });
    const rel = (f: string) => path.relative(d, f);
    const port = new URL(mtls.url).port;
    fs.writeFileSync(path.join(d, 'http-client.env.json'), JSON.stringify({
      jb: { SSLConfiguration: { clientCertificate: rel(mtls.client.cert), clientCertificateKey: { path: rel(mtls.client.key), format: 'PEM' } } },
      yac: { clientCertificates: { [`127.0.0.1:${port}`]: { cert: rel(mtls.client.cert), key: rel(mtls.client.encKey) } } },
      bad: { clientCertificates: { '127.0.0.1': { pfx: 'client.p12' } } },
      jbenc: { SSLConfiguration: { clientCertificate: rel(mtls.client.cert), clientCertificateKey: rel(mtls.client.encKey), hasCertificatePassphrase: true } },
    }));
    fs.writeFileSync(path.join(d, 'http-client.private.env.json'), JSON.stringify({ yac: { clientCertificates: { [`127.0.0.1:${port}`]: { cert: rel(mtls.client.cert), key: rel(mtls.client.encKey), passphrase: mtls.client.pass } } } }));
    const f = path.join(d, 'a.http');
    const text = `GET ${mtls.url}/env\n`;
    fs.writeFileSync(f, text);
    for (const env of ['jb', 'yac']) {
      const r = await rpc(text, { caFile: mtls.ca }, { path: f, env });
      expect(json(r).client).toBe('test client');
    }
    const bad = await rpc(text, { caFile: mtls.ca }, { path: f, env: 'bad' });
    expect(bad.data.code).toBe('bad-environment');
    expect(bad.message).toContain('clientCertificates["127.0.0.1"].pfx: PKCS#12 files are not read');
    const enc = await rpc(text, { caFile: mtls.ca }, { path: f, env: 'jbenc' });
    expect(enc.data.code).toBe('bad-client-cert');
    expect(enc.message).toContain('the key is encrypted; give its passphrase with "certificatePassphrase" in SSLConfiguration of');
    expect(enc.message).toContain('hasCertificatePassphrase');
  });
});

describe("VS Code REST Client's rest-client.certificates", () => {
  it('by host, relative to the workspace, for every environment', async () => {
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'api'), { recursive: true });
    fs.copyFileSync(mtls.client.cert, path.join(ws, 'c.pem'));
    fs.copyFileSync(mtls.client.key, path.join(ws, 'k.pem'));
    fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), `{
      // JSON with comments, as VS Code writes it
      "rest-client.certificates": { "127.0.0.1:${new URL(mtls.url).port}": { "cert": "c.pem", "key": "k.pem" } },
      "rest-client.environmentVariables": { "local": {} },
    }`);
    const f = path.join(ws, 'api', 'a.http');
    const text = `GET ${mtls.url}/vscode\n`;
    fs.writeFileSync(f, text);
    expect(json(await rpc(text, { caFile: mtls.ca }, { path: f })).client).toBe('test client');
    expect(json(await rpc(text, { caFile: mtls.ca }, { path: f, env: 'local' })).client).toBe('test client');
  });
});

describe('sheet run', () => {
  it('--cert/--key/--pass (relative names), --http2, --unix-socket', async () => {
    const f = path.join(dir, 'm', 'a.sheet');
    fs.writeFileSync(f, `GET ${mtls.url}/run\n-> expect-status 200\n-> expect-jq '.client == "test client"'\n`);
    const none = await runSheet(['run', '--cacert', 'ca.pem', f], { cwd: path.join(dir, 'm'), env: CLEAN });
    expect(none.code).toBe(3);
    expect(none.out + none.err).toMatch(/no client certificate/);
    const ok = await runSheet(['run', '--cacert', 'ca.pem', '-E', 'client.pem:secret', '--key', 'client-enc.key', f], { cwd: path.join(dir, 'm'), env: CLEAN });
    expect(ok.out + ok.err).not.toMatch(/✗/);
    expect(ok.code).toBe(0);
    const mismatch = await runSheet(['run', '--cacert', 'ca.pem', '--cert', 'client.pem', '--key', 'other-client.key', f], { cwd: path.join(dir, 'm'), env: CLEAN });
    expect(mismatch.out + mismatch.err).toMatch(/--key \S+other-client\.key: the key does not belong to the certificate/);
    const stray = await runSheet(['run', '--key', 'client.key', f], { cwd: path.join(dir, 'm'), env: CLEAN });
    expect(stray.code).toBe(2);
    expect(stray.err).toMatch(/--key needs --cert/);
    const g = path.join(dir, 'h', 'b.sheet');
    fs.writeFileSync(g, `GET ${h2.url}/run\n-> expect-jq '.protocol == "2"'\n`);
    expect((await runSheet(['run', '--cacert', 'ca.pem', g], { cwd: path.join(dir, 'h'), env: CLEAN })).code).toBe(1);
    expect((await runSheet(['run', '--cacert', 'ca.pem', '--http2', g], { cwd: path.join(dir, 'h'), env: CLEAN })).code).toBe(0);
    const s = path.join(dir, 's.sheet');
    fs.writeFileSync(s, `GET http://localhost/echo/sock\n-> expect-jq '.path == "/echo/sock"'\n`);
    expect((await runSheet(['run', '--unix-socket', 'api.sock', s], { cwd: dir, env: CLEAN })).code).toBe(0);
  });

  it('an IPv6 literal URL reaches the example API on ::1, Host as curl sends it', async () => {
    const v6 = await startServer({ host: '::1' });
    try {
      const f = path.join(dir, 'six.sheet');
      fs.writeFileSync(f, `GET ${v6.url}/echo/six\n-> expect-jq '.headers.host == "[::1]:${v6.port}"'\n`);
      expect(v6.url).toBe(`http://[::1]:${v6.port}`);
      const r = await runSheet(['run', f], { cwd: dir, env: CLEAN });
      expect(r.out + r.err).not.toMatch(/✗/);
      expect(r.code).toBe(0);
    } finally {
      await v6.close();
    }
  });
});
