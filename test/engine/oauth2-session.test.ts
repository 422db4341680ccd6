// Issue 39: JetBrains' `Security.Auth` block and `{{$auth.token("id")}}` through the session
// (the pipeline of C-c C-c and `sheet run`), against a real OAuth2 server (oauth2-mock-server)
// on 127.0.0.1: what the token endpoint received (grant, client authentication, scope, custom
// parameters) and what the API received (the token), the cache, refresh, and the errors,
// located, with nothing sent to the API.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
import { startEchoApi, startIdP, writeEnvFiles, type EchoApi, type IdP } from './oauth2-fixture.js';
import { tempDir } from './helpers.js';

let idp: IdP;
let api: EchoApi;
let dir: string;
let state: string;
const savedState = process.env.SHEET_STATE_DIR;

beforeAll(async () => {
  idp = await startIdP();
  api = await startEchoApi();
  dir = tempDir('oauth2-');
});
afterAll(async () => {
  await idp.close();
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
  if (savedState === undefined) delete process.env.SHEET_STATE_DIR;
  else process.env.SHEET_STATE_DIR = savedState;
});
beforeEach(() => {
  // A fresh token directory per test: tokens of one test never serve another.
  state = tempDir('oauth2-state-');
  process.env.SHEET_STATE_DIR = state;
  idp.calls.length = 0;
  api.received.length = 0;
  idp.expiresIn(undefined);
  idp.refuse(undefined);
});

/** Send the request at `line` of `text` (a .http file in `dir`) in environment dev. */
async function send(text: string, line = 1, session = new Session()) {
  const file = path.join(dir, 'api.http');
  fs.writeFileSync(file, text);
  return session.send({ text, line, path: file, env: 'dev' });
}

const auth = (config: Record<string, unknown>) => ({ dev: { base: 'API', Security: { Auth: { svc: { Type: 'OAuth2', 'Token URL': idp.tokenUrl, 'Client ID': 'cli', ...config } } } } });
const bearer = 'GET {{base}}/things\nAuthorization: Bearer {{$auth.token("svc")}}\n';
const withBase = (env: ReturnType<typeof auth>) => JSON.parse(JSON.stringify(env).replace('"API"', JSON.stringify(api.url)));
const receivedToken = () => api.received.at(-1)!.headers.authorization!.replace(/^Bearer /, '');

describe('Client Credentials', () => {
  it('basic: the secret from the private file, Basic at the token endpoint, the token in the API request', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials', Scope: 'read write', 'Custom Request Parameters': { audience: 'https://api', resource: ['a', 'b'], skip: { Value: 'x', Use: 'In Auth Request' } } })), { dev: { Security: { Auth: { svc: { 'Client Secret': 's3cret' } } } } });
    const out = await send(bearer);
    expect(out.response.status).toBe(200);
    expect(idp.calls).toHaveLength(1);
    const call = idp.calls[0]!;
    expect(call.grant).toBe('client_credentials');
    expect(call.basic).toBe('cli:s3cret');
    expect(call.body.scope).toBe('read write');
    expect(call.body.audience).toBe('https://api');
    expect(call.body.resource).toEqual(['a', 'b']);
    expect(call.body).not.toHaveProperty('skip');
    expect(call.body).not.toHaveProperty('client_secret');
    expect(receivedToken().split('.')).toHaveLength(3); // the mock server's JWT
  });

  it('in body: client_id and client_secret in the form, no Authorization header', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials', 'Client Secret': 'p', 'Client Credentials': 'in body' })));
    await send(bearer);
    expect(idp.calls[0]!.basic).toBeUndefined();
    expect(idp.calls[0]!.body).toMatchObject({ grant_type: 'client_credentials', client_id: 'cli', client_secret: 'p' });
  });

  it('none (a public client, no secret): client_id alone in the form', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials' })));
    await send(bearer);
    expect(idp.calls[0]!.basic).toBeUndefined();
    expect(idp.calls[0]!.body).toMatchObject({ grant_type: 'client_credentials', client_id: 'cli' });
    expect(idp.calls[0]!.body).not.toHaveProperty('client_secret');
  });

  it('the token stands anywhere a variable may: URL, header, body, and through a file variable', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials' })));
    const out = await send('@tok = {{$auth.token("svc")}}\nPOST {{base}}/x?t={{$auth.token("svc")}}\nX-T: {{tok}}\n\n{"t": "{{tok}}"}\n', 2);
    expect(out.response.status).toBe(200);
    const r = api.received.at(-1)!;
    const t = new URL(r.url, api.url).searchParams.get('t')!;
    expect(t.length).toBeGreaterThan(20);
    expect(r.headers['x-t']).toBe(t);
    expect(JSON.parse(r.body)).toEqual({ t });
    expect(idp.calls).toHaveLength(1);
  });
});

describe('environment files as people write them', () => {
  it('Auth values from {{variables}} of the environment and the private file, and {{$processEnv}}', async () => {
    // The shape of a README example for JetBrains' client (staging/production environments,
    // the auth block naming {{clientId}}, {{clientSecret}}, {{tokenUrl}}; secrets private).
    const block = { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Client ID': '{{clientId}}', 'Client Secret': '{{clientSecret}}', 'Token URL': '{{tokenUrl}}', Scope: 'dinosaurs', 'Custom Request Parameters': { audience: '{{$processEnv OAUTH2_TEST_AUDIENCE}}' } };
    writeEnvFiles(dir, { staging: { apiBaseUrl: api.url, tokenUrl: idp.tokenUrl, Security: { Auth: { 'oauth-staging': block } } }, production: { apiBaseUrl: 'https://example.invalid', tokenUrl: 'https://example.invalid/token', Security: { Auth: { 'oauth-staging': block } } } }, { staging: { clientId: 'dino', clientSecret: 'rawr' } });
    process.env.OAUTH2_TEST_AUDIENCE = 'https://dinosaurs';
    const file = path.join(dir, 'dino.http');
    const text = '### Create a new dinosaur\nPOST {{apiBaseUrl}}/dinosaurs\nContent-Type: application/json\nAuthorization: Bearer {{$auth.token("oauth-staging")}}\n\n{"name": "archeopteryx"}\n';
    fs.writeFileSync(file, text);
    const out = await new Session().send({ text, line: 2, path: file, env: 'staging' });
    delete process.env.OAUTH2_TEST_AUDIENCE;
    expect(out.response.status).toBe(200);
    expect(idp.calls[0]).toMatchObject({ grant: 'client_credentials', basic: 'dino:rawr', body: { scope: 'dinosaurs', audience: 'https://dinosaurs' } });
    expect(api.received.at(-1)!.headers.authorization).toMatch(/^Bearer ey/);
  });
});

describe('Password and Mock', () => {
  it('Password: username and password in the form, $auth.idToken gives the id_token', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Password', 'Client Secret': 'cs', Username: 'ann', Password: 'pw', Scope: 'openid' })));
    await send('GET {{base}}/me\nAuthorization: Bearer {{$auth.token("svc")}}\nX-Id: {{$auth.idToken("svc")}}\n');
    expect(idp.calls[0]).toMatchObject({ grant: 'password', basic: 'cli:cs', body: { username: 'ann', password: 'pw', scope: 'openid' } });
    const r = api.received.at(-1)!;
    const claims = JSON.parse(Buffer.from(String(r.headers['x-id']).split('.')[1]!, 'base64url').toString());
    expect(claims.aud).toBe('cli');
  });

  it('Type Mock: Token and ID Token as written, no token request', async () => {
    writeEnvFiles(dir, { dev: { base: api.url, Security: { Auth: { m: { Type: 'Mock', Token: 'tok-{{base}}', 'ID Token': 'idt' } } } } });
    await send('GET {{base}}/m?id={{$auth.idToken("m")}}\nAuthorization: Bearer {{$auth.token("m")}}\n');
    expect(api.received.at(-1)!.headers.authorization).toBe(`Bearer tok-${api.url}`);
    expect(api.received.at(-1)!.url).toBe('/m?id=idt');
    expect(idp.calls).toHaveLength(0);
  });
});

describe('cache and refresh', () => {
  it('one token request for many requests, also from a new session; the file is 0600, the env files untouched', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials', 'Client Secret': 's' })));
    const before = fs.readFileSync(path.join(dir, 'http-client.env.json'), 'utf8');
    const s = new Session();
    await send(bearer, 1, s);
    await send(bearer, 1, s);
    const first = receivedToken();
    await send(bearer, 1, new Session());
    expect(idp.calls).toHaveLength(1);
    expect(receivedToken()).toBe(first);
    const files = fs.readdirSync(path.join(state, 'tokens'));
    expect(files).toHaveLength(1);
    expect(fs.statSync(path.join(state, 'tokens', files[0]!)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(state, 'tokens')).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(path.join(dir, 'http-client.env.json'), 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(dir, 'http-client.private.env.json'))).toBe(false);
  });

  it('a token directory that cannot be written: the request is sent, with a token-cache-unwritable warning', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials' })));
    const blocker = path.join(state, 'not-a-dir');
    fs.writeFileSync(blocker, '');
    process.env.SHEET_STATE_DIR = blocker;
    const out = await send(bearer);
    expect(out.response.status).toBe(200);
    expect(out.hooks.warnings).toContainEqual(expect.objectContaining({ code: 'token-cache-unwritable', line: 1 }));
    expect(out.hooks.warnings.find((w) => w.code === 'token-cache-unwritable')!.message).toMatch(/cannot keep the token in .*not-a-dir\/tokens \(ENOTDIR\)/);
  });

  it('a changed configuration asks for a new token', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials', Scope: 'a' })));
    await send(bearer);
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials', Scope: 'b' })));
    await send(bearer);
    expect(idp.calls.map((c) => c.body.scope)).toEqual(['a', 'b']);
  });

  it('an expired token is refreshed with the refresh token', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Password', 'Client Secret': 'cs', Username: 'ann', Password: 'pw' })));
    idp.expiresIn(1); // within the skew: stale at once
    await send(bearer);
    await send(bearer);
    expect(idp.calls.map((c) => c.grant)).toEqual(['password', 'refresh_token']);
    expect(idp.calls[1]!.body.refresh_token).toBeTruthy();
    expect(idp.calls[1]!.basic).toBe('cli:cs');
  });

  it('a refused refresh falls back to the full grant once', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Password', 'Client Secret': 'cs', Username: 'ann', Password: 'pw' })));
    idp.expiresIn(1);
    await send(bearer);
    idp.refuse('refresh_token');
    const out = await send(bearer);
    expect(out.response.status).toBe(200);
    expect(idp.calls.map((c) => c.grant)).toEqual(['password', 'refresh_token', 'password']);
  });
});

describe("httpyac's Authorization: oauth2 [flow] [prefix]", () => {
  it('client_credentials with the oauth2_* variables (any case): Basic, scope, audience; Bearer TOKEN sent', async () => {
    writeEnvFiles(dir, { dev: { base: api.url, oauth2_tokenEndpoint: idp.tokenUrl, oauth2_clientId: 'hy', oauth2_clientSecret: 'hs' } });
    const text = `@OAuth2_Scope = read\n@oauth2_audience = https://api\n\nGET {{base}}/hy\nAuthorization: oauth2 client_credentials\n`;
    await send(text, 4);
    await send(text, 4);
    expect(idp.calls).toHaveLength(1);
    expect(idp.calls[0]).toMatchObject({ grant: 'client_credentials', basic: 'hy:hs', body: { scope: 'read', audience: 'https://api' } });
    expect(api.received.at(-1)!.headers.authorization).toMatch(/^Bearer ey/);
  });

  it('password with a prefix, the secret in the body when useAuthorizationHeader is false; the default flow is client_credentials', async () => {
    writeEnvFiles(dir, { dev: { base: api.url } });
    const vars = `@kc_tokenEndpoint = ${idp.tokenUrl}\n@kc_clientId = app\n@kc_clientSecret = s\n@kc_useAuthorizationHeader = false\n@kc_username = ann\n@kc_password = pw\n@oauth2_tokenEndpoint = ${idp.tokenUrl}\n@oauth2_clientId = pub\n`;
    await send(`${vars}\nGET {{base}}/p\nAuthorization: oauth2 password kc\n\n###\nGET {{base}}/d\nAuthorization: oauth2\n`, 10);
    await send(`${vars}\nGET {{base}}/p\nAuthorization: oauth2 password kc\n\n###\nGET {{base}}/d\nAuthorization: oauth2\n`, 14);
    expect(idp.calls[0]).toMatchObject({ grant: 'password', body: { client_id: 'app', client_secret: 's', username: 'ann', password: 'pw' } });
    expect(idp.calls[0]!.basic).toBeUndefined();
    expect(idp.calls[1]).toMatchObject({ grant: 'client_credentials', body: { client_id: 'pub' } });
  });

  it('a missing variable is named as httpyac names it; nothing sent', async () => {
    writeEnvFiles(dir, { dev: { base: api.url, oauth2_clientId: 'x' } });
    const e = await send('GET {{base}}/x\nAuthorization: oauth2 client_credentials\n').then(() => undefined, (x: unknown) => x as { code: string; message: string; line: number });
    expect(e).toMatchObject({ code: 'bad-auth-config', line: 1 });
    expect(e!.message).toContain('oauth2_tokenEndpoint is required for client_credentials');
    expect(api.received).toHaveLength(0);
  });
});

describe('secrets', () => {
  it('the answer shows the request with the token and the secret masked; the API got them', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Password', 'Client Credentials': 'in body', 'Client Secret': 'CS-secret', Username: 'ann', Password: 'PW-secret' })));
    const out = await send('POST {{base}}/x?t={{$auth.token("svc")}}\nAuthorization: Bearer {{$auth.token("svc")}}\n\n{{$auth.idToken("svc")}}\n');
    const token = receivedToken();
    expect(out.request.headers).toContainEqual(['Authorization', 'Bearer ****']);
    expect(out.request.url).toBe(`${api.url}/x?t=****`);
    expect(JSON.stringify(out.request)).not.toContain(token);
    expect(api.received.at(-1)!.url).toBe(`/x?t=${token}`);
  });
});

describe('errors: located, nothing sent to the API', () => {
  const fails = async (text: string, line = 1) => {
    const e = await send(text, line).then(
      () => undefined,
      (err: unknown) => err as { code: string; message: string; line?: number; hint?: string },
    );
    expect(e).toBeDefined();
    expect(api.received).toHaveLength(0);
    return e!;
  };

  it('an unknown auth id lists the known ones and the environment', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials' })));
    const e = await fails('\nGET {{base}}/x\nAuthorization: Bearer {{$auth.token("nope")}}\n', 2);
    expect(e.code).toBe('unknown-auth');
    expect(e.line).toBe(2);
    expect(e.message).toContain('"nope"');
    expect(e.message).toContain('environment dev');
    expect(e.message).toContain('known: svc');
  });

  it('a missing key names it as JetBrains writes it, and the grant', async () => {
    writeEnvFiles(dir, { dev: { base: api.url, Security: { Auth: { svc: { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Client ID': 'c' } } } } });
    const e = await fails(bearer);
    expect(e.code).toBe('bad-auth-config');
    expect(e.line).toBe(1);
    expect(e.message).toContain('Token URL is required for Client Credentials');
    expect(e.message).toContain('http-client.env.json');
  });

  it('Implicit is refused with the reason', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Implicit' })));
    const e = await fails(bearer);
    expect(e.code).toBe('bad-auth-config');
    expect(e.message).toMatch(/Implicit is not supported: OAuth 2.1/);
  });

  it('an unreachable token endpoint', async () => {
    const closed = await startEchoApi();
    await closed.close();
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials', 'Token URL': `${closed.url}/token` })));
    const e = await fails(bearer);
    expect(e.code).toBe('token-request-failed');
    expect(e.message).toContain(`cannot reach the token endpoint ${closed.url}/token (ECONNREFUSED)`);
  });

  it('a 4xx shows error and error_description, never the secret', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials', 'Client Secret': 'TOPSECRET' })));
    idp.failNext(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
    const e = await fails(bearer);
    expect(e.code).toBe('token-request-failed');
    expect(e.message).toContain('401 invalid_client: Client authentication failed');
    expect(e.hint).toMatch(/Client Secret/);
    expect(JSON.stringify(e) + e.message).not.toContain('TOPSECRET');
  });

  it('an error_description that echoes the client secret or the password: masked in the message and details', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Password', 'Client Secret': 'TOPSECRET', Username: 'ann', Password: 'hunter22' })));
    idp.failNext(400, { error: 'invalid_grant', error_description: 'client TOPSECRET may not use password hunter22' });
    const e = await fails(bearer);
    expect(e.code).toBe('token-request-failed');
    expect(e.message).toContain('400 invalid_grant: client **** may not use password ****');
    expect(JSON.stringify(e.details)).toContain('client **** may not use password ****');
    expect(JSON.stringify(e) + e.message + e.hint).not.toMatch(/TOPSECRET|hunter22/);
  });

  it('an answer with no access_token', async () => {
    writeEnvFiles(dir, withBase(auth({ 'Grant Type': 'Client Credentials' })));
    idp.failNext(200, { token_type: 'Bearer' });
    const e = await fails(bearer);
    expect(e.code).toBe('token-request-failed');
    expect(e.message).toContain('has no access_token');
  });
});
