// `sheet grpc list|describe ADDRESS [SERVICE]` (issue 41 item 6): grpcurl's verbs over server
// reflection against a real @grpc/grpc-js server on 127.0.0.1 (test/fixtures/grpc-server.mjs);
// a server without reflection, one that is down and a usage error each say so with their exit
// status. The real bin and bundle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error: a plain ES module fixture
import { startGrpc } from '../fixtures/grpc-server.mjs';

interface Server {
  address: string;
  close(): Promise<void>;
}
let server: Server;
let bare: Server;
let dir: string;

beforeAll(async () => {
  server = await startGrpc();
  bare = await startGrpc({ reflection: false });
  dir = tempDir('grpc-explore-');
}, 60000);

afterAll(async () => {
  await server?.close();
  await bare?.close();
});

const sheet = (args: string[]) => runSheet(['grpc', ...args], { cwd: dir, timeoutMs: 30000 });

describe('sheet grpc', () => {
  it('lists the services, then the methods of one', async () => {
    const services = await sheet(['list', server.address]);
    expect(services.code).toBe(0);
    expect(services.out.split('\n')).toContain('demo.Echo');
    const methods = await sheet(['list', `grpc://${server.address}`, 'demo.Echo']);
    expect(methods.out.trim().split('\n')).toEqual(['Say', 'Count', 'Collect', 'Chat', 'Fail', 'Hang'].map((m) => `demo.Echo.${m}`));
  }, 60000);

  it('describes a service as proto text, with its message types and streams', async () => {
    const r = await sheet(['describe', server.address, 'demo.Echo']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('service Echo {\n  rpc Say ( .demo.Hello ) returns ( .demo.Reply );\n  rpc Count ( .demo.CountRequest ) returns ( stream .demo.Reply );\n  rpc Collect ( stream .demo.Hello ) returns ( .demo.Reply );\n  rpc Chat ( stream .demo.Hello ) returns ( stream .demo.Reply );');
  }, 60000);

  it('says what went wrong: no reflection, an unknown service, a server that is down, a usage error', async () => {
    const none = await sheet(['list', bare.address]);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/offers no reflection/);
    const unknown = await sheet(['describe', server.address, 'demo.Nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/no service demo\.Nope[\s\S]*demo\.Echo/);
    const down = await sheet(['list', '127.0.0.1:9']);
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/nothing listens on 127\.0\.0\.1:9/);
    const usage = await sheet(['show', server.address]);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/unknown subcommand show[\s\S]*Usage: sheet grpc list\|describe/);
  }, 60000);
});
