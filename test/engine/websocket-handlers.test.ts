// A WebSocket request's `.http` handlers run live (issue 40), through the session against a
// real `ws` server on 127.0.0.1 (test/fixtures/ws-server.mjs): JetBrains'
// `response.body.onEachMessage((message, unsubscribe, output) => ...)` is fed each message while
// the socket is open, `unsubscribe()` closes it with 1000 at once (the server sees the close),
// `output(text)` sends a message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
// @ts-expect-error plain JavaScript fixture
import { startWsServer } from '../fixtures/ws-server.mjs';

type Close = { path: string; code: number; reason: string; received: string[] };
let server: { wsUrl: string; closeOf(path: string): Promise<Close>; close(): Promise<void> };
beforeAll(async () => {
  server = await startWsServer();
});
afterAll(() => server.close());

const lines = (...l: string[]) => l.join('\n');
const sendHttp = (s: Session, text: string) => s.send({ text, line: 1, path: '/tmp/ws-handlers.http', settings: {} });

describe('a WebSocket request\'s handlers, live', () => {
  it('unsubscribe() after 3 messages closes with 1000 at once, while the server still had 97 to send', async () => {
    const t0 = Date.now();
    const out = await sendHttp(new Session(), lines(
      `WEBSOCKET ${server.wsUrl}/push`,
      '',
      'push 100 50',
      '',
      '> {%',
      '  let n = 0;',
      '  response.body.onEachMessage((message, unsubscribe) => {',
      '    n++;',
      '    if (n === 3) unsubscribe();',
      '  }, () => client.global.set("n", String(n)));',
      '%}',
    ));
    // 100 messages 50 ms apart take 5 s; the request ends after the third (hello, push 1, push 2).
    expect(Date.now() - t0).toBeLessThan(2500);
    const w = out.websocket!;
    expect(w.ended).toBe('unsubscribed');
    expect(w.close).toMatchObject({ code: 1000, by: 'client' });
    expect(w.messages.filter((m) => m.direction === 'received').length).toBeLessThan(6);
    expect(out.hooks.setVars).toContainEqual({ name: ':n', value: '3' });
    expect(out.hooks.assertions.filter((a) => !a.passed)).toEqual([]);
    const seen = await server.closeOf('/push');
    expect(seen.code).toBe(1000);
  });

  it('output(text) sends a message while the socket is open; JSON values go as JSON', async () => {
    const out = await sendHttp(new Session(), lines(
      `WS ${server.wsUrl}/echo`,
      '',
      'start',
      '',
      '> {%',
      '  response.body.onEachMessage((message, unsubscribe, output) => {',
      '    if (message === "start") output("ping");',
      '    else if (message === "ping") output({ step: 2 });',
      '    else if (message.step === 2) unsubscribe();',
      '  });',
      '%}',
    ));
    const w = out.websocket!;
    expect(w.messages.map((m) => `${m.direction === 'sent' ? '>' : '<'} ${m.text}`)).toEqual([
      '> start', '< start', '> ping', '< ping', '> {"step":2}', '< {"step":2}',
    ]);
    expect(w.ended).toBe('unsubscribed');
    expect(out.hooks.assertions.filter((a) => !a.passed)).toEqual([]);
  });
});
