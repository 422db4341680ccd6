// Issue 39, item 1: the OAuth2 token request connects as the request that needs it does: the
// session's proxy setting and the request's `# @proxy` (here Debian's tinyproxy on 127.0.0.1,
// whose log shows the token request), and a bad connection directive is refused before the
// token endpoint is asked.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
import { startEchoApi, startIdP, writeEnvFiles, type EchoApi, type IdP } from './oauth2-fixture.js';
import { startProxy } from '../fixtures/proxy.mjs';
import { startPrivateCa } from '../fixtures/private-ca.mjs';
import { runSheet, tempDir } from './helpers.js';

const PROXY_VARS = ['http_proxy', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY', 'no_proxy', 'NO_PROXY'] as const;
const saved = Object.fromEntries([...PROXY_VARS, 'SHEET_STATE_DIR'].map((k) => [k, process.env[k]]));

let idp: IdP;
let api: EchoApi;
let proxy: { url: string; requests(): string[]; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  for (const k of PROXY_VARS) delete process.env[k];
  [idp, api, proxy] = await Promise.all([startIdP(), startEchoApi(), startProxy()]);
  dir = tempDir('oauth2-net-');
  writeEnvFiles(dir, { dev: { base: api.url, proxy: proxy.url, Security: { Auth: { svc: { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Token URL': idp.tokenUrl, 'Client ID': 'cli', 'Client Secret': 's' } } } } });
});
afterAll(async () => {
  await Promise.all([idp.close(), api.close(), proxy.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});
beforeEach(() => {
  process.env.SHEET_STATE_DIR = tempDir('oauth2-net-state-');
  idp.calls.length = 0;
  api.received.length = 0;
});

async function send(text: string, session = new Session(), settings = {}) {
  const file = path.join(dir, 'api.http');
  fs.writeFileSync(file, text);
  return session.send({ text, line: 1, path: file, env: 'dev', settings });
}

const tokenLines = () => proxy.requests().filter((l) => l === `POST ${idp.tokenUrl} HTTP/1.1`);

describe('the token request through the proxy', () => {
  it('# @proxy {{proxy}}: the token request goes through tinyproxy, as the request does', async () => {
    const before = tokenLines().length;
    const out = await send('# @proxy {{proxy}}\nGET {{base}}/things?via=directive\nAuthorization: Bearer {{$auth.token("svc")}}\n');
    expect(out.response.status).toBe(200);
    expect(idp.calls.map((c) => c.grant)).toEqual(['client_credentials']);
    expect(tokenLines().length).toBe(before + 1);
    expect(proxy.requests()).toContain(`GET ${api.url}/things?via=directive HTTP/1.1`);
  });

  it('the session proxy setting (sheet run --proxy, url-proxy-services): the token request goes through it; # @noproxy 127.0.0.1 sends it direct', async () => {
    const before = tokenLines().length;
    const out = await send('GET {{base}}/things?via=setting\nAuthorization: Bearer {{$auth.token("svc")}}\n', new Session(), { proxy: { all: proxy.url } });
    expect(out.response.status).toBe(200);
    expect(tokenLines().length).toBe(before + 1);
    process.env.SHEET_STATE_DIR = tempDir('oauth2-net-state-'); // no kept token: a new token request
    const direct = await send('# @noproxy 127.0.0.1\nGET {{base}}/things?via=noproxy\nAuthorization: Bearer {{$auth.token("svc")}}\n', new Session(), { proxy: { all: proxy.url } });
    expect(direct.response.status).toBe(200);
    expect(idp.calls).toHaveLength(2);
    expect(tokenLines().length).toBe(before + 1);
  });

  it('sheet auth login: the token request takes the proxy of http_proxy, as curl and every request do', async () => {
    const before = tokenLines().length;
    const state = tempDir('oauth2-net-login-');
    const r = await runSheet(['auth', 'login', 'svc', '--env', 'dev'], { cwd: dir, env: { XDG_STATE_HOME: state, SHEET_STATE_DIR: '', http_proxy: proxy.url, no_proxy: '', NO_PROXY: '' } });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(tokenLines().length).toBe(before + 1);
  });

  it('a malformed # @proxy: bad-proxy at its line, and neither the token endpoint nor the API is asked', async () => {
    const err = await send('# @proxy ftp://127.0.0.1:1\nGET {{base}}/things?via=bad\nAuthorization: Bearer {{$auth.token("svc")}}\n').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'bad-proxy', line: 1 });
    expect(idp.calls).toHaveLength(0);
    expect(api.received).toHaveLength(0);
  });
});

describe('the token endpoint\'s certificate', () => {
  // The private CA's server answers every request with {"ok": true, ...}: not a token. Reaching
  // it (the TLS handshake verified) is `bad-answer`; a certificate nothing trusts, `unreachable`.
  let tls: { url: string; ca: string; close(): Promise<void> };
  let tlsDir: string;
  beforeAll(async () => {
    tlsDir = tempDir('oauth2-net-ca-');
    tls = await startPrivateCa(tlsDir);
    writeEnvFiles(tlsDir, { dev: { base: api.url, ca: tls.ca, Security: { Auth: { svc: { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Token URL': `${tls.url}/token`, 'Client ID': 'cli', 'Client Secret': 's' } } } } });
  });
  afterAll(async () => {
    await tls.close();
    fs.rmSync(tlsDir, { recursive: true, force: true });
  });
  const sendTls = (text: string) => {
    const file = path.join(tlsDir, 'api.http');
    fs.writeFileSync(file, text);
    return new Session().send({ text, line: 1, path: file, env: 'dev' }).catch((e: unknown) => e as { code: string; message: string; details: { reason: string } });
  };
  const request = 'GET {{base}}/things\nAuthorization: Bearer {{$auth.token("svc")}}\n';

  it('no CA given: unreachable, the TLS error and the CA settings named', async () => {
    const err = await sendTls(request);
    expect(err).toMatchObject({ code: 'token-request-failed', details: { reason: 'unreachable' } });
    expect((err as Error).message).toMatch(/cannot reach the token endpoint https:\/\/127\.0\.0\.1:\d+\/token \(TLS error: .*(verify|certificate)/i);
    expect((err as { hint: string }).hint).toMatch(/# @cacert FILE/);
    expect(api.received).toHaveLength(0);
  });

  it('# @cacert {{ca}}: the token endpoint is reached over verified TLS', async () => {
    const err = await sendTls(`# @cacert {{ca}}\n${request}`);
    expect(err).toMatchObject({ code: 'token-request-failed', details: { reason: 'bad-answer' } });
    expect((err as Error).message).toMatch(/has no access_token/);
    expect(api.received).toHaveLength(0);
  });

  it('# @insecure: the token endpoint is reached without verifying its certificate, as curl -k', async () => {
    const err = await sendTls(`# @insecure\n${request}`);
    expect(err).toMatchObject({ code: 'token-request-failed', details: { reason: 'bad-answer' } });
  });
});
