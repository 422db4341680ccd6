// HttpFileRunner (engine/src/session/http-file-runner.ts) against the example API on 127.0.0.1: the
// directives, prompts, <@ bodies, $dotenv, errors with their lines, and the shared resolver hook.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFileRunner } from '../../engine/src/session/http-file-runner.js';
import { loadEnvironment } from '../../engine/src/http-file/environment.js';
import { parseForFile } from '../../engine/src/http-file/index.js';
import { resolveRequest } from '../../engine/src/resolve/resolve.js';
import { Session } from '../../engine/src/session/session.js';
import { startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;
beforeAll(async () => {
  api = await startApi();
  dir = tempDir('http-send-');
  fs.writeFileSync(path.join(dir, 'body.json'), '{"user": "{{user}}", "password": "{{$dotenv PASSWORD}}"}');
  fs.writeFileSync(path.join(dir, '.env'), 'PASSWORD=secret\n');
  fs.writeFileSync(path.join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: api.url, user: 'ann' } }));
});
afterAll(async () => {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const runner = (text: string, extra: ConstructorParameters<typeof HttpFileRunner>[0] = {}) => {
  const file = path.join(dir, 'x.http');
  fs.writeFileSync(file, text);
  return { r: new HttpFileRunner({ file, env: loadEnvironment(file, 'local'), ...extra }), text };
};

describe('HttpFileRunner', () => {
  it('logs in with a <@ body (environment and $dotenv inside), then uses the token', async () => {
    const { r, text } = runner([
      '# @name login',
      'POST {{base}}/login',
      'Content-Type: application/json',
      '',
      '<@ ./body.json',
      '',
      '###',
      'GET {{base}}/me',
      'Authorization: Bearer {{login.response.body.$.token}}',
    ].join('\n'));
    const [login, me] = await r.sendAll(text);
    expect(login!.exchange.response.status).toBe(200);
    expect(me!.exchange.response.status).toBe(200);
    expect(JSON.parse(Buffer.from(me!.exchange.response.body).toString())).toEqual({ user: 'ann' });
  });

  it('# @no-redirect keeps the 302; without it the redirect is followed', async () => {
    const { r, text } = runner(['# @no-redirect', 'GET {{base}}/redirect', '###', 'GET {{base}}/redirect'].join('\n'));
    const [a, b] = await r.sendAll(text);
    expect(a!.exchange.response.status).toBe(302);
    expect(b!.exchange.response.status).toBe(200);
  });

  it('# @no-cookie-jar neither sends nor stores cookies', async () => {
    const { r, text } = runner([
      'GET {{base}}/cookies/set?a=1',
      '###',
      '# @no-cookie-jar',
      'GET {{base}}/cookies/set?b=2',
      '###',
      '# @no-cookie-jar',
      'GET {{base}}/cookies',
      '###',
      'GET {{base}}/cookies',
    ].join('\n'));
    const res = await r.sendAll(text);
    const cookies = (i: number) => JSON.parse(Buffer.from(res[i]!.exchange.response.body).toString()).cookies;
    expect(cookies(2)).toEqual({});
    expect(cookies(3)).toEqual({ a: '1' });
  });

  it('# @prompt asks the client, and the answer fills {{name}}', async () => {
    const asked: string[] = [];
    const { r, text } = runner(['# @prompt id The user id', 'GET {{base}}/users/{{id}}'].join('\n'), {
      prompt: async (name, description) => {
        asked.push(`${name}: ${description}`);
        return '1';
      },
    });
    const [res] = await r.sendAll(text);
    expect(asked).toEqual(['id: The user id']);
    expect(res!.request.url).toBe(`${api.url}/users/1`);
  });

  it.each([
    ['a prompt nobody can answer', '# @prompt otp\nGET {{base}}/x?otp={{otp}}', 'bad-argument', 1],
    ['an unknown variable', '###\n\nGET {{base}}/{{nope}}', 'unknown-variable', 3],
    ['a missing <@ file', 'POST {{base}}/x\n\n<@ ./none.json', 'file-unreadable', 3],
  ])('%s is a located error', async (_, text, code, line) => {
    const { r } = runner(text);
    await expect(r.sendAll(text)).rejects.toMatchObject({ code, line });
  });

  it('an unsupported construct stops the request with its name and line', async () => {
    const { r, text } = runner('CONNECT {{base}}/users');
    expect(parseForFile(text, 'x.http').diagnostics[0]).toMatchObject({ code: 'unsupported-construct', line: 1, message: expect.stringContaining('CONNECT') });
    await expect(r.sendAt(text, 1)).rejects.toMatchObject({ code: 'unsupported-construct', line: 1 });
    await expect(r.sendAll(`GET {{base}}/users\n###\n${text}`)).rejects.toMatchObject({ code: 'unsupported-construct', line: 3 });
  });

  it('>> saves the body through the runner too, and names the file in the answer', async () => {
    const { r, text } = runner('GET {{base}}/users\n\n>>! ./runner-saved.json');
    const [a] = await r.sendAll(text);
    const file = path.join(dir, 'runner-saved.json');
    expect(a!.output.saved).toEqual([{ line: 3, file }]);
    expect(fs.readFileSync(file)).toEqual(Buffer.from(a!.exchange.response.body));
  });

  it('resolveRequest (the shared resolver) hands .http sheets to the {{...}} pass', async () => {
    const sheet = parseForFile('@u = 5\nGET http://127.0.0.1:1/users/{{u}}?t={{$timestamp}}', 'a.rest');
    const { request } = await resolveRequest(sheet, sheet.requests[0]!);
    expect(request.url).toMatch(/^http:\/\/127\.0\.0\.1:1\/users\/5\?t=\d{10}$/);
  });

  it('the engine session (C-c C-c over JSON-RPC) sends a .http request when the path says .http', async () => {
    const session = new Session();
    const text = `@base = ${api.url}\n@id = 1\n\n### one user\nGET {{base}}/users/{{id}}\nAccept: application/json\n`;
    const res = await session.send({ text, line: 6, path: path.join(dir, 'users.http') });
    expect(res.request.url).toBe(`${api.url}/users/1`);
    expect(res.response.status).toBe(200);
    // The same text in a .sheet is restclient syntax: {{base}} is not a variable there.
    await expect(session.send({ text, line: 5, path: path.join(dir, 'users.sheet') })).rejects.toMatchObject({ code: 'invalid-url' });
  });
});
