// A streamed response's Set-Cookie is kept however the stream ends (issue 40): the cookie jar
// takes a response's cookies when its head arrives, as curl and browsers do, so a stream cut by
// the timeout or a cancel still logs the session in for the next request. Server: a plain Node
// server on 127.0.0.1 that sets a cookie, sends one SSE event and never ends the body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
import type { StreamBatch } from '../../engine/src/session/types.js';

let server: http.Server;
let base: string;
const open = new Set<http.ServerResponse>();
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/events')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'set-cookie': `sid=${req.url.split('=')[1]}; Path=/` });
      res.write('data: 1\n\n');
      open.add(res);
      res.on('close', () => open.delete(res));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(req.headers.cookie ?? '(none)');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((r) => server.close(r));
});

/** The next request's Cookie header, as the server saw it. */
async function cookieSent(s: Session): Promise<string> {
  const { output } = await s.sendDetailed({ text: `GET ${base}/check\n`, line: 1, settings: {} });
  return output.presentation.text;
}

describe("a stream's Set-Cookie is kept however it ends", () => {
  it('ended by the timeout', async () => {
    const s = new Session();
    const { output } = await s.sendDetailed({ text: `GET ${base}/events?sid=t1\n`, line: 1, settings: { timeoutMs: 300 } }, undefined, { onStream: () => {} });
    expect(output.stream).toMatchObject({ events: 1, ended: expect.stringMatching(/timed out/) });
    expect(await cookieSent(s)).toBe('sid=t1');
  });

  it('ended by a cancel after its first event', async () => {
    const s = new Session();
    const ctrl = new AbortController();
    const batches: StreamBatch[] = [];
    const done = s.sendDetailed({ text: `GET ${base}/events?sid=c1\n`, line: 1, settings: {} }, ctrl.signal, {
      onStream: (b) => {
        batches.push(b);
        if (b.events.length) ctrl.abort();
      },
    });
    const { output } = await done;
    expect(output.stream).toMatchObject({ events: 1, ended: 'cancelled' });
    expect(await cookieSent(s)).toBe('sid=c1');
  });
});
