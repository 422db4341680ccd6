// gRPC requests through `sheet run` (issue 41), end to end: the real bin and bundle against a
// real @grpc/grpc-js server on 127.0.0.1 (test/fixtures/grpc-server.mjs, grpc/demo.proto): the
// four call kinds, metadata both ways, trailers, a non-OK status failing the request while the
// next runs, expect-grpc-status, server reflection, JetBrains handlers' response.body/status,
// a restclient sheet, and each kind of bad input as a located error within a bounded time.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error: a plain ES module fixture
import { PROTO_DIR, startGrpc } from '../fixtures/grpc-server.mjs';

interface Server {
  port: number;
  address: string;
  close(): Promise<void>;
}
interface Result {
  line: number;
  outcome: string;
  status?: number;
  statusText?: string;
  response?: { headers: [string, string][]; body?: string };
  assertions: { name: string; passed: boolean; message: string }[];
  error?: { code: string; message: string; line?: number; hint?: string };
}

let server: Server;
let bare: Server;
let dir: string;

beforeAll(async () => {
  server = await startGrpc();
  bare = await startGrpc({ reflection: false });
  dir = tempDir('grpc-run-');
  fs.cpSync(PROTO_DIR, path.join(dir, 'protos'), { recursive: true });
}, 60000);

afterAll(async () => {
  await server?.close();
  await bare?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Write `text` (ADDR: the server's address) to `name` in the temp dir, run it, read the JSON report. */
async function run(name: string, text: string, extra: string[] = []): Promise<{ code: number; out: string; err: string; results: Result[] }> {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text.replaceAll('ADDR', server.address).replaceAll('BARE', bare.address));
  const report = path.join(dir, `${name}.json`);
  const r = await runSheet(['run', file, '--report', `json:${report}`, ...extra], { cwd: dir, timeoutMs: 30000 });
  const json = JSON.parse(fs.readFileSync(report, 'utf8')) as { files: { results: Result[] }[] };
  return { ...r, results: json.files[0]!.results };
}

const header = (r: Result, name: string) => r.response?.headers.find(([n]) => n === name)?.[1];

describe('sheet run: GRPC requests in a .http file', () => {
  it('makes the four kinds of call from a proto named with a relative path, with metadata and trailers', async () => {
    const r = await run('calls/four.http', `proto < ../protos/demo.proto
includeDirs: ["../protos/include"]

### say
GRPC ADDR/demo.Echo/Say
x-token: abc

{"name": "Ada", "bigNumber": "9007199254740993"}

### count
GRPC grpc://ADDR/demo.Echo/Count

{"upto": 3}

### collect
GRPC ADDR/demo.Echo/Collect

{"name": "a"}
===
{"name": "b"}

### chat
GRPC ADDR/demo.Echo/Chat

{"name": "a"}
=== wait-for-server
{"name": "b"}
`);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const [say, count, collect, chat] = r.results;
    expect(say!.status).toBe(0);
    expect(say!.statusText).toBe('OK');
    expect(JSON.parse(say!.response!.body!)).toEqual({ message: 'hello Ada', seen: ['9007199254740993'] });
    expect(header(say!, 'x-echo-token')).toBe('abc');
    expect(header(say!, 'x-trailer')).toBe('done');
    expect(header(say!, 'grpc-status')).toBe('0');
    expect(JSON.parse(count!.response!.body!)).toEqual([{ message: 'n 1' }, { message: 'n 2' }, { message: 'n 3' }]);
    expect(JSON.parse(collect!.response!.body!)).toEqual({ message: 'got 2', seen: ['a', 'b'] });
    expect(JSON.parse(chat!.response!.body!)).toEqual([{ message: 'echo a' }, { message: 'echo b' }]);
  }, 60000);

  it('fails a request whose status is not OK (exit 1) and runs the next; expect-grpc-status and handlers read the status', async () => {
    const r = await run('status.http', `proto < ./protos/demo.proto
# @grpc-import-path ./protos/include

### fail
GRPC ADDR/demo.Echo/Fail

{"name": "x"}

### expected
GRPC ADDR/demo.Echo/Fail

{"name": "y"}

> {%
  client.test("status", function () { client.assert(response.status === 5, "status " + response.status); });
%}

### after
GRPC ADDR/demo.Echo/Say

{"name": "z"}

> {%
  client.test("message", function () { client.assert(response.body.message === "hello z", JSON.stringify(response.body)); });
%}
`);
    expect(r.code).toBe(1);
    expect(r.results.map((x) => x.outcome)).toEqual(['failed', 'failed', 'passed']);
    expect(r.results[0]!.statusText).toBe('NOT_FOUND: no user x');
    expect(r.results[0]!.assertions[0]!.message).toMatch(/gRPC status NOT_FOUND: no user x/);
    // A handler's test does not replace the status check; expect-grpc-status does (the sheet test below).
    expect(r.results[1]!.assertions.find((a) => a.name !== 'grpc-status')!.passed).toBe(true);
    expect(r.out).toMatch(/✗ NOT_FOUND .*Fail/);
    expect(r.out).toMatch(/✓ OK .*Say/);
  }, 60000);

  it('asks the server by reflection when no proto is named', async () => {
    const r = await run('reflect.http', `GRPC ADDR/demo.Echo/Say

{"name": "by reflection"}
`);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.results[0]!.response!.body!)).toEqual({ message: 'hello by reflection' });
  }, 60000);
});

describe('sheet run: GRPC requests in a restclient sheet', () => {
  it('reads # @grpc-proto, proto-loader options and expect-grpc-status', async () => {
    const r = await run('calls.sheet', `# say
# @grpc-proto ./protos/demo.proto
# @grpc-import-path ./protos/include
GRPC ADDR/demo.Echo/Say
-> expect-grpc-status OK
-> expect-jq .message == "hello Ada"

{"name": "Ada"}
# fail, as expected
proto < ./protos/demo.proto
keepCase: true
includeDirs: ./protos/include
GRPC ADDR/demo.Echo/Fail
-> expect-grpc-status NOT_FOUND

{"name": "x"}
`);
    expect(r.err).toBe('');
    expect(r.results.map((x) => x.outcome)).toEqual(['passed', 'passed']);
    expect(r.results[1]!.assertions.map((a) => a.message)).toEqual([expect.stringMatching(/expect-grpc-status NOT_FOUND: ok/)]);
    expect(r.code).toBe(0);
  }, 60000);
});

describe('bad gRPC input: a located error, nothing hangs', () => {
  const cases: [string, string, string, RegExp, RegExp?][] = [
    ['a proto that does not parse', 'proto < ./protos/broken.proto\n\n###\nGRPC ADDR/demo.Echo/Say\n\n{}\n', 'bad-proto', /broken\.proto, line 6/],
    ['an unknown service', 'proto < ./protos/demo.proto\nincludeDirs: ["./protos/include"]\n\n###\nGRPC ADDR/demo.Nope/Say\n\n{}\n', 'unknown-grpc-method', /no service demo\.Nope/, /demo\.Echo/],
    ['an unknown method', 'proto < ./protos/demo.proto\nincludeDirs: ["./protos/include"]\n\n###\nGRPC ADDR/demo.Echo/Shout\n\n{}\n', 'unknown-grpc-method', /no method Shout/, /Say, Count, Collect, Chat, Fail/],
    ['a field the message does not have', 'proto < ./protos/demo.proto\nincludeDirs: ["./protos/include"]\n\n###\nGRPC ADDR/demo.Echo/Say\n\n{"big_number": "1"}\n', 'bad-grpc-message', /Hello has no field big_number/, /bigNumber/],
    ['a field a nested message does not have', 'proto < ./protos/demo.proto\nincludeDirs: ["./protos/include"]\n\n###\nGRPC ADDR/demo.Echo/Say\n\n{"name": "a",\n "tags": [{"key": "k"}, {"kee": "x"}]}\n', 'bad-grpc-message', /Tag has no field kee \(at tags\[1\]\.kee\)/, /key/],
    ['an unknown service by reflection', 'GRPC ADDR/demo.Nope/Say\n\n{}\n', 'unknown-grpc-method', /no service demo\.Nope/, /demo\.Echo/],
    ['a server without reflection', 'GRPC BARE/demo.Echo/Say\n\n{}\n', 'no-reflection', /offers no reflection/, /proto </],
    ['a server that is down', 'GRPC 127.0.0.1:9/demo.Echo/Say\n\n{}\n', 'connection-refused', /127\.0\.0\.1:9/],
  ];
  it.each(cases)('%s', async (_what, text, code, message, hint) => {
    const started = Date.now();
    const r = await run(`bad-${code}-${Math.random().toString(36).slice(2)}.http`, text);
    expect(Date.now() - started).toBeLessThan(20000);
    expect(r.code).not.toBe(0);
    const e = r.results[0]!.error!;
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.line).toBeGreaterThan(0);
    if (hint) expect(e.hint).toMatch(hint);
  }, 60000);
});
