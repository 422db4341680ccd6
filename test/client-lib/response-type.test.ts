// @vitest-environment node
// `responseType` of the HTTP config (`$http`'s, that is XMLHttpRequest's) on the transports
// without AngularJS: the Node engine and Node's fetch, against httpbin on 127.0.0.1. The
// download habit of Restangular code, `withHttpConfig({responseType: 'arraybuffer'}).get()`,
// gets the bytes as sent, not a string decoded as UTF-8 (which loses every byte over 0x7f).
import { describe, it, expect, beforeAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createClient } from '../../client-lib/src/node';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';

let bin: { url: string };
let png: Buffer;
beforeAll(async () => {
  bin = await sharedHttpbin();
  png = execFileSync('curl', ['-s', bin.url + '/image/png']);
}, 30000);
const transports = [
  ['engine', () => createClient({ baseUrl: bin.url })],
  ['Node fetch', () => createClient({ baseUrl: bin.url, fetch: globalThis.fetch })],
] as const;

describe.each(transports)('%s transport: responseType', (_name, make) => {
  it("'arraybuffer' resolves with an ArrayBuffer holding the bytes curl receives", async () => {
    const r: any = await make().one('image', 'png').withHttpConfig({ responseType: 'arraybuffer' }).get();
    expect(r).toBeInstanceOf(ArrayBuffer);
    expect(Buffer.from(r).equals(png)).toBe(true);
  });

  it("'blob' resolves with a Blob of the bytes and the answer's Content-Type", async () => {
    const r: any = await make().one('image', 'png').withHttpConfig({ responseType: 'blob' }).customGET('');
    expect(r).toBeInstanceOf(Blob);
    expect(r.type).toBe('image/png');
    expect(Buffer.from(await r.arrayBuffer()).equals(png)).toBe(true);
  });

  it("with setFullResponse, data is the ArrayBuffer and headers() still answers", async () => {
    const full = make().withConfig((c) => c.setFullResponse(true));
    const r: any = await full.one('image', 'png').withHttpConfig({ responseType: 'arraybuffer' }).get();
    expect(r.data).toBeInstanceOf(ArrayBuffer);
    expect(r.data.byteLength).toBe(png.length);
    expect(r.headers('content-type')).toBe('image/png');
  });

  it("a failed 'arraybuffer' request rejects with the bytes as data", async () => {
    let err: any;
    await make().one('status', 418).withHttpConfig({ responseType: 'arraybuffer' }).get().then(undefined, (e: any) => (err = e));
    expect(err.status).toBe(418);
    expect(err.data).toBeInstanceOf(ArrayBuffer);
    expect(new TextDecoder().decode(err.data)).toContain('teapot');
  });
});
