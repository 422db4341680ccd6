// http://user:password@host sends Basic auth as curl does (engine/src/curl/rules.ts
// urlCredentials, applied by http/send.ts for every front end): the rows were checked against
// curl 7.88 and the example API's /echo; the request line and Host never carry the credentials.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../engine/src/http/send.js';
import { urlCredentials } from '../../engine/src/curl/rules.js';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;
beforeAll(async () => {
  api = await startApi();
  dir = tempDir('url-credentials-');
});
afterAll(async () => {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const b64 = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('urlCredentials', () => {
  it.each([
    ['http://u:p@h/x', 'http://h/x', 'u:p'],
    ['http://us%40er:p%3Ass@h:8080/x?q=a@b', 'http://h:8080/x?q=a@b', 'us@er:p:ss'],
    ['http://u@h/', 'http://h/', 'u:'],
    ['http://:p@h/', 'http://h/', ':p'],
    ['http://a@b@h/', 'http://h/', 'a@b:'],
    ['http://h/x?u=a@b', 'http://h/x?u=a@b', undefined],
    ['http://h/a@b', 'http://h/a@b', undefined],
  ])('%s -> %s, %s', (url, stripped, user) => {
    expect(urlCredentials(url)).toEqual({ url: stripped, ...(user !== undefined ? { user } : {}) });
  });
});

describe('send', () => {
  const echo = async (url: string, headers: [string, string][] = []) => {
    const ex = await send({ method: 'GET', url, headers });
    return { sent: ex.request, got: JSON.parse(Buffer.from(ex.response.body).toString()) };
  };
  const at = (userinfo: string, p = '/echo') => api.url.replace('http://', `http://${userinfo}@`) + p;

  it('sends Basic auth of the decoded credentials; the URL and Host carry none', async () => {
    const { sent, got } = await echo(at('us%40er:p%3Ass'));
    expect(got.headers.authorization).toBe(b64('us@er:p:ss'));
    expect(got.headers.host).toBe(api.url.slice('http://'.length));
    expect(sent.url).toBe(`${api.url}/echo`);
    expect(sent.headers).toContainEqual(['Authorization', b64('us@er:p:ss')]);
  });

  it("the request's own Authorization (curl's -u, -H) wins", async () => {
    const { got } = await echo(at('u:p'), [['authorization', 'Bearer x']]);
    expect(got.headers.authorization).toBe('Bearer x');
  });

  it('kept across a redirect on the same origin (redirects.ts drops it across origins)', async () => {
    const same = await send({ method: 'GET', url: at('u:p', '/redirect/1'), headers: [] });
    expect(same.request.headers).toContainEqual(['Authorization', b64('u:p')]);
    expect(same.redirects[0]!.url).toBe(`${api.url}/redirect/1`);
  });

  it('a sheet request line with credentials: sheet run sends them as Basic auth', async () => {
    const f = path.join(dir, 'a.sheet');
    fs.writeFileSync(f, `GET ${at('ada:s%20cret')}\n-> expect-jq .headers.authorization == "${b64('ada:s cret')}"\n-> expect-jq .rawPath == "/echo"\n`);
    const r = await runSheet(['run', f], { cwd: dir });
    expect(r.out + r.err).not.toMatch(/FAIL|ERR/);
    expect(r.code).toBe(0);
  });
});
