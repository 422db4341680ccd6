// GraphQL over WebSocket (issue 40): a `GRAPHQL ws://...` request (or X-REQUEST-TYPE: GraphQL to
// a ws:// URL) speaks the graphql-transport-ws subprotocol, through the session against the
// `graphql-ws` library's own server on 127.0.0.1 (test/fixtures/ws-server.mjs `/graphql`):
// connection_init, subscribe with the query and variables, each `next` result an event of the
// response, complete; the server's errors fail the request; handlers get the results live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Session } from '../../engine/src/session/session.js';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error plain JavaScript fixture
import { startWsServer } from '../fixtures/ws-server.mjs';

let server: { wsUrl: string; close(): Promise<void> };
beforeAll(async () => {
  server = await startWsServer();
});
afterAll(() => server.close());

const lines = (...l: string[]) => l.join('\n');
const sendHttp = (text: string, file = '/tmp/ws-graphql.http') => new Session().send({ text, line: 1, path: file, settings: {} });
const protocolTypes = (ms: { direction: string; text: string }[]) => ms.map((m) => `${m.direction === 'sent' ? '>' : '<'} ${JSON.parse(m.text).type}`);

describe('GraphQL over WebSocket (graphql-transport-ws)', () => {
  it('GRAPHQL ws://: a subscription\'s results are the events, until the server completes it', async () => {
    const out = await sendHttp(lines(`GRAPHQL ${server.wsUrl}/graphql`, '', 'subscription { countdown(from: 2) }'));
    expect(out.response.status).toBe(101);
    expect(out.response.headers).toContainEqual([expect.stringMatching(/^sec-websocket-protocol$/i), 'graphql-transport-ws']);
    const w = out.websocket!;
    expect(protocolTypes(w.messages)).toEqual(['> connection_init', '< connection_ack', '> subscribe', '< next', '< next', '< next', '< complete']);
    expect(JSON.parse(w.messages[2]!.text)).toEqual({ id: '1', type: 'subscribe', payload: { query: 'subscription { countdown(from: 2) }' } });
    expect(w.ended).toBe('completed');
    expect(w.close).toMatchObject({ code: 1000, by: 'client' });
    expect(out.presentation.text).toBe('{"data":{"countdown":2}}\n{"data":{"countdown":1}}\n{"data":{"countdown":0}}');
    expect(out.hooks.assertions.filter((a) => !a.passed)).toEqual([]);
  });

  it('X-REQUEST-TYPE: GraphQL to a ws:// URL sends the operation name and variables', async () => {
    const out = await sendHttp(lines(
      `POST ${server.wsUrl}/graphql`,
      'X-REQUEST-TYPE: GraphQL',
      '',
      'subscription Count($n: Int!) { countdown(from: $n) }',
      '',
      '{"n": 1}',
    ));
    const sub = JSON.parse(out.websocket!.messages[2]!.text);
    expect(sub.payload).toEqual({ query: 'subscription Count($n: Int!) { countdown(from: $n) }', operationName: 'Count', variables: { n: 1 } });
    expect(out.presentation.text).toBe('{"data":{"countdown":1}}\n{"data":{"countdown":0}}');
    expect(out.request.method).toBe('GET');
  });

  it('a sheet\'s # @graphql request to a ws:// URL is the same', async () => {
    const out = await new Session().send({ text: lines('# @graphql', `POST ${server.wsUrl}/graphql`, '', 'query { hello }', ''), line: 2, settings: {} });
    expect(out.websocket!.ended).toBe('completed');
    expect(out.presentation.text).toBe('{"data":{"hello":"world"}}');
  });

  it('a query the server rejects fails the request with the server\'s message', async () => {
    const out = await sendHttp(lines(`GRAPHQL ${server.wsUrl}/graphql`, '', 'subscription { nosuch }'));
    expect(out.websocket!.ended).toBe('completed');
    const failed = out.hooks.assertions.filter((a) => !a.passed);
    expect(failed).toEqual([expect.objectContaining({ name: 'graphql', line: 1, message: expect.stringMatching(/GraphQL over WebSocket: the server answered with errors: .*nosuch/) })]);
  });

  it('handlers get each result live; unsubscribe() ends a long subscription at once', async () => {
    const t0 = Date.now();
    const out = await sendHttp(lines(
      `GRAPHQL ${server.wsUrl}/graphql`,
      '',
      'subscription { countdown(from: 100, every: 50) }',
      '',
      '> {%',
      '  const seen = [];',
      '  response.body.onEachMessage((message, unsubscribe) => {',
      '    seen.push(message.data.countdown);',
      '    if (seen.length === 2) unsubscribe();',
      '  }, () => client.global.set("seen", seen.join(",")));',
      '%}',
    ));
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(out.websocket!.ended).toBe('unsubscribed');
    expect(out.hooks.setVars).toContainEqual({ name: ':seen', value: '100,99' });
  });
});

describe('sheet run names a GraphQL request over WebSocket as written', () => {
  it('GRAPHQL ws://... in its progress line, not the POST of GraphQL over HTTP', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'g.http'), lines(`GRAPHQL ${server.wsUrl}/graphql`, '', 'subscription { countdown(from: 1) }', ''));
    const run = await runSheet(['run', 'g.http'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.out).toContain("101 GRAPHQL /graphql (g.http:1)");
    expect(run.out).not.toContain("POST");
  });
});
