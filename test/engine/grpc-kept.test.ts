// What gRPC calls keep from one call to the next (issue 41's benchmark): server reflection's
// answer per channel while it stays connected (grpc/reflection-cache.ts), the loaded protos per
// file and options until a file changes (grpc/protos.ts). Each case checks that the kept thing
// is used and that it is let go when it must be: a server started again in the same place
// without reflection, a proto edited between two calls. Real @grpc/grpc-js servers on 127.0.0.1
// (test/fixtures/grpc-server.mjs), through `sheet run` and through grpcCall in this process.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
import { clientFor, closeGrpcClients, grpcCall, grpcJs, type GrpcCallInput } from '../../engine/src/grpc/call.js';
import { grpcTarget } from '../../engine/src/grpc/target.js';
// @ts-expect-error: a plain ES module fixture
import { PROTO_DIR, startGrpc } from '../fixtures/grpc-server.mjs';
import type { EventEmitter } from 'node:events';

interface Server {
  port: number;
  address: string;
  events: EventEmitter;
  close(): Promise<void>;
}

const REFLECTION = /ServerReflection\/ServerReflectionInfo$/;
let dir: string;
const servers: Server[] = [];

beforeAll(() => {
  dir = tempDir('grpc-kept-');
  fs.cpSync(PROTO_DIR, path.join(dir, 'protos'), { recursive: true });
});

afterEach(async () => {
  closeGrpcClients();
  for (const s of servers.splice(0)) await s.close();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function start(o: { reflection?: boolean; port?: number } = {}): Promise<Server> {
  const s = (await startGrpc(o)) as Server;
  servers.push(s);
  return s;
}

/** How many calls of each kind `s` gets from now on. */
function counted(s: Server): { reflection: number; say: number } {
  const n = { reflection: 0, say: 0 };
  s.events.on('call', (p: string) => {
    if (REFLECTION.test(p)) n.reflection++;
    if (p === '/demo.Echo/Say') n.say++;
  });
  return n;
}

const say = (address: string, name: string, o: Partial<GrpcCallInput> = {}): GrpcCallInput => ({
  url: `http://${address}/demo.Echo/Say`,
  line: 1,
  metadata: [],
  steps: [{ kind: 'send', text: JSON.stringify({ name }), line: 3 }],
  protos: [],
  importPaths: [],
  options: [],
  baseDir: dir,
  timeoutMs: 10000,
  ...o,
});

describe('server reflection kept per channel', () => {
  it('asks the server once for a run of calls that name no proto', async () => {
    const s = await start();
    const n = counted(s);
    const calls = [1, 2, 3, 4].map((i) => `### ${i}\nGRPC ${s.address}/demo.Echo/Say\n\n{"name": "n${i}"}\n`).join('\n');
    fs.writeFileSync(path.join(dir, 'refl.http'), calls);
    const r = await runSheet(['run', 'refl.http'], { cwd: dir, timeoutMs: 30000 });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('4 of 4 requests');
    expect(n).toEqual({ reflection: 1, say: 4 });
  });

  it('asks again once the channel left READY: a server started again in its place without reflection is no-reflection', async () => {
    const first = await start();
    const r1 = await grpcCall(say(first.address, 'a'));
    expect(r1.code).toBe(0);
    expect(r1.messages).toEqual([{ message: 'hello a' }]);
    // Kept: a second call on the same channel asks nothing.
    const n = counted(first);
    expect((await grpcCall(say(first.address, 'b'))).code).toBe(0);
    expect(n).toEqual({ reflection: 0, say: 1 });
    // The server goes; the channel says so (an event, not a sleep).
    const grpc = await grpcJs();
    const channel = clientFor(grpc, { url: say(first.address, '').url }, grpcTarget(say(first.address, '').url)).getChannel();
    const left = new Promise<void>((resolve) => channel.watchConnectivityState(grpc.connectivityState.READY, Infinity, () => resolve()));
    await first.close();
    await left;
    const again = await start({ reflection: false, port: first.port });
    await expect(grpcCall(say(again.address, 'c'))).rejects.toMatchObject({ code: 'no-reflection', line: 1 });
  });
});

describe('loaded protos kept per file and options', () => {
  it('reads a proto again when it changed between two calls', async () => {
    const s = await start();
    const proto = path.join(dir, 'protos', 'edited.proto');
    const text = fs.readFileSync(path.join(dir, 'protos', 'demo.proto'), 'utf8');
    fs.writeFileSync(proto, text);
    const o = { protos: [{ file: './protos/edited.proto', line: 1 }], options: [{ name: 'includeDirs', value: '["./protos/include"]', line: 2 }] };
    expect((await grpcCall(say(s.address, 'a', o))).code).toBe(0);
    // The same size and a later time: only the times say it changed.
    fs.writeFileSync(proto, text.replace('rpc Say (', 'rpc Sax ('));
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(proto, later, later);
    await expect(grpcCall(say(s.address, 'b', o))).rejects.toMatchObject({ code: 'unknown-grpc-method', message: expect.stringContaining('service demo.Echo has no method Say') });
  });
});
