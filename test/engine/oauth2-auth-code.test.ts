// Issue 39 item 3: Authorization Code with PKCE (S256) against oauth2-mock-server on 127.0.0.1,
// which checks the code_verifier against the challenge; the browser is a script in BROWSER
// (test/fixtures/oauth2-browser.mjs) that follows the provider's redirect to the engine's
// listener. A forged state, no one to sign in (no terminal), CI, and the time limit are
// located errors with nothing sent to the API, and the listener is closed after each.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
import { TokenStore } from '../../engine/src/tokens/store.js';
import { startEchoApi, startIdP, writeEnvFiles, type EchoApi, type IdP } from './oauth2-fixture.js';
import { root, tempDir } from './helpers.js';

let idp: IdP;
let api: EchoApi;
let dir: string;
let log: string;
const saved = { CI: process.env.CI, BROWSER: process.env.BROWSER, SHEET_STATE_DIR: process.env.SHEET_STATE_DIR, OAUTH2_BROWSER_LOG: process.env.OAUTH2_BROWSER_LOG };
const BROWSER = `${process.execPath} ${path.join(root, 'test/fixtures/oauth2-browser.mjs')}`;

beforeAll(async () => {
  idp = await startIdP();
  api = await startEchoApi();
  dir = tempDir('oauth2-code-');
});
afterAll(async () => {
  await idp.close();
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  delete process.env.CI;
  process.env.SHEET_STATE_DIR = tempDir('oauth2-code-state-');
  log = path.join(dir, 'browser.log');
  fs.rmSync(log, { force: true });
  process.env.OAUTH2_BROWSER_LOG = log;
  process.env.BROWSER = BROWSER;
  idp.calls.length = 0;
  api.received.length = 0;
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** A free port on 127.0.0.1, closed again. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

/** Whether something listens on 127.0.0.1:port. */
const listening = (port: number) => new Promise<boolean>((ok) => net.connect(port, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); ok(true); }).on('error', () => ok(false)));

function envWith(extra: Record<string, unknown> = {}) {
  const authUrl = idp.tokenUrl.replace(/\/token$/, '/authorize');
  writeEnvFiles(dir, { dev: { base: api.url, Security: { Auth: { web: { Type: 'OAuth2', 'Grant Type': 'Authorization Code', 'Auth URL': authUrl, 'Token URL': idp.tokenUrl, 'Client ID': 'spa', Scope: 'openid profile', ...extra } } } } });
}
const TEXT = 'GET {{base}}/me\nAuthorization: Bearer {{$auth.token("web")}}\n';

async function send(session: Session) {
  const file = path.join(dir, 'api.http');
  fs.writeFileSync(file, TEXT);
  return session.send({ text: TEXT, line: 1, path: file, env: 'dev' });
}
const interactive = () => {
  const s = new Session();
  s.auth.interactive = true;
  return s;
};
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as { code: string; message: string; line?: number; hint?: string; details?: Record<string, unknown> });

describe('Authorization Code', () => {
  it('PKCE S256 through the browser and the loopback listener; one sign-in for two requests', async () => {
    const port = await freePort();
    envWith({ 'Redirect URL': `http://127.0.0.1:${port}/callback` });
    const s = interactive();
    const out = await send(s);
    await send(s);
    expect(out.response.status).toBe(200);
    const opened = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(opened).toHaveLength(1);
    const q = new URL(opened[0]!).searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe('spa');
    expect(q.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/callback`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('state')!.length).toBeGreaterThan(20);
    expect(q.get('scope')).toBe('openid profile');
    expect(idp.calls).toHaveLength(1);
    // The mock server refuses a code_verifier that does not match the challenge.
    expect(idp.calls[0]!.body).toMatchObject({ grant_type: 'authorization_code', client_id: 'spa', redirect_uri: `http://127.0.0.1:${port}/callback` });
    expect(idp.calls[0]!.body.code_verifier).toMatch(/^[\w-]{43,128}$/);
    expect(api.received).toHaveLength(2);
    expect(api.received[0]!.headers.authorization).toMatch(/^Bearer ey/);
    expect(await listening(port)).toBe(false);
  });

  it('a Redirect URL without a port takes a free one', async () => {
    envWith();
    const out = await send(interactive());
    expect(out.response.status).toBe(200);
    const q = new URL(fs.readFileSync(log, 'utf8').trim()).searchParams;
    expect(q.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  });

  it('a forged state is refused; nothing is sent, to the token endpoint or the API', async () => {
    envWith();
    process.env.BROWSER = `${BROWSER} --bad-state`;
    const e = await failure(send(interactive()));
    expect(e).toMatchObject({ code: 'token-request-failed', line: 1, details: { reason: 'state-mismatch' } });
    expect(e!.message).toContain('wrong state');
    expect(idp.calls).toHaveLength(0);
    expect(api.received).toHaveLength(0);
  });

  it('no one to sign in (a session no front end made interactive), or CI: located, naming the grant and the env file', async () => {
    envWith();
    const e = await failure(send(new Session()));
    expect(e).toMatchObject({ code: 'token-request-failed', line: 1, details: { reason: 'not-interactive' } });
    expect(e!.message).toContain('"web" (http-client.env.json, environment dev): Grant Type Authorization Code needs a person to sign in in a browser');
    expect(e!.hint).toContain('sheet auth login web --env dev');
    process.env.CI = 'true';
    const ci = await failure(send(interactive()));
    expect(ci!.message).toContain('CI is set');
    expect(fs.existsSync(log)).toBe(false);
    expect(api.received).toHaveLength(0);
  });

  it('the time limit: a located error, and the listener is closed', async () => {
    const port = await freePort();
    envWith({ 'Redirect URL': `http://127.0.0.1:${port}/cb` });
    const store = new TokenStore();
    const env = { auth: { web: { config: JSON.parse(fs.readFileSync(path.join(dir, 'http-client.env.json'), 'utf8')).dev.Security.Auth.web, files: [path.join(dir, 'http-client.env.json')] } }, environment: 'dev', files: [] };
    const pending = failure(store.tokens('web', env, { sub: (t) => t, line: 3, interactive: true, signInTimeoutMs: 500, env: { BROWSER: 'true', PATH: process.env.PATH } }));
    await new Promise((ok) => setTimeout(ok, 100));
    expect(await listening(port)).toBe(true);
    const e = await pending;
    expect(e).toMatchObject({ code: 'token-request-failed', line: 3, details: { reason: 'timeout' } });
    expect(e!.message).toContain('no sign-in within 1 s');
    expect(await listening(port)).toBe(false);
  });

  it('a Redirect URL that is not a loopback http URL is refused before the browser opens', async () => {
    envWith({ 'Redirect URL': 'https://app.example.com/callback' });
    const e = await failure(send(interactive()));
    expect(e).toMatchObject({ code: 'bad-auth-config', line: 1 });
    expect(e!.message).toContain('is not a loopback http:// URL');
    expect(fs.existsSync(log)).toBe(false);
  });
});
