// WebSocket requests through the session (issue 40): Session.send on a `.http` file and on a
// sheet against a real `ws` server on 127.0.0.1 (test/fixtures/ws-server.mjs): messages both
// ways in order with times, `=== wait-for-server`, the close code and reason, a refused
// handshake as an HTTP response, cookies in the handshake, the message size cap, the timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
// @ts-expect-error plain JavaScript fixture
import { startWsServer } from '../fixtures/ws-server.mjs';

let server: { wsUrl: string; url: string; close(): Promise<void> };
beforeAll(async () => {
  server = await startWsServer();
});
afterAll(() => server.close());

const lines = (...l: string[]) => l.join('\n');
const sendHttp = (s: Session, text: string, settings = {}) => s.send({ text, line: 1, path: '/tmp/ws-test.http', settings });

describe('a WebSocket request through the session', () => {
  it('sends the messages in order, waits for the server, and collects both ways with times', async () => {
    const s = new Session();
    const out = await sendHttp(s, lines(
      `WEBSOCKET ${server.wsUrl}/push`,
      '',
      'push 2',
      '=== wait-for-server',
      '=== wait-for-server',
      '=== wait-for-server',
      'push 1',
    ));
    expect(out.response.status).toBe(101);
    const w = out.websocket!;
    expect(w.messages.map((m) => `${m.direction === 'sent' ? '>' : '<'} ${m.text}`)).toEqual([
      '< hello', '> push 2', '< push 1', '< push 2', '> push 1', '< push 1',
    ]);
    expect(w.messages.find((m) => m.direction === 'sent')).toMatchObject({ line: 3 });
    const times = w.messages.map((m) => m.atMs);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(w.close).toMatchObject({ code: 1000, by: 'client' });
    expect(w.ended).toBe('quiet');
    expect(out.presentation.text).toBe('hello\npush 1\npush 2\npush 1');
    expect(out.hooks.assertions.filter((a) => !a.passed)).toEqual([]);
  });

  it('reads a sheet WS line and sends its messages after ===', async () => {
    const out = await new Session().send({ text: lines(`:base = ${server.wsUrl}`, '#', 'WS :base/echo', '', 'one', '===', 'two'), line: 3 });
    expect(out.websocket!.messages.filter((m) => m.direction === 'received').map((m) => m.text)).toEqual(['one', 'two']);
  });

  it('shows a close code other than 1000 with its reason, as a failed check', async () => {
    const out = await sendHttp(new Session(), lines(`WS ${server.wsUrl}/close4001`, '', 'subscribe secret'));
    expect(out.websocket!.close).toMatchObject({ code: 4001, reason: 'topic not allowed', by: 'server' });
    expect(out.websocket!.ended).toBe('server-closed');
    expect(out.hooks.assertions).toEqual([expect.objectContaining({ passed: false, line: 1, message: expect.stringContaining('closed with 4001 (topic not allowed)') })]);
  });

  it('shows a refused handshake as the HTTP response it is', async () => {
    const out = await sendHttp(new Session(), `WEBSOCKET ${server.wsUrl}/refuse`);
    expect(out.response.status).toBe(401);
    expect(out.response.headers).toContainEqual(['WWW-Authenticate', 'Bearer']);
    expect(out.presentation.text).toBe('no token\n');
    expect(out.websocket!.ended).toBe('refused');
    expect(out.hooks.assertions[0]).toMatchObject({ passed: false, message: expect.stringContaining('refused the WebSocket handshake: 401 Unauthorized') });
  });

  it('sends the cookie jar in the handshake and keeps the Set-Cookie of the 101', async () => {
    const s = new Session();
    const first = await sendHttp(s, `WS ${server.wsUrl}/cookie`);
    expect(first.websocket!.messages[0]!.text).toBe('none');
    const second = await sendHttp(s, `WS ${server.wsUrl}/cookie`);
    expect(second.websocket!.messages[0]!.text).toBe('ws=1');
  });

  it('closes with 1009 on a message over the size cap, and says so', async () => {
    const out = await sendHttp(new Session(), `WS ${server.wsUrl}/big?bytes=${17 * 1024 * 1024}`);
    expect(out.websocket!.close).toMatchObject({ code: 1009, by: 'client' });
    expect(out.websocket!.close!.reason).toMatch(/over 16777216 bytes/);
    expect(out.hooks.assertions[0]).toMatchObject({ passed: false });
  });

  it('ends a wait nobody answers at the timeout, naming the line', async () => {
    const t0 = Date.now();
    const out = await sendHttp(new Session(), lines(`WS ${server.wsUrl}/silent`, '', 'anyone?', '=== wait-for-server', 'never sent'), { timeoutMs: 600 });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(out.websocket!.ended).toBe('timeout');
    expect(out.websocket!.messages.map((m) => m.text)).toEqual(['anyone?']);
    expect(out.hooks.assertions).toEqual([expect.objectContaining({ passed: false, line: 4, name: 'wait-for-server' })]);
  });

  it('hands the received messages to a response handler\'s onEachMessage, JSON parsed, until unsubscribe', async () => {
    const s = new Session();
    const out = await sendHttp(s, lines(
      `WEBSOCKET ${server.wsUrl}/echo`,
      '',
      '{"n": 1}',
      '===',
      '{"n": 2}',
      '===',
      'plain',
      '',
      '> {%',
      '  const seen = [];',
      '  response.body.onEachMessage((message, unsubscribe, output) => {',
      '    seen.push(typeof message === "object" ? message.n : message);',
      '    if (seen.length === 2) unsubscribe();',
      '  }, () => {',
      '    client.global.set("seen", seen.join(","));',
      '    client.test("two messages", () => client.assert(seen.length === 2, "saw " + seen.length));',
      '  });',
      '%}',
    ));
    expect(out.hooks.assertions.filter((a) => !a.passed)).toEqual([]);
    expect(out.hooks.setVars).toContainEqual({ name: ':seen', value: '1,2' });
  });

  it('a cancel ends the session at once, keeping what was sent and received', async () => {
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 300);
    const out = await new Session().send({ text: lines(`WS ${server.wsUrl}/push`, '', 'push 1', '=== wait-for-server', '=== wait-for-server', '=== wait-for-server', 'not sent'), line: 1, path: '/tmp/ws-test.http' }, ac.signal);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(out.websocket!.ended).toBe('cancelled');
    expect(out.websocket!.messages.map((m) => m.text)).toEqual(['hello', 'push 1', 'push 1']);
  });

  it('a refused connection is a located error with curl\'s exit code', async () => {
    await expect(sendHttp(new Session(), 'WS ws://127.0.0.1:1/x')).rejects.toMatchObject({ code: 'connection-refused', details: { curlExit: 7 } });
  });
});
