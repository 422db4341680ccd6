// @vitest-environment node
// Beyond AngularJS: the core on native Promises and a fetch transport (undici's fetch),
// against the example API on a real socket on 127.0.0.1.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { fetch } from 'undici';
import { createClient, ClientHttpError } from '../../client-lib/src/index';
// @ts-expect-error plain JS fixture
import { startServer } from '../fixtures/server.mjs';

let api: { url: string; close(): Promise<void> };
beforeAll(async () => {
  api = await startServer();
});
afterAll(async () => {
  await api.close();
});

const client = () => createClient({ fetch: fetch as any, baseUrl: api.url });

describe('without AngularJS (fetch + native Promise)', () => {
  it('getList resolves with an enhanced array of the seeded users', async () => {
    const c = client();
    await c.one('reset').customPOST({});
    const users: any = await c.all('users').getList();
    expect(Array.isArray(users)).toBe(true);
    expect(users.map((u: any) => u.name)).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
    expect(users[0].getClientUrl()).toBe(api.url + '/users/1');
    expect(JSON.stringify(users[0])).toBe(JSON.stringify({ id: 1, name: 'Ada Lovelace', email: 'ada@example.org' }));
    const one: any = await users[1].get();
    expect(one.name).toBe('Alan Turing');
    expect(one.clientEtag).toMatch(/^"u2-/);
  });

  it('post sends JSON and resolves with the created element, which can be updated', async () => {
    const c = client();
    const created: any = await c.all('users').post({ name: 'Barbara Liskov', email: 'b@example.org' });
    expect(created.id).toBeGreaterThan(3);
    expect(created.fromServer).toBe(true);
    created.email = 'barbara@example.org';
    const updated: any = await created.put();
    expect(updated.email).toBe('barbara@example.org');
    const again: any = await c.one('users', created.id).get();
    expect(again.plain()).toEqual({ id: created.id, name: 'Barbara Liskov', email: 'barbara@example.org' });
  });

  it('request and response interceptors run; the echo shows method, path, query, headers and body', async () => {
    const c = client();
    const ops: string[] = [];
    c.setDefaultHeaders({ 'X-Client': 'native' });
    c.addRequestInterceptor((el: any, op: string) => (op === 'post' ? { ...el, stamped: true } : el));
    c.addResponseInterceptor((data: any, op: string, what: string, url: string) => {
      ops.push(`${op} ${what} ${url}`);
      return data;
    });
    const echo: any = await c.one('echo', 'x y').post('items', { a: 1 }, { q: 'v' });
    expect(echo.method).toBe('POST');
    expect(echo.path).toBe('/echo/x%20y/items');
    expect(echo.query).toEqual({ q: 'v' });
    expect(echo.headers['x-client']).toBe('native');
    expect(echo.headers['content-type']).toContain('application/json');
    expect(JSON.parse(echo.body)).toEqual({ a: 1, stamped: true });
    expect(ops).toEqual([`post items ${api.url}/echo/x%20y/items`]);
  });

  it('a request interceptor returning null sends no body; remove sends {} otherwise', async () => {
    const c = client();
    const r1: any = await c.one('echo', 1).remove();
    expect(r1.body).toBe('{}');
    c.addRequestInterceptor((el: any, op: string) => (op === 'remove' ? null : el));
    const r2: any = await c.one('echo', 1).remove();
    expect(r2.bodyLength).toBe(0);
  });

  it('a failed request rejects with a typed error carrying the status', async () => {
    const c = client();
    const err: any = await c.one('users', 999).get().then(
      () => null,
      (e: any) => e,
    );
    expect(err).toBeInstanceOf(ClientHttpError);
    expect(err.status).toBe(404);
    expect(err.code).toBe('HTTP_ERROR');
    expect(err.message).toBe(`GET ${api.url}/users/999 failed with status 404 Not Found`);
  });

  it('an error interceptor can replay through the transport', async () => {
    const c = client();
    let tries = 0;
    c.setErrorInterceptor((response: any, deferred: any, handler: any) => {
      if (tries++ === 0) {
        response.config.url = api.url + '/users/1';
        c.http(response.config).then(handler, deferred.reject);
        return false;
      }
      return true;
    });
    const u: any = await c.one('users', 404404).get();
    expect(u.id).toBe(1);
  });

  it('a timeout promise cancels the request (ABORTED)', async () => {
    const c = client();
    let cancel!: () => void;
    const timeout = new Promise<void>((r) => (cancel = r));
    const p = c.all('slow').withHttpConfig({ timeout }).getList({ ms: 5000 });
    setTimeout(cancel, 20);
    const err: any = await p.then(
      () => null,
      (e: any) => e,
    );
    expect(err.code).toBe('ABORTED');
    expect(err.status).toBe(-1);
  });
});

describe('errors a person can act on (fetch transport, Node)', () => {
  it('a 2xx answer declared JSON that does not parse rejects with BAD_RESPONSE (status, URL, first bytes)', async () => {
    const http = await import('node:http');
    const srv = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id": 1,, oops'));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(srv.address() as any).port}`;
    try {
      const c = createClient({ fetch: fetch as any, baseUrl: base });
      for (const p of [c.one('x', 1).get(), c.all('x').getList()]) {
        const err: any = await p.then(
          () => null,
          (e: any) => e,
        );
        expect(err).toBeInstanceOf(ClientHttpError);
        expect(err.code).toBe('BAD_RESPONSE');
        expect(err.status).toBe(200);
        expect(err.url).toMatch(new RegExp('^' + base + '/x'));
        expect(err.message).toContain('{\\"id\\": 1,, oops');
        expect(err.cause).toBeInstanceOf(SyntaxError);
      }
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });

  it('connection refused: NETWORK_ERROR, status -1, the fetch error as cause, no CORS hint', async () => {
    const http = await import('node:http');
    const srv = http.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as any).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const c = createClient({ fetch: fetch as any, baseUrl: `http://127.0.0.1:${port}` });
    const err: any = await c.one('users', 1).get().then(
      () => null,
      (e: any) => e,
    );
    expect(err).toBeInstanceOf(ClientHttpError);
    expect([err.code, err.status]).toEqual(['NETWORK_ERROR', -1]);
    expect(err.message).toContain('connection refused');
    expect(err.message).not.toMatch(/cross-origin/);
    expect(err.cause).toBeInstanceOf(TypeError);
    expect(err.cause.cause.code).toBe('ECONNREFUSED');
  });

  it('an invalid URL says so', async () => {
    const c = createClient({ fetch: fetch as any, baseUrl: 'http://127.0.0.1:99999' });
    const err: any = await c.one('users', 1).get().then(
      () => null,
      (e: any) => e,
    );
    expect(err.code).toBe('NETWORK_ERROR');
    expect(err.message).toContain('invalid URL');
    expect(err.cause).toBeDefined();
  });

  it("createClient throws at once on a relative baseUrl when there is no page origin", () => {
    expect(() => createClient({ fetch: fetch as any, baseUrl: '/api' })).toThrowError(
      expect.objectContaining({ code: 'INVALID_BASE_URL', message: expect.stringContaining("'http://127.0.0.1:8080/api'") }),
    );
  });

  it("Node's own fetch is the default", async () => {
    const c = createClient({ baseUrl: api.url });
    const users: any = await c.all('users').getList();
    expect(users.length).toBeGreaterThan(0);
  });
});
