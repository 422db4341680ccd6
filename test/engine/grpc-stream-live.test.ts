// A gRPC server stream through `sheet run` as it arrives (issue 41, item 2): JetBrains' handlers
// get each message through `response.body.onEachMessage` while the server still holds the next
// one back (test/fixtures/grpc-server.mjs gates Count with the x-gate metadata: message 2 only
// when the test releases it), `unsubscribe()` cancels the call (no failure: it was asked for),
// and `-> expect-events` / `-> expect-event` read the messages as a stream's events.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error: a plain ES module fixture
import { PROTO_DIR, startGrpc } from '../fixtures/grpc-server.mjs';

interface Server {
  address: string;
  release(): number;
  events: NodeJS.EventEmitter;
  close(): Promise<void>;
}
interface Result {
  outcome: string;
  status?: number;
  statusText?: string;
  logs?: string[];
  stream?: { events: number; ended: string; summary: string };
  assertions: { name: string; passed: boolean; message: string }[];
}

let server: Server;
let dir: string;

beforeAll(async () => {
  server = await startGrpc();
  dir = tempDir('grpc-live-');
  fs.cpSync(PROTO_DIR, path.join(dir, 'protos'), { recursive: true });
}, 60000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Run `text` (ADDR: the server) as `name`; the run, its report's results. */
async function run(name: string, text: string, whileRunning?: () => Promise<void>): Promise<{ code: number; out: string; err: string; results: Result[] }> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text.replaceAll('ADDR', server.address));
  const report = path.join(dir, `${name}.json`);
  // --timeout: a stream that is not live waits for a release that never comes; the deadline ends it.
  const running = runSheet(['run', file, '--timeout', '10', '--report', `json:${report}`], { cwd: dir, timeoutMs: 30000 });
  await whileRunning?.();
  const r = await running;
  const json = JSON.parse(fs.readFileSync(report, 'utf8')) as { files: { results: Result[] }[] };
  return { ...r, results: json.files[0]!.results };
}

describe('sheet run: a gRPC server stream as it arrives', () => {
  it('feeds onEachMessage while the server holds the next message back; unsubscribe() cancels the call', async () => {
    const r = await run('live.http', `proto < ./protos/demo.proto
includeDirs: ./protos/include

GRPC ADDR/demo.Echo/Count
x-gate: 1

{"upto": 5}

> {%
  response.body.onEachMessage((msg, unsubscribe) => {
    client.log("got " + msg.message);
    if (msg.message === "n 2") unsubscribe();
  });
%}
`, async () => {
      // Message 1 was sent and the server waits before message 2: release it, once.
      await once(server.events, 'waiting');
      expect(server.release()).toBe(1);
    });
    expect(r.err).toBe('');
    const [x] = r.results;
    expect(x!.logs).toEqual(['got n 1', 'got n 2']);
    expect(x!.stream).toMatchObject({ events: 2, ended: 'unsubscribed by a handler' });
    expect(x!.stream!.summary).toMatch(/^stream: 2 messages, unsubscribed by a handler after/);
    expect([x!.status, x!.statusText]).toEqual([1, 'CANCELLED: Cancelled on client']);
    expect(x!.outcome).toBe('passed');
    expect(r.code).toBe(0);
  }, 60000);

  it('checks -> expect-events and -> expect-event on the messages of a sheet', async () => {
    const r = await run('count.sheet', `# @grpc-proto ./protos/demo.proto
# @grpc-import-path ./protos/include
GRPC ADDR/demo.Echo/Count
-> expect-events == 3
-> expect-event .message == "n 2"
-> expect-event .message == "n 9"

{"upto": 3}
`);
    const [x] = r.results;
    expect(x!.assertions.map((a) => [a.name, a.passed])).toEqual([['expect-events', true], ['expect-event', true], ['expect-event', false]]);
    expect(x!.assertions[2]!.message).toMatch(/none of 3 events/);
    expect(x!.stream!.summary).toMatch(/^stream: 3 messages, server closed after/);
    expect(r.code).toBe(1);
  }, 60000);
});
