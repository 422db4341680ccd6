// Issue 39 over the protocol sheet-mode speaks (`node engine/dist/engine.cjs --stdio`, a real
// pipe): `sheet/send` of a `.http` request with `{{$auth.token("id")}}` gets its token from
// the OAuth2 server once for the engine's life, the answer's request shows it masked, and an
// unknown id is a ResponseError with its code and line, nothing sent.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { startEchoApi, startIdP, writeEnvFiles, type EchoApi, type IdP } from './oauth2-fixture.js';
import { spawnEngine, tempDir, type EngineProcess } from './helpers.js';

let idp: IdP;
let api: EchoApi;
let engine: EngineProcess;
let dir: string;
let state: string;
const TEXT = 'GET {{base}}/a\nAuthorization: Bearer {{$auth.token("svc")}}\n\n###\nGET {{base}}/b\nAuthorization: Bearer {{$auth.token("nope")}}\n';

beforeAll(async () => {
  idp = await startIdP();
  api = await startEchoApi();
  dir = tempDir('oauth2-rpc-');
  state = tempDir('oauth2-rpc-state-');
  writeEnvFiles(dir, { dev: { base: api.url, Security: { Auth: { svc: { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Token URL': idp.tokenUrl, 'Client ID': 'cli', 'Client Secret': 'sec' } } } } });
  fs.writeFileSync(path.join(dir, 'x.http'), TEXT);
  engine = spawnEngine({ env: { SHEET_STATE_DIR: state } });
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
});
afterAll(async () => {
  await engine.close();
  await idp.close();
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(state, { recursive: true, force: true });
});

describe('sheet/send with {{$auth.token}}', () => {
  it('one token request for two sends; the answer shows the token masked', async () => {
    const p = { text: TEXT, line: 1, path: path.join(dir, 'x.http'), env: 'dev' };
    const a = (await engine.conn.sendRequest('sheet/send', p)) as { response: { status: number }; request: { headers: [string, string][] } };
    await engine.conn.sendRequest('sheet/send', p);
    expect(a.response.status).toBe(200);
    expect(a.request.headers).toContainEqual(['Authorization', 'Bearer ****']);
    expect(idp.calls).toHaveLength(1);
    expect(api.received).toHaveLength(2);
    expect(api.received[0]!.headers.authorization).toMatch(/^Bearer ey/);
  });

  it('sheet/completions offers $auth.token and $auth.idToken', async () => {
    const r = (await engine.conn.sendRequest('sheet/completions', { text: TEXT, line: 2, path: path.join(dir, 'x.http'), env: 'dev' })) as { variables: { name: string; source: string; args?: string }[] };
    expect(r.variables).toContainEqual({ name: '$auth.token', source: 'system', args: '("id")' });
    expect(r.variables).toContainEqual({ name: '$auth.idToken', source: 'system', args: '("id")' });
  });

  it('an unknown id: unknown-auth at the request line, nothing sent', async () => {
    const before = api.received.length;
    const e = await engine.conn.sendRequest('sheet/send', { text: TEXT, line: 5, path: path.join(dir, 'x.http'), env: 'dev' }).then(
      () => undefined,
      (x: unknown) => x as ResponseError<{ code: string; line?: number }>,
    );
    expect(e).toBeInstanceOf(ResponseError);
    expect(e!.data).toMatchObject({ code: 'unknown-auth', line: 5 });
    expect(e!.message).toContain('known: svc');
    expect(api.received).toHaveLength(before);
  });
});
