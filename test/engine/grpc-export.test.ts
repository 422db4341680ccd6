// A GRPC request as a grpcurl command line (issue 41 item 6): `sheet export --to grpcurl`, the
// command C-c C-u copies (sheet/curl): plain text or TLS with the request's CA file, client
// certificate and -k, the protos and import paths made absolute against the file's directory,
// metadata, the messages of a stream in one -d; --to grpcurl on an HTTP
// request is a usage error. The real bin and bundle (no server: nothing is sent).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';

let dir: string;

beforeAll(() => {
  dir = tempDir('grpc-export-');
  fs.writeFileSync(path.join(dir, 'calls.http'), `proto < ./protos/demo.proto
includeDirs: ["./protos/include"]

### say
# @cacert ./ca.pem
# @grpc-authority api.internal
GRPC grpcs://127.0.0.1:50051/demo.Echo/Say
x-token: abc
Content-Type: application/json

{"name": "it's me"}

### chat
GRPC localhost:50051/demo.Echo/Chat

{"name": "a"}
=== wait-for-server
{"name": "b"}

### plain http
GET http://127.0.0.1:9/x
`);
  fs.writeFileSync(path.join(dir, 'ca.pem'), '');
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('sheet export --to grpcurl', () => {
  it('writes a TLS call with its CA file, authority and metadata (Content-Type left out)', async () => {
    const r = await runSheet(['export', '--to', 'grpcurl', 'calls.http:7'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(
      `grpcurl -cacert ${dir}/ca.pem -import-path ${dir}/protos/include -proto ${dir}/protos/demo.proto -H 'x-token: abc' -authority api.internal -d '{"name": "it'\\''s me"}' 127.0.0.1:50051 demo.Echo/Say`,
    );
  });

  it('writes the messages of a stream in one -d, plain text', async () => {
    const r = await runSheet(['export', '--to', 'grpcurl', 'calls.http:14'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(`grpcurl -plaintext -import-path ${dir}/protos/include -proto ${dir}/protos/demo.proto -d '{"name": "a"}\n{"name": "b"}' localhost:50051 demo.Echo/Chat`);
  });

  it('refuses an HTTP request, naming it', async () => {
    const r = await runSheet(['export', '--to', 'grpcurl', 'calls.http:22'], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/not a GRPC request/);
  });
});

describe('sheet convert --to sheet', () => {
  it('keeps a GRPC request\'s protos, options, import paths and authority, as a sheet reads them', async () => {
    const r = await runSheet(['convert', 'calls.http', '--to', 'sheet'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.out).toContain('# @name say\n# @cacert ./ca.pem\n# @grpc-authority api.internal\nproto < ./protos/demo.proto\nincludeDirs: ["./protos/include"]\nGRPC https://127.0.0.1:50051/demo.Echo/Say\n');
    fs.writeFileSync(path.join(dir, 'converted.sheet'), r.out);
    // The sheet exports to the same grpcurl command as the .http file.
    const line = r.out.split('\n').findIndex((l) => l.startsWith('GRPC https')) + 1;
    const [fromSheet, fromHttp] = await Promise.all([runSheet(['export', '--to', 'grpcurl', `converted.sheet:${line}`], { cwd: dir }), runSheet(['export', '--to', 'grpcurl', 'calls.http:7'], { cwd: dir })]);
    expect(fromSheet.out).toBe(fromHttp.out);
  });
});
