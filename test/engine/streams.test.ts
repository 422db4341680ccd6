// Streamed responses in the session (issue 40, items 1 and 6): SSE, NDJSON and `# @accept chunked`
// bodies delivered as events while they arrive (the head first), kept for the answer with how the
// stream ended (server closed, cancelled, timed out, connection cut); malformed events shown raw.
// The server (test/fixtures/streams.mjs, 127.0.0.1) writes each event after the first only when
// the test releases it, so "event 1 arrived while the server still waits" is checked by state.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
import { Session } from '../../engine/src/session/session.js';
import { sandboxStarted, stopSandbox } from '../../engine/src/http-file/handler-sandbox.js';
import { EventSplitter, type StreamEvent } from '../../engine/src/present/stream-events.js';
import { StreamSink, MAX_KEPT_EVENTS } from '../../engine/src/session/stream.js';
import type { StreamBatch } from '../../engine/src/session/types.js';
// @ts-expect-error plain ESM fixture without types
import { startStreams } from '../fixtures/streams.mjs';

interface Streams { url: string; release(): number; wrote(path: string, i: number): Promise<void>; close(): Promise<void> }
let srv: Streams;
beforeAll(async () => {
  srv = await startStreams();
});
afterAll(() => srv?.close());

/** Send `GET url` as a sheet; the batches are pushed to `batches` as they come. */
function get(url: string, batches: StreamBatch[], o: { timeoutMs?: number; signal?: AbortSignal; lines?: string } = {}) {
  const s = new Session();
  return s.sendDetailed({ text: `${o.lines ?? ''}GET ${url}\n`, line: (o.lines ?? '').split('\n').length, settings: o.timeoutMs ? { timeoutMs: o.timeoutMs } : {} }, o.signal, { onStream: (b) => batches.push(b) });
}

/** Resolves once `batches` hold `n` events (polled on each turn of the event loop: no fixed sleep). */
async function eventsIn(batches: StreamBatch[], n: number): Promise<void> {
  while (batches.reduce((a, b) => a + b.events.length, 0) < n) await new Promise((r) => setImmediate(r));
}

describe('a streamed response is delivered as it arrives', () => {
  it('gives the head, then SSE event 1 while the server still waits before event 2', async () => {
    const batches: StreamBatch[] = [];
    const done = get(`${srv.url}/sse/gated?n=3`, batches);
    let second = false;
    void srv.wrote('/sse/gated', 2).then(() => (second = true));
    await eventsIn(batches, 1);
    expect(second).toBe(false);
    expect(batches[0]!.head?.status).toBe(200);
    expect(batches.flatMap((b) => b.events)[0]!.text).toBe('id: 1\n{\n  "n": 1\n}');
    srv.release();
    await eventsIn(batches, 2);
    srv.release();
    const { output } = await done;
    expect(output.stream).toMatchObject({ kind: 'sse', events: 3, ended: 'server closed', dropped: 0, malformed: 0 });
    expect(output.presentation.text).toBe('id: 1\n{\n  "n": 1\n}\n\nid: 2\n{\n  "n": 2\n}\n\nid: 3\n{\n  "n": 3\n}\n');
    expect(output.response.status).toBe(200);
  });

  it('splits NDJSON on newlines and keeps a last line that has none', async () => {
    const batches: StreamBatch[] = [];
    const done = get(`${srv.url}/ndjson/gated?n=3`, batches);
    await eventsIn(batches, 1);
    srv.release();
    await eventsIn(batches, 2);
    srv.release();
    const { output } = await done;
    expect(output.stream).toMatchObject({ kind: 'ndjson', events: 3, ended: 'server closed' });
    expect(output.presentation.mode).toBe('json');
    expect(batches.flatMap((b) => b.events).map((e) => e.data)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });

  it('gives the pieces of a chunked body with # @accept chunked', async () => {
    const batches: StreamBatch[] = [];
    const done = get(`${srv.url}/chunks/gated?n=2`, batches, { lines: '# @accept chunked\n' });
    await eventsIn(batches, 1);
    expect(batches.flatMap((b) => b.events)[0]!.text).toBe('piece 1\n');
    srv.release();
    const { output } = await done;
    expect(output.stream).toMatchObject({ kind: 'chunks', events: 2 });
  });

  it('keeps only the SSE event types an Event: header names, and does not send that header', async () => {
    const { output } = await get(`${srv.url}/sse/named`, []);
    expect(output.stream?.events).toBe(3);
    const s = new Session();
    const filtered = await s.send({ text: `GET ${srv.url}/sse/named\nEvent: a\n`, line: 1 });
    expect(filtered.stream?.events).toBe(2);
    expect(filtered.presentation.text).toBe('event: a\n1\n\nevent: a\n3\n');
    expect(filtered.request.headers.some(([n]) => n.toLowerCase() === 'event')).toBe(false);
  });
});

describe('how a stream ends (faults)', () => {
  it('a stall ended by the timeout keeps the event that came and says so', async () => {
    const t0 = performance.now();
    const { output } = await get(`${srv.url}/sse/stall`, [], { timeoutMs: 400 });
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(output.stream).toMatchObject({ events: 1, ended: 'timed out' });
    expect(output.presentation.text).toContain('"n": 1');
  });

  it('a cancel after event 1 keeps it', async () => {
    const ctrl = new AbortController();
    const batches: StreamBatch[] = [];
    const done = get(`${srv.url}/sse/gated?n=3`, batches, { signal: ctrl.signal });
    await eventsIn(batches, 1);
    ctrl.abort();
    const { output } = await done;
    expect(output.stream).toMatchObject({ events: 1, ended: 'cancelled' });
  });

  it('shows a malformed event raw and goes on', async () => {
    const { output } = await get(`${srv.url}/sse/malformed`, []);
    expect(output.stream).toMatchObject({ events: 3, malformed: 1, ended: 'server closed' });
    expect(output.presentation.text).toBe('{\n  "n": 1\n}\n\nthis line is not SSE\n\n{\n  "n": 2\n}\n');
  });

  it('a connection closed in the middle of an event keeps what came, the half event raw', async () => {
    const { output } = await get(`${srv.url}/sse/cut`, []);
    expect(output.stream).toMatchObject({ events: 2, malformed: 1, ended: 'connection cut' });
    expect(output.presentation.text).toContain('data: {"n":2,"par');
  });
});

describe('cutting events', () => {
  const split = (kind: 'sse' | 'ndjson', pieces: string[]) => {
    const out: StreamEvent[] = [];
    const s = new EventSplitter(kind, { onEvent: (e) => out.push(e) });
    for (const p of pieces) s.feed(p);
    s.end();
    return out;
  };
  it('reads multi-line data, comments, CRLF and retry, split anywhere', () => {
    const text = ': comment\r\nretry: 10\r\nevent: up\r\ndata: a\r\ndata: b\r\n\r\ndata: c\n\n';
    for (let cut = 0; cut < text.length; cut++) {
      const es = split('sse', [text.slice(0, cut), text.slice(cut)]);
      expect(es.map((e) => [e.event, e.data])).toEqual([['up', 'a\nb'], [undefined, 'c']]);
    }
  });
  it('marks an NDJSON line that is not JSON', () => {
    expect(split('ndjson', ['{"a":1}\nnope\n']).map((e) => !!e.malformed)).toEqual([false, true]);
  });
  it('keeps at most MAX_KEPT_EVENTS events, counting the dropped ones', async () => {
    const sink = new StreamSink({ url: 'http://x/', status: 200, statusText: 'OK', headers: [], httpVersion: '1.1' }, { kind: 'ndjson', started: 0 });
    const line = '{"n":1}\n';
    await new Promise<void>((r) => sink.end(Buffer.from(line.repeat(MAX_KEPT_EVENTS + 5)), r));
    expect(sink.count).toBe(MAX_KEPT_EVENTS + 5);
    expect(sink.kept.length).toBe(MAX_KEPT_EVENTS);
    expect(sink.dropped).toBe(5);
  });
});

describe('feeding the handlers', () => {
  it('hands the events that came while a feed was in flight to the handlers in one feed, in order', async () => {
    const feeds: string[][] = [];
    let release: () => void = () => undefined;
    let fed: () => void = () => undefined;
    const first = new Promise<void>((r) => (release = r));
    const firstFed = new Promise<void>((r) => (fed = r));
    const live = {
      feed: async (items: { line: string; json: boolean }[]) => {
        feeds.push(items.map((i) => i.line));
        fed();
        if (feeds.length === 1) await first;
        return false;
      },
      stop: () => undefined,
    };
    const sink = new StreamSink({ url: 'http://x/', status: 200, statusText: 'OK', headers: [], httpVersion: '1.1' }, { kind: 'ndjson', started: 0, live });
    sink.write(Buffer.from('{"n":1}\n'));
    sink.write(Buffer.from('{"n":2}\n'));
    sink.write(Buffer.from('{"n":3}\n'));
    await firstFed;
    expect(feeds).toEqual([['{"n":1}']]);
    release();
    await new Promise<void>((r) => sink.end(r));
    expect(feeds).toEqual([['{"n":1}'], ['{"n":2}', '{"n":3}']]);
  });
});

describe("httpyac's SSE request line", () => {
  it('SSE URL and EVENTSOURCE URL send a GET asking for text/event-stream and read the body as events', async () => {
    for (const word of ['SSE', 'EVENTSOURCE']) {
      const s = new Session();
      const out = await s.send({ text: `${word} ${srv.url}/sse/malformed\n`, line: 1, path: '/tmp/stream-test.http' });
      expect(out.request.method).toBe('GET');
      expect(out.request.headers).toContainEqual(['Accept', 'text/event-stream']);
      expect(out.stream).toMatchObject({ kind: 'sse', events: 3 });
    }
  });
});

describe("JetBrains' streaming handler API (response.body.onEachMessage / onEachLine)", () => {
  it('feeds each message parsed as it arrives, and unsubscribe() ends the request early', async () => {
    const s = new Session();
    const text = [
      `GET ${srv.url}/sse/gated?n=5`,
      '',
      '> {%',
      '  let seen = 0;',
      '  response.body.onEachMessage((message, unsubscribe, output) => {',
      '    seen++;',
      "    output('got ' + message.n);",
      "    client.test('message ' + message.n, () => client.assert(message.n === seen, 'out of order'));",
      '    if (message.n === 2) unsubscribe();',
      '  });',
      '%}',
      '',
    ].join('\n');
    const batches: StreamBatch[] = [];
    const done = s.sendDetailed({ text, line: 1, path: '/tmp/stream-handlers.http' }, undefined, { onStream: (b) => batches.push(b) });
    await eventsIn(batches, 1);
    srv.release();
    const { output } = await done;
    expect(output.stream).toMatchObject({ events: 2, ended: 'unsubscribed by a handler' });
    expect(output.logs).toEqual(['got 1', 'got 2']);
    expect(output.hooks.assertions.map((a) => [a.args, a.passed])).toEqual([['message 1', true], ['message 2', true]]);
  });

  it('starts the handlers\' sandbox while the request is in flight, before the response head', async () => {
    await stopSandbox();
    let answer: (res: http.ServerResponse) => void = () => undefined;
    const arrived = new Promise<http.ServerResponse>((r) => (answer = r));
    const held = http.createServer((_req, res) => answer(res));
    await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(held.address() as { port: number }).port}/held`;
      const text = `GET ${url}\n\n> {%\n  response.body.onEachMessage((m) => client.global.set('got', m.n));\n%}\n`;
      const sent = new Session().send({ text, line: 1, path: '/tmp/stream-warm.http' });
      const res = await arrived;
      // The server holds the head: only the request's start can have started the worker.
      expect(sandboxStarted()).toBe(true);
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end('data: {"n":1}\n\n');
      const out = await sent;
      expect(out.hooks.setVars).toContainEqual({ name: ':got', value: '1' });
    } finally {
      held.closeAllConnections();
      await new Promise((r) => held.close(r));
    }
  });

  it('onFinish, the second argument, runs when the stream has ended: a test over all the events', async () => {
    const text = [
      `GET ${srv.url}/sse/named`,
      '',
      '> {%',
      '  const seen = [];',
      '  response.body.onEachLine((line) => seen.push(line), () => {',
      '    client.test("three events", () => client.assert(seen.length === 3, "saw " + seen.length));',
      '    client.test("four events", () => client.assert(seen.length === 4, "saw " + seen.length));',
      '  });',
      '%}',
      '',
    ].join('\n');
    const out = await new Session().send({ text, line: 1, path: '/tmp/stream-finish.http' });
    expect(out.stream).toMatchObject({ events: 3, ended: 'server closed' });
    expect(out.hooks.assertions.map((a) => [a.args, a.passed, a.message])).toEqual([
      ['three events', true, expect.any(String)],
      ['four events', false, expect.stringContaining('saw 3')],
    ]);
  });

  it('onEachLine gets each NDJSON line as text; a handler keeps client.global values', async () => {
    const s = new Session();
    const text = [
      `GET ${srv.url}/ndjson/gated?n=2`,
      '',
      '> {%',
      "  let lines = [];",
      '  response.body.onEachLine((line) => { lines.push(line); client.global.set("lines", lines.join("|")); });',
      '%}',
      '',
    ].join('\n');
    const batches: StreamBatch[] = [];
    const done = s.sendDetailed({ text, line: 1, path: '/tmp/stream-lines.http' }, undefined, { onStream: (b) => batches.push(b) });
    await eventsIn(batches, 1);
    srv.release();
    const { output } = await done;
    expect(output.stream).toMatchObject({ events: 2, ended: 'server closed' });
    expect(s.overrides.get(':lines') ?? s.overrides.get('lines')).toBe('{"n":1}|{"n":2}');
  });
});

describe('stream assertions (expect-events, expect-event)', () => {
  it('count the events and match one with jq; a response that is no stream fails them', async () => {
    const s = new Session();
    const text = `GET ${srv.url}/sse/malformed\n-> expect-events >= 3\n-> expect-events < 3\n-> expect-event .n == 2\n-> expect-event '.n == 9'\n`;
    const out = await s.send({ text, line: 1 });
    expect(out.hooks.assertions.map((a) => a.passed)).toEqual([true, false, true, false]);
    expect(out.hooks.assertions[0]!.message).toContain('ok (3 events, server closed)');
    expect(out.hooks.assertions[3]!.message).toContain('none of 3 events');
    const plain = await s.send({ text: `GET ${srv.url}/release\n-> expect-events >= 1\n`, line: 1 });
    expect(plain.hooks.assertions[0]!.passed).toBe(false);
    expect(plain.hooks.assertions[0]!.message).toContain('no stream');
  });
});

describe('sheet run on streams', () => {
  it('--timeout ends an endless stream, its events pass expect-events, and the JSON and HTML reports say how it ended', async () => {
    const dir = tempDir('stream-run-');
    fs.writeFileSync(path.join(dir, 's.sheet'), `GET ${srv.url}/sse/stall\n-> expect-events >= 1\n-> expect-event .n == 1\n`);
    const run = await runSheet(['run', '--timeout', '0.5', 's.sheet', '--report', 'json:r.json', '--report', 'html:r.html'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^ {4}stream: 1 event, timed out after \d/m);
    const r = JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8')).files[0].results[0];
    expect(r.stream).toMatchObject({ kind: 'sse', events: 1, ended: 'timed out' });
    expect(r.response.body).toBe('{\n  "n": 1\n}\n');
    expect(fs.readFileSync(path.join(dir, 'r.html'), 'utf8')).toContain('stream: 1 event, timed out after');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
