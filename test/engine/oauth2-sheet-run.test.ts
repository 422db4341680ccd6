// Issue 39 through the `sheet` command (the built bundle): `{{$auth.token("id")}}` in
// `sheet run`, one token request for a whole run and none for the next run (the token files in
// the state directory), a located error for an unknown id while the other requests run, the
// token and the secret kept out of the reports, and `sheet auth list|login|logout`.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEchoApi, startIdP, writeEnvFiles, type EchoApi, type IdP } from './oauth2-fixture.js';
import { runSheet, tempDir } from './helpers.js';

let idp: IdP;
let api: EchoApi;
let dir: string;
let state: string;

beforeAll(async () => {
  idp = await startIdP();
  api = await startEchoApi();
  dir = tempDir('oauth2-run-');
});
afterAll(async () => {
  await idp.close();
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  state = tempDir('oauth2-run-state-');
  idp.calls.length = 0;
  api.received.length = 0;
  writeEnvFiles(dir, { dev: { base: api.url, Security: { Auth: { svc: { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Token URL': idp.tokenUrl, 'Client ID': 'cli' } } } } }, { dev: { Security: { Auth: { svc: { 'Client Secret': 'SECRET-42' } } } } });
});

const sheet = (args: string[]) => runSheet(args, { cwd: dir, env: { XDG_STATE_HOME: state, SHEET_STATE_DIR: '' } });
const REQ = (n: number) => `### r${n}\nGET {{base}}/r${n}\nAuthorization: Bearer {{$auth.token("svc")}}\n`;

describe('sheet run', () => {
  it("a restclient-syntax sheet's `# @auth svc`: Bearer token from the env file beside it, one token request, masked in the reports", async () => {
    fs.writeFileSync(path.join(dir, 'api.sheet'), `:base = ${api.url}\n# @auth svc\nGET :base/s1\n#\n# @auth svc\nGET :base/s2\nAuthorization: Token mine\n`);
    const r = await sheet(['run', '--env', 'dev', 'api.sheet', '--report', 'json:sheet-report.json', '--report', 'html:sheet-report.html']);
    expect(r.code, r.err + r.out).toBe(0);
    expect(idp.calls).toHaveLength(1);
    expect(idp.calls[0]!.basic).toBe('cli:SECRET-42');
    expect(api.received.map((x) => x.url)).toEqual(['/s1', '/s2']);
    const auth = String(api.received[0]!.headers.authorization);
    expect(auth).toMatch(/^Bearer ey/);
    // A request that writes its own Authorization keeps it.
    expect(api.received[1]!.headers.authorization).toBe('Token mine');
    const token = auth.replace('Bearer ', '');
    expect(r.out + r.err).not.toContain(token);
    for (const f of ['sheet-report.json', 'sheet-report.html']) expect(fs.readFileSync(path.join(dir, f), 'utf8')).not.toContain(token);
  });

  it('one token request for a run of three requests, none for the next run', async () => {
    fs.writeFileSync(path.join(dir, 'api.http'), [REQ(1), REQ(2), REQ(3)].join('\n'));
    const a = await sheet(['run', '--env', 'dev', 'api.http']);
    expect(a.code, a.err + a.out).toBe(0);
    const b = await sheet(['run', '--env', 'dev', 'api.http']);
    expect(b.code, b.err + b.out).toBe(0);
    expect(idp.calls).toHaveLength(1);
    expect(idp.calls[0]!.basic).toBe('cli:SECRET-42');
    expect(api.received).toHaveLength(6);
    expect(new Set(api.received.map((r) => r.headers.authorization)).size).toBe(1);
    expect(fs.readdirSync(path.join(state, 'sheet-rest', 'tokens'))).toHaveLength(1);
  });

  it('an unknown id fails its request, located, and the others run; reports hold neither token nor secret', async () => {
    fs.writeFileSync(path.join(dir, 'api.http'), `${REQ(1)}\n### bad\nGET {{base}}/bad\nAuthorization: Bearer {{$auth.token("other")}}\n`);
    const r = await sheet(['run', '--env', 'dev', 'api.http', '--report', 'json:report.json', '--report', 'html:report.html']);
    expect(r.code).not.toBe(0);
    expect(r.out + r.err).toMatch(/api\.http:6: no auth configuration "other" \(environment dev, http-client\.env\.json \+ http-client\.private\.env\.json\); known: svc/);
    expect(api.received.map((x) => x.url)).toEqual(['/r1']);
    const token = String(api.received[0]!.headers.authorization).replace('Bearer ', '');
    for (const f of ['report.json', 'report.html']) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      expect(text).not.toContain(token);
      expect(text).not.toContain('SECRET-42');
    }
    expect(r.out + r.err).not.toContain(token);
  });
});

describe('sheet auth', () => {
  it('list, login, list, logout, list: the token kept and forgotten, never printed', async () => {
    const list1 = await sheet(['auth', 'list', '--env', 'dev']);
    expect(list1.code, list1.err).toBe(0);
    expect(list1.out).toBe('svc\tClient Credentials\tno token\n');
    const login = await sheet(['auth', 'login', 'svc', '--env', 'dev']);
    expect(login.code, login.err).toBe(0);
    expect(login.out).toBe('svc: token obtained (environment dev)\n');
    expect(idp.calls).toHaveLength(1);
    const list2 = await sheet(['auth', 'list', '--env', 'dev']);
    expect(list2.out).toMatch(/^svc\tClient Credentials\ttoken valid, expires in (59|60) min\n$/);
    // The run uses the token login obtained.
    fs.writeFileSync(path.join(dir, 'api.http'), REQ(1));
    expect((await sheet(['run', '--env', 'dev', 'api.http'])).code).toBe(0);
    expect(idp.calls).toHaveLength(1);
    const logout = await sheet(['auth', 'logout', '--env', 'dev']);
    expect(logout.out).toBe('removed the tokens of: svc\n');
    expect((await sheet(['auth', 'list', '--env', 'dev'])).out).toBe('svc\tClient Credentials\tno token\n');
    expect(fs.readdirSync(path.join(state, 'sheet-rest', 'tokens'))).toHaveLength(0);
    for (const r of [list1, login, list2, logout]) expect(r.out + r.err).not.toContain('SECRET-42');
  });

  it("logout FILE forgets the tokens of its httpyac oauth2 lines too", async () => {
    fs.writeFileSync(path.join(dir, 'hy.http'), `@oauth2_tokenEndpoint = ${idp.tokenUrl}\n@oauth2_clientId = hy\n\nGET {{base}}/hy\nAuthorization: oauth2\n`);
    expect((await sheet(['run', '--env', 'dev', 'hy.http'])).code).toBe(0);
    expect(fs.readdirSync(path.join(state, 'sheet-rest', 'tokens'))).toHaveLength(1);
    const out = await sheet(['auth', 'logout', '--env', 'dev', 'hy.http']);
    expect(out.code, out.err).toBe(0);
    expect(out.out).toBe('removed the tokens of: oauth2 client_credentials oauth2\n');
    expect(fs.readdirSync(path.join(state, 'sheet-rest', 'tokens'))).toHaveLength(0);
  });

  it('login of an unknown id and a failing token endpoint: clear errors, exit 2 and 1', async () => {
    const unknown = await sheet(['auth', 'login', 'nope', '--env', 'dev']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no auth configuration "nope" (environment dev');
    idp.failNext(401, { error: 'invalid_client', error_description: 'bad secret' });
    const refused = await sheet(['auth', 'login', 'svc', '--env', 'dev']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('401 invalid_client: bad secret');
    const usage = await sheet(['auth', 'login']);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('sheet auth login needs the auth id');
  });
});
