// engine/src/http/send.ts as a stream: bodies to a sink with back-pressure, request bodies
// from streams, Content-Encoding decoding (our fixture and httpbin, a server nobody here
// wrote), the in-memory cap, curl's exit codes and the one redirect limit.
import { Readable, Writable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs fixture without types
import { startServer } from '../fixtures/server.mjs';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';
import { closeConnections, MAX_REDIRECTS, send } from '../../engine/src/http/send.js';
import { decoder, encodings } from '../../engine/src/http/decode.js';
import type { EngineError } from '../../engine/src/errors.js';

let api: { url: string };
let hb: { url: string };

beforeAll(async () => {
  [api, hb] = await Promise.all([startServer(), sharedHttpbin()]);
}, 40_000);
afterAll(async () => {
  await closeConnections();
  await api.close();
});

/** A sink that counts bytes (and keeps the first few) without holding the body. */
function counter() {
  const c = { bytes: 0, head: Buffer.alloc(0) };
  const w = new Writable({
    write(chunk: Buffer, _e, cb) {
      if (c.head.length < 64) c.head = Buffer.concat([c.head, chunk.subarray(0, 64)]);
      c.bytes += chunk.length;
      cb();
    },
  });
  return { c, w };
}

const get = (url: string) => ({ method: 'GET', url, headers: [] as [string, string][] });

describe('decoding', () => {
  it.each(['gzip', 'deflate', 'deflate-raw', 'br'])('our fixture, %s, decoded by default', async (enc) => {
    const ex = await send(get(`${api.url}/stream/compressed?enc=${enc}`));
    expect(JSON.parse(Buffer.from(ex.response.body).toString('utf8')).compressed).toBe(enc);
  });

  it.each([
    ['gzip', 'gzipped'],
    ['deflate', 'deflated'],
    ['brotli', 'brotli'],
  ])("httpbin's /%s, decoded", async (p, flag) => {
    const ex = await send(get(`${hb.url}/${p}`));
    expect(JSON.parse(Buffer.from(ex.response.body).toString('utf8'))[flag]).toBe(true);
  });

  it('decode: false keeps the bytes as sent (curl without --compressed)', async () => {
    const ex = await send(get(`${api.url}/stream/compressed?enc=gzip`), { decode: false });
    expect([...ex.response.body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
  });

  it('a gzip bomb streams through a sink in bounded memory', async () => {
    const { c, w } = counter();
    const before = process.memoryUsage().rss;
    let peak = before;
    const t = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    await send(get(`${api.url}/stream/gzip-bomb?mb=512`), { sink: () => w });
    clearInterval(t);
    expect(c.bytes).toBe(512 * 1024 * 1024);
    expect(peak - before).toBeLessThan(150 * 1024 * 1024);
  }, 60_000);

  it('a body collected in memory is capped', async () => {
    const e = (await send(get(`${api.url}/stream/bytes?n=100000`), { maxBodyBytes: 1000 }).catch((x) => x)) as EngineError;
    expect(e.code).toBe('network-error');
  });

  it('several encodings decode last first; a raw deflate is told from zlib', async () => {
    const text = Buffer.from('hello, decoded');
    const both = zlib.brotliCompressSync(zlib.gzipSync(text));
    const d = decoder(encodings('gzip, br'), both)!;
    const out: Buffer[] = [];
    d.on('data', (x: Buffer) => out.push(x));
    d.end(both);
    await new Promise((r) => d.on('end', r));
    expect(Buffer.concat(out).toString()).toBe('hello, decoded');
    expect(encodings('identity')).toEqual([]);
  });
});

describe('streams', () => {
  it('a request body from a stream: Content-Length when known, chunked otherwise', async () => {
    const body = Buffer.alloc(200_000, 0xab);
    const known = await send({ method: 'PUT', url: `${api.url}/stream/upload`, headers: [], body: { kind: 'bytes', bytes: Buffer.alloc(0) } }, { bodyStream: { open: () => Readable.from([body]), length: body.length, reopen: false } });
    const k = JSON.parse(Buffer.from(known.response.body).toString());
    expect(k).toMatchObject({ bytes: 200_000, contentLength: '200000', chunked: false });
    const unknown = await send({ method: 'PUT', url: `${api.url}/stream/upload`, headers: [], body: { kind: 'bytes', bytes: Buffer.alloc(0) } }, { bodyStream: { open: () => Readable.from([body]), reopen: false } });
    expect(JSON.parse(Buffer.from(unknown.response.body).toString())).toMatchObject({ bytes: 200_000, chunked: true });
  });

  it('the response body goes to the sink; the exchange holds none of it', async () => {
    const { c, w } = counter();
    const ex = await send(get(`${api.url}/stream/bytes?n=3000000`), { sink: () => w });
    expect(c.bytes).toBe(3_000_000);
    expect(ex.response.body.length).toBe(0);
  });
});

describe("curl's exit codes and the redirect limit", () => {
  it(`follows ${MAX_REDIRECTS} redirects (curl's limit), not one more`, async () => {
    expect(MAX_REDIRECTS).toBe(50);
    expect((await send(get(`${api.url}/redirect/${MAX_REDIRECTS}`))).redirects.length).toBe(MAX_REDIRECTS);
    const e = (await send(get(`${api.url}/redirect/${MAX_REDIRECTS + 1}`)).catch((x) => x)) as EngineError;
    expect(e.code).toBe('too-many-redirects');
    expect(e.details?.curlExit).toBe(47);
  });

  it.each([
    ['/stream/empty-reply', 52],
    // curl: 18, "transfer closed with 98000 bytes remaining to read".
    ['/stream/die?n=100000&sent=2000', 18],
  ])('%s gives curlExit %i', async (p, code) => {
    const { w } = counter();
    const e = (await send(get(`${api.url}${p}`), { sink: () => w }).catch((x) => x)) as EngineError;
    expect(e.details?.curlExit).toBe(code);
  });

  it('a refused connection is 7', async () => {
    const e = (await send(get('http://127.0.0.1:1/')).catch((x) => x)) as EngineError;
    expect(e.details?.curlExit).toBe(7);
  });
});
