// Issue 39 item 3: Device Authorization (RFC 8628). oauth2-mock-server has no device endpoint,
// so a small provider of the test's own on 127.0.0.1 plays it: the device code, the user code,
// `authorization_pending` until the user "signs in", `slow_down`, `access_denied`. What the
// user is shown (the verification URI and the user code) and what the token endpoint received.
import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TokenStore } from '../../engine/src/tokens/store.js';
import { tempDir } from './helpers.js';

interface Polls {
  device: URLSearchParams[];
  token: URLSearchParams[];
}
let server: http.Server;
let base: string;
let polls: Polls;
/** How the token endpoint answers the polls, in order; the last one repeats. */
let script: { status: number; body: unknown }[];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const json = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      if (req.url === '/device') {
        polls.device.push(form);
        json(200, { device_code: 'DEV-1', user_code: 'WDJB-MJHT', verification_uri: `${base}/activate`, expires_in: 60, interval: 1 });
      } else if (req.url === '/token') {
        polls.token.push(form);
        const next = script.length > 1 ? script.shift()! : script[0]!;
        json(next.status, next.body);
      } else json(404, {});
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
beforeEach(() => {
  polls = { device: [], token: [] };
});

const env = () => ({ auth: { tv: { config: { Type: 'OAuth2', 'Grant Type': 'Device Authorization', 'Device Auth URL': `${base}/device`, 'Token URL': `${base}/token`, 'Client ID': 'tv-app', Scope: 'read' }, files: ['/p/http-client.env.json'] } }, environment: 'dev', files: [] });
const pending = { status: 400, body: { error: 'authorization_pending' } };

describe('Device Authorization', () => {
  it('shows the URI and the user code, polls while pending, and gets the token', async () => {
    script = [pending, { status: 400, body: { error: 'slow_down' } }, { status: 200, body: { access_token: 'AT-device', token_type: 'Bearer', expires_in: 300 } }];
    const shown: string[] = [];
    const t0 = Date.now();
    const got = await new TokenStore().tokens('tv', env(), { sub: (t) => t, line: 4, interactive: true, notify: (l) => shown.push(l), dir: tempDir('device-state-'), env: {} });
    expect(got.token).toBe('AT-device');
    expect(shown).toEqual([`To sign in (tv), open ${base}/activate and enter the code WDJB-MJHT`]);
    expect(polls.device[0]!.get('client_id')).toBe('tv-app');
    expect(polls.device[0]!.get('scope')).toBe('read');
    expect(polls.token.map((f) => f.get('grant_type'))).toEqual(Array(3).fill('urn:ietf:params:oauth:grant-type:device_code'));
    expect(polls.token.every((f) => f.get('device_code') === 'DEV-1')).toBe(true);
    // 1 s, 1 s, then 6 s after slow_down (RFC 8628 3.5).
    expect(Date.now() - t0).toBeGreaterThanOrEqual(7900);
  }, 30000);

  it('access_denied ends it with a located error; no one to show the code to is refused before any request', async () => {
    script = [pending, { status: 400, body: { error: 'access_denied', error_description: 'the user said no' } }];
    const e = await new TokenStore().tokens('tv', env(), { sub: (t) => t, line: 4, interactive: true, notify: () => undefined, dir: tempDir('device-state-'), env: {} }).then(() => undefined, (x: unknown) => x as { code: string; line: number; message: string });
    expect(e).toMatchObject({ code: 'token-request-failed', line: 4 });
    expect(e!.message).toContain('the sign-in ended: access_denied: the user said no');
    polls = { device: [], token: [] };
    const none = await new TokenStore().tokens('tv', env(), { sub: (t) => t, line: 4, interactive: true, dir: tempDir('device-state-'), env: {} }).then(() => undefined, (x: unknown) => x as { message: string });
    expect(none!.message).toContain('this front end cannot show the user code yet');
    const ci = await new TokenStore().tokens('tv', env(), { sub: (t) => t, line: 4, interactive: true, notify: () => undefined, dir: tempDir('device-state-'), env: { CI: 'true' } }).then(() => undefined, (x: unknown) => x as { message: string });
    expect(ci!.message).toContain('CI is set');
    expect(polls.device).toHaveLength(0);
  }, 30000);
});
