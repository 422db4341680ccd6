// @vitest-environment node
// Request bodies on the Node entry's engine transport (client-lib/src/node.ts) against httpbin on
// 127.0.0.1: what Restangular users send besides JSON (the FormData upload of Restangular's README
// FAQ, "How can I send files", URLSearchParams, a Blob) goes out as Node's own fetch sends it
// (the Fetch standard's "extract a body"), never as the text "[object FormData]".
import { describe, it, expect, beforeAll } from 'vitest';
import { createClient } from '../../client-lib/src/node';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';

let bin: { url: string };
beforeAll(async () => {
  bin = await sharedHttpbin();
}, 30000);
const form = (): FormData => {
  const f = new FormData();
  f.append('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
  f.append('k', 'v');
  return f;
};

// Each case runs on the engine (the default) and on Node's fetch, which is the reference.
const transports = [
  ['engine', () => createClient({ baseUrl: bin.url })],
  ['Node fetch', () => createClient({ baseUrl: bin.url, fetch: globalThis.fetch })],
] as const;

describe.each(transports)('Node entry, %s transport: bodies other than JSON', (_name, make) => {
  it("uploads FormData as multipart with its boundary (the README's identity transform, Content-Type undefined)", async () => {
    const r: any = await make()
      .all('anything')
      .withHttpConfig({ transformRequest: (x: any) => x })
      .customPOST(form(), 'up', undefined, { 'Content-Type': undefined });
    expect(r.headers['Content-Type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(r.files).toEqual({ file: 'hello' });
    expect(r.form).toEqual({ k: 'v' });
  });

  it('uploads FormData as multipart without any transform or header', async () => {
    const r: any = await make().all('anything').customPOST(form(), 'up');
    expect(r.headers['Content-Type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(r.files).toEqual({ file: 'hello' });
  });

  it('sends URLSearchParams as a urlencoded form', async () => {
    const r: any = await make().all('anything').customPOST(new URLSearchParams({ a: '1', b: 'x y' }), 'f');
    expect(r.headers['Content-Type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(r.form).toEqual({ a: '1', b: 'x y' });
  });

  it("sends a Blob's bytes, with the caller's Content-Type", async () => {
    const r: any = await make().all('anything').customPOST(new Blob(['hi']), 'b', {}, { 'Content-Type': 'application/octet-stream' });
    expect(r.headers['Content-Type']).toBe('application/octet-stream');
    expect(r.data).toBe('hi');
  });
});
