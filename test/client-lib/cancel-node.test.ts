// @vitest-environment node
// Cancellation and errors without AngularJS (issue 23 item 3), against the example API on
// 127.0.0.1: withHttpConfig({ signal }) in the fetch transport and the Node engine transport,
// the engine's timeout named `timeout`, a refused connection in one sentence, and
// INVALID_BASE_URL at once for a missing or scheme-less baseUrl.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createClient } from '../../client-lib/src/node';
import { createClient as createFetchClient } from '../../client-lib/src/index';
// @ts-expect-error plain JS fixture
import { startServer } from '../fixtures/server.mjs';

let api: { url: string; close(): Promise<void> };
let closed: string; // a port nothing listens on (not 9: fetch refuses it as a "bad port" without trying)
beforeAll(async () => {
  api = await startServer();
  const http = await import('node:http');
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  closed = `http://127.0.0.1:${(srv.address() as any).port}`;
  await new Promise<void>((r) => srv.close(() => r()));
}, 30000);
afterAll(() => api.close());

const failure = async (p: PromiseLike<any>): Promise<any> => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
};

const transports = [
  ['engine', (baseUrl: string) => createClient({ baseUrl })],
  ['fetch', (baseUrl: string) => createFetchClient({ baseUrl, fetch: globalThis.fetch })],
] as const;

describe.each(transports)('AbortSignal, %s transport', (_name, make) => {
  it('aborting the signal mid-request rejects with ABORTED, soon', async () => {
    const ctrl = new AbortController();
    const started = Date.now();
    const p = make(api.url).one('slow').withHttpConfig({ signal: ctrl.signal }).get({ ms: 3000 });
    setTimeout(() => ctrl.abort(), 50);
    const e = await failure(p);
    expect([e.code, e.status]).toEqual(['ABORTED', -1]);
    expect(e.message).toBe(`GET ${api.url}/slow?ms=3000 failed: aborted`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an already aborted signal rejects with ABORTED at once', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    const e = await failure(make(api.url).all('users').withHttpConfig({ signal: ctrl.signal }).getList());
    expect(e.code).toBe('ABORTED');
  });

  it('AbortSignal.timeout(ms) gives TIMEOUT', async () => {
    const e = await failure(make(api.url).one('slow').withHttpConfig({ signal: AbortSignal.timeout(50) }).get({ ms: 3000 }));
    expect(e.code).toBe('TIMEOUT');
  });

  it('the timeout in ms of the HTTP config says timeout, and after how long', async () => {
    const e = await failure(make(api.url).one('slow').withHttpConfig({ timeout: 100 }).get({ ms: 3000 }));
    expect(e.code).toBe('TIMEOUT');
    expect(e.message).toMatch(new RegExp(`^GET ${api.url}/slow\\?ms=3000 failed: timed out .*100 ms\\)?$`));
    expect(e.message).not.toMatch(/cancel|-1/);
  });

  it('a refused connection is one clear sentence, without the status -1', async () => {
    const e = await failure(make(closed).all('users').getList());
    expect(e.code).toBe('NETWORK_ERROR');
    expect(e.status).toBe(-1);
    expect(e.message).not.toMatch(/-1/);
    expect(e.message.match(/connection refused/g)).toHaveLength(1);
  });
});

describe('the engine transport names its errors', () => {
  it('the HTTP config timeout is the engine error `timeout`, not `cancelled`', async () => {
    const e = await failure(createClient({ baseUrl: api.url }).one('slow').withHttpConfig({ timeout: 100 }).get({ ms: 3000 }));
    expect(e.cause.code).toBe('timeout');
    expect(e.message).toBe(`GET ${api.url}/slow?ms=3000 failed: timed out (no complete response within 100 ms)`);
  });

  it('a refused connection reads "failed: connection refused"', async () => {
    const e = await failure(createClient({ baseUrl: closed }).all('users').getList());
    expect(e.message).toBe(`GET ${closed}/users failed: connection refused`);
    expect(e.cause.code).toBe('connection-refused');
  });
});

describe('INVALID_BASE_URL outside a browser, at once', () => {
  it.each([
    ['no baseUrl', undefined, 'no baseUrl was given'],
    ['host and port without a scheme', 'localhost:8080/api', "'http://localhost:8080/api'"],
    ['an IP without a scheme', '127.0.0.1:8080', "'http://127.0.0.1:8080'"],
  ])('%s', (_what, baseUrl, hint) => {
    for (const make of [createClient, createFetchClient]) {
      expect(() => make(baseUrl === undefined ? {} : { baseUrl })).toThrowError(expect.objectContaining({ code: 'INVALID_BASE_URL', message: expect.stringContaining(hint) }));
    }
  });
});
