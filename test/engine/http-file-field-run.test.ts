// Issue 29: one failure does not end a `.http` file in `sheet run` (httpyac, JetBrains and
// Newman go on with the next request and report each); `--bail` stops at the first; a request
// that needs a value from a failed one fails naming it. The requests that do run are captured
// on a raw server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, type Capture } from './http-field.js';

let cap: Capture;
beforeAll(async () => {
  cap = await capture();
});
afterAll(async () => {
  await cap?.close();
});

const FILE = [
  '# @name login',
  'POST http://127.0.0.1:1/login',
  '',
  '> {%',
  '  client.global.set("auth", response.body.token);',
  '%}',
  '',
  '###',
  'GET HOST/me',
  'Authorization: Bearer {{login.response.body.$.token}}',
  '',
  '###',
  'GET HOST/global',
  'Authorization: Bearer {{auth}}',
  '',
  '###',
  'CONNECT HOST:443',
  '',
  '###',
  'POST HOST/upload',
  'Content-Type: application/json',
  '',
  '< ./missing.json',
  '',
  '###',
  'GET HOST/still-sent',
].join('\n');

describe('sheet run x.http goes on after a failed request', () => {
  it('reports each failure with its reason, sends the rest, and exits with the worst status', async () => {
    const r = await cap.sheetRun('many.http', FILE, ['--report', 'json:many.json']);
    expect(r.got.map((g) => g.requestLine)).toEqual(['GET /still-sent HTTP/1.1']);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/✗ --- POST \/login \(many\.http:2\)/);
    expect(r.out).toContain('many.http:10: {{login.response.body.$.token}} needs a value from request login (line 2), which failed');
    expect(r.out).toContain('many.http:14: {{auth}} needs a value from request login (line 2), which failed');
    expect(r.out).toMatch(/many\.http:17: the CONNECT method is not supported/);
    expect(r.out).toMatch(/many\.http:23: cannot read body file .*missing\.json/);
    expect(r.out).toMatch(/✓ 200 GET \/still-sent/);
    expect(r.out).toContain('6 of 6 requests');
  });

  it('--bail (and --fail-fast) stop at the first failure', async () => {
    for (const flag of ['--bail', '--fail-fast']) {
      const r = await cap.sheetRun('many.http', FILE, [flag]);
      expect(r.code).toBe(3);
      expect(r.got).toEqual([]);
      expect(r.out).toContain('1 of 6 requests');
    }
  });
});

describe('where httpyac differs and we keep REST Client and JetBrains behaviour', () => {
  it('a hand-written Cookie header is sent with its request only; a scheme-less {{host}} from the environment gets http://', async () => {
    cap.write('keep/http-client.env.json', JSON.stringify({ dev: { host: `127.0.0.1:${cap.port}` } }));
    const r = await cap.sheetRun('keep/cookie.http', 'GET {{host}}/a\nCookie: session=abc\n\n###\nGET {{host}}/b\n', ['--env', 'dev']);
    expect(r.code).toBe(0);
    const cookies = r.got.map((g) => g.headers.find(([k]) => k.toLowerCase() === 'cookie')?.[1]);
    expect(r.got.map((g) => g.requestLine)).toEqual(['GET /a HTTP/1.1', 'GET /b HTTP/1.1']);
    expect(cookies).toEqual(['session=abc', undefined]);
  });
});
