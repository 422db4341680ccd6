// Postman auth onto what the engine supports (engine/src/convert/postman-auth.ts; docs/import.md,
// "Postman"): each kind as the `.http` text and environment files `sheet import` plans, and the
// OAuth2 entry read back by the engine's own reader of `Security.Auth` (http-file/env-auth.ts and
// tokens/config.ts), so the import writes what the token code accepts.
import { describe, expect, it } from 'vitest';
import { planImport } from '../../engine/src/convert/import.js';
import { addAuth, type EnvAuth } from '../../engine/src/http-file/env-auth.js';

const collection = (auth: unknown, folderAuth?: unknown) =>
  JSON.stringify({
    info: { name: 'Auth', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    auth,
    item: [{ name: 'F', ...(folderAuth ? { auth: folderAuth } : {}), item: [{ name: 'R', request: { method: 'GET', url: 'http://127.0.0.1/x' } }, { name: 'Own', request: { method: 'GET', url: 'http://127.0.0.1/y', auth: { type: 'inherit' } } }] }],
  });

const kv = (o: Record<string, unknown>) => Object.entries(o).map(([key, value]) => ({ key, value }));

async function plan(auth: unknown, folderAuth?: unknown) {
  const p = await planImport([{ file: 'auth.json', text: collection(auth, folderAuth) }]);
  expect(p.errors).toEqual([]);
  return { http: p.outputs.get('Auth.http')!, env: JSON.parse(p.outputs.get('http-client.env.json') ?? '{}'), priv: JSON.parse(p.outputs.get('http-client.private.env.json') ?? '{}'), warnings: p.warnings };
}

describe('Postman auth in the import', () => {
  it.each([
    ['digest', { type: 'digest', digest: kv({ username: 'u', password: 'p' }) }, 'Authorization: Digest u {{digest_password}}', { digest_password: 'p' }],
    ['awsv4', { type: 'awsv4', awsv4: kv({ accessKey: 'AK', secretKey: 'SK', sessionToken: 'ST', region: 'eu-west-1', service: 's3' }) }, 'Authorization: AWS AK {{aws_secret_key}} token:{{aws_session_token}} region:eu-west-1 service:s3', { aws_secret_key: 'SK', aws_session_token: 'ST' }],
    ['basic with a variable password', { type: 'basic', basic: kv({ username: '{{user}}', password: '{{pw}}' }) }, 'Authorization: Basic {{user}}:{{pw}}', undefined],
  ])('%s', async (_name, auth, header, secrets) => {
    const r = await plan(auth);
    expect(r.http.split('\n').filter((l) => l === header).length).toBe(2);
    expect(r.priv.$shared).toEqual(secrets);
    expect(r.warnings).toEqual([]);
  });

  it('v2.0 auth objects ({username, password}) as v2.1 arrays', async () => {
    const r = await plan({ type: 'basic', basic: { username: 'ada', password: 'lovelace' } });
    expect(r.http).toContain('Authorization: Basic ada:{{basic_password}}');
    expect(r.priv.$shared).toEqual({ basic_password: 'lovelace' });
  });

  it('a folder auth over the collection auth; an unsupported kind is warned about', async () => {
    const r = await plan({ type: 'bearer', bearer: kv({ token: 't' }) }, { type: 'hawk', hawk: kv({ authId: 'x' }) });
    expect(r.http).not.toContain('Authorization');
    expect(r.warnings.map((w) => [w.where, w.message])).toEqual([
      ['item "F / R"', 'hawk auth is not supported by the engine; the request is written without it (add the header it computes by hand)'],
      ['item "F / Own"', 'hawk auth is not supported by the engine; the request is written without it (add the header it computes by hand)'],
    ]);
  });

  it('OAuth2: a Security.Auth entry the engine reads, the secret in the private file', async () => {
    const r = await plan({
      type: 'oauth2',
      oauth2: kv({ grant_type: 'client_credentials', accessTokenUrl: 'https://idp.example/token', clientId: 'cid', clientSecret: 'shh', scope: 'read write', client_authentication: 'body', tokenRequestParams: [{ key: 'audience', value: 'api', enabled: true }] }),
    });
    expect(r.http).toContain('Authorization: Bearer {{$auth.token("postman-oauth2")}}');
    const merged: Record<string, EnvAuth> = {};
    addAuth(r.env.$shared, 'http-client.env.json', merged);
    addAuth(r.priv.$shared, 'http-client.private.env.json', merged);
    expect(merged['postman-oauth2']!.config).toEqual({
      Type: 'OAuth2',
      'Grant Type': 'Client Credentials',
      'Token URL': 'https://idp.example/token',
      'Client ID': 'cid',
      'Client Secret': '{{oauth2_client_secret}}',
      Scope: 'read write',
      'Client Credentials': 'in body',
      'Custom Request Parameters': { audience: 'api' },
    });
    expect(r.priv.$shared).toEqual({ oauth2_client_secret: 'shh' });
  });
});
