// gRPC connections through `sheet run` (issue 41 item 3): TLS (`grpcs://`) verified with the HTTP
// side's CA file (`# @cacert`), `# @insecure`, a client certificate (`# @cert`/`# @key`) for a
// server that asks for one, a server that TLS does not reach; the per-request timeout as the
// call's deadline. Real @grpc/grpc-js servers on 127.0.0.1 (test/fixtures/grpc-server.mjs) with
// certificates of a private CA made by openssl (test/fixtures/private-ca.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error: a plain ES module fixture
import { PROTO_DIR, startGrpc } from '../fixtures/grpc-server.mjs';
// @ts-expect-error: a plain ES module fixture
import { startPrivateCa } from '../fixtures/private-ca.mjs';

interface Server {
  port: number;
  address: string;
  close(): Promise<void>;
}
interface Result {
  outcome: string;
  status?: number;
  statusText?: string;
  durationMs?: number;
  response?: { body?: string };
  error?: { code: string; message: string };
}

let tls: Server;
let mtls: Server;
let plain: Server;
let dir: string;
let certs: string;

beforeAll(async () => {
  dir = tempDir('grpc-conn-');
  certs = path.join(dir, 'certs');
  fs.mkdirSync(certs);
  const ca = await startPrivateCa(certs);
  await ca.close();
  const pem = (f: string) => fs.readFileSync(path.join(certs, f), 'utf8');
  tls = await startGrpc({ tls: { key: pem('srv.key'), cert: pem('srv.pem') } });
  mtls = await startGrpc({ tls: { key: pem('srv.key'), cert: pem('srv.pem'), ca: pem('ca.pem') } });
  plain = await startGrpc();
  fs.cpSync(PROTO_DIR, path.join(dir, 'protos'), { recursive: true });
}, 60000);

afterAll(async () => {
  await tls?.close();
  await mtls?.close();
  await plain?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PROTO = 'proto < ./protos/demo.proto\nincludeDirs: ["./protos/include"]\n\n';

async function run(name: string, text: string, extra: string[] = []): Promise<{ code: number; results: Result[]; ms: number }> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, PROTO + text.replaceAll('TLS', tls.address).replaceAll('MUTUAL', mtls.address).replaceAll('PLAIN', plain.address));
  const report = path.join(dir, `${name}.json`);
  const started = Date.now();
  const r = await runSheet(['run', file, '--report', `json:${report}`, ...extra], { cwd: dir, timeoutMs: 30000 });
  const json = JSON.parse(fs.readFileSync(report, 'utf8')) as { files: { results: Result[] }[] };
  return { code: r.code, results: json.files[0]!.results, ms: Date.now() - started };
}

describe('gRPC over TLS', () => {
  it('verifies the server with # @cacert, or not at all with # @insecure, and refuses it unverified', async () => {
    const r = await run('tls.http', `### trusted
# @cacert ./certs/ca.pem
GRPC grpcs://TLS/demo.Echo/Say

{"name": "tls"}

### insecure
# @insecure
GRPC grpcs://TLS/demo.Echo/Say

{"name": "k"}

### unverified
GRPC grpcs://TLS/demo.Echo/Say

{"name": "no"}
`);
    expect(r.results[0]!.outcome).toBe('passed');
    expect(JSON.parse(r.results[0]!.response!.body!)).toEqual({ message: 'hello tls' });
    expect(r.results[1]!.outcome).toBe('passed');
    expect(r.results[2]!.outcome).toBe('transport');
    expect(r.results[2]!.error!.code).toBe('tls-error');
    expect(r.results[2]!.error!.message).toMatch(/certificate is not trusted/);
    expect(r.code).not.toBe(0);
  }, 60000);

  it('presents the client certificate of # @cert / # @key to a server that asks for one', async () => {
    const r = await run('mtls.http', `### with a certificate
# @cacert ./certs/ca.pem
# @cert ./certs/client.pem
# @key ./certs/client.key
GRPC grpcs://MUTUAL/demo.Echo/Say

{"name": "mutual"}
`);
    expect(r.results[0]!.error).toBeUndefined();
    expect(JSON.parse(r.results[0]!.response!.body!)).toEqual({ message: 'hello mutual' });
    expect(r.code).toBe(0);
  }, 60000);

  it('says a plain-text server is not reached over TLS, naming the address', async () => {
    const r = await run('mismatch.http', 'GRPC grpcs://PLAIN/demo.Echo/Say\n\n{}\n');
    expect(r.results[0]!.error!.code).toBe('network-error');
    expect(r.results[0]!.error!.message).toContain(plain.address);
  }, 60000);
});

describe('the deadline', () => {
  it('is the per-request timeout: a call that never answers ends with DEADLINE_EXCEEDED', async () => {
    const r = await run('deadline.http', 'GRPC PLAIN/demo.Echo/Hang\n\n{"name": "slow"}\n\n###\nGRPC PLAIN/demo.Echo/Say\n\n{"name": "next"}\n', ['--timeout', '0.5']);
    expect(r.results[0]!.status).toBe(4);
    expect(r.results[0]!.statusText).toMatch(/^DEADLINE_EXCEEDED/);
    expect(r.results[0]!.outcome).toBe('failed');
    expect(r.results[1]!.outcome).toBe('passed');
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(15000);
  }, 60000);
});
