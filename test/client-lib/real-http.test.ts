// AngularJS's real $http (no ngMock) through jsdom's XMLHttpRequest to a real server on 127.0.0.1.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import { angular } from './helpers/ng';

let server: http.Server;
let base = '';
const seen: any[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': '*' };
      if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url!.startsWith('/bad')) return res.writeHead(200, { ...cors, 'Content-Type': 'application/json' }).end('{not json');
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 1, method: req.method }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as any).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function client(configure?: (p: any) => void): any {
  const $injector = angular.injector([
    'ng',
    'client',
    [
      'ClientProvider',
      '$qProvider',
      (p: any, $qProvider: any) => {
        if ($qProvider.errorOnUnhandledRejections) $qProvider.errorOnUnhandledRejections(false);
        p.setBaseUrl(base);
        if (configure) configure(p);
      },
    ],
  ]);
  return $injector.get('Client');
}

describe(`real $http on AngularJS ${angular.version.full}`, () => {
  it("setMethodOverriders(['put']) sends POST with X-HTTP-Method-Override: PUT", async () => {
    const c = client((p) => p.setMethodOverriders(['put']));
    seen.length = 0;
    const u = c.clientizeElement(null, { id: 1, name: 'n' }, 'users', true);
    const r = await new Promise<any>((ok, ko) => u.put().then(ok, ko));
    expect(r.method).toBe('POST');
    expect(seen[0].method).toBe('POST');
    expect(seen[0].headers['x-http-method-override']).toBe('PUT');
    expect(JSON.parse(seen[0].body)).toEqual({ id: 1, name: 'n' });
  });

  it('a DELETE with a body goes as application/json', async () => {
    const c = client();
    seen.length = 0;
    await new Promise<any>((ok, ko) => c.one('users', 1).remove().then(ok, ko));
    expect(seen[0].method).toBe('DELETE');
    expect(seen[0].body).toBe('{}');
    expect(seen[0].headers['content-type']).toMatch(/^application\/json/);
  });

  it('a 2xx JSON answer that does not parse rejects with a ClientHttpError (BAD_RESPONSE)', async () => {
    const c = client();
    const err = await new Promise<any>((ok) => c.one('bad', 1).get().then(() => ok(null), ok));
    expect(err.name).toBe('ClientHttpError');
    expect(err.code).toBe('BAD_RESPONSE');
    expect(err.status).toBe(200);
    expect(err.url).toBe(base + '/bad/1');
    expect(err.message).toContain('{not json');
  });
});
