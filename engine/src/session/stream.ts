/**
 * A streamed response (issue 40) as the session receives it: the body's bytes, as they arrive,
 * cut into events (`../present/stream-events.ts`), handed to the caller in batches (sheet-mode's
 * `sheet/streamEvents` notifications, `sheet run`'s handlers) and kept for the answer, bounded:
 * the newest {@link MAX_KEPT_EVENTS} events up to {@link MAX_KEPT_CHARS} characters, the older
 * ones counted as dropped. How the stream ended (the server closed it, the caller cancelled, the
 * request's timeout, the connection cut) is the session's to say (`StreamInfo.ended`).
 */
import { Writable } from 'node:stream';
import { EventSplitter, streamKindFor, type StreamEvent, type StreamKind } from '../present/stream-events.js';
import { parseContentType, type Presentation } from '../present/present.js';
import { bodyTooLarge, MAX_BUFFERED_BODY } from '../http/send.js';
import { headerValue, type Exchange, type Request } from '../model.js';
import { isEngineError } from '../errors.js';
import type { SinkHead } from './exchange.js';
import type { StreamItem } from '../http-file/handlers.js';

/** Most events an answer keeps (the newest). */
export const MAX_KEPT_EVENTS = 10000;
/** Most characters of event text an answer keeps (the newest events'): 8 Mi. */
export const MAX_KEPT_CHARS = 8 * 1024 * 1024;

/** Most events in one batch: a fast stream goes out in several (a client parses each batch at once). */
export const MAX_BATCH_EVENTS = 200;
/** Most characters of event text in one batch (one event longer than that goes alone). */
export const MAX_BATCH_CHARS = 32 * 1024;

/** Events handed to a caller at once: those that arrived since the last batch. */
export interface StreamBatch {
  /** The response head, in the first batch only (before any event: status and headers first). */
  head?: { method: string; url: string; status: number; statusText: string; headers: [string, string][]; httpVersion: string };
  events: StreamEvent[];
  /** Events so far, these included. */
  count: number;
  /** Since the request started, in ms. */
  elapsedMs: number;
}

/** What the caller gives a {@link StreamSink}. */
export interface StreamSinkOptions {
  kind: StreamKind;
  /** SSE event types to keep (httpyac's `Event:` header). */
  eventTypes?: string[];
  /** Called with each batch; a batch goes out once the chunks that arrived together are cut (one `setImmediate`). */
  onBatch?: (b: StreamBatch) => void;
  /** `performance.now()` when the request started. */
  started: number;
  /** The request's method, for the head of the first batch (the URL is the head's). */
  method?: string;
  /** The `.http` handlers listening (`onEachLine` / `onEachMessage`): fed each write's events before the next write (back-pressure); `stop()` when they unsubscribed. */
  live?: { feed(events: StreamItem[]): Promise<boolean>; stop(): void };
}

/**
 * The sink of a streamed body: a `Writable` of the decoded body bytes (UTF-8, as SSE is by
 * definition and NDJSON by RFC 8259), never holding more than the bounded events and one
 * unfinished event.
 */
export class StreamSink extends Writable {
  readonly kept: StreamEvent[] = [];
  dropped = 0;
  private chars = 0;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly splitter: EventSplitter;
  private batch: StreamEvent[] = [];
  private batchChars = 0;
  private scheduled = false;
  private headSent = false;

  readonly kind: StreamKind;

  constructor(
    readonly head: SinkHead,
    private readonly o: StreamSinkOptions,
  ) {
    super();
    this.kind = o.kind;
    this.splitter = new EventSplitter(o.kind, { onEvent: (e) => this.take(e), ...(o.eventTypes ? { eventTypes: o.eventTypes } : {}) });
    // Status and headers first, before the first byte of the body.
    this.schedule();
  }

  /** Events seen so far (the dropped ones included). */
  get count(): number {
    return this.splitter.count;
  }

  /** Events the splitter marked malformed, among the kept ones. */
  get malformed(): number {
    return this.kept.filter((e) => e.malformed).length;
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.splitter.feed(this.decoder.decode(chunk, { stream: true }));
    this.schedule();
    this.toHandlers().then(() => cb(), cb);
  }

  /**
   * The chunks that arrived while the handlers were busy (a feed in flight, their sandbox still
   * starting) go to them in one feed, not one round trip to the worker each: a backlog clears
   * at once.
   */
  override _writev(chunks: { chunk: Buffer }[], cb: (e?: Error | null) => void): void {
    for (const { chunk } of chunks) this.splitter.feed(this.decoder.decode(chunk, { stream: true }));
    this.schedule();
    this.toHandlers().then(() => cb(), cb);
  }

  override _final(cb: (e?: Error | null) => void): void {
    this.close();
    this.handled.then(() => cb(), cb);
  }

  /** The body ended (or was cut): what is left becomes the last event, and the last batch goes out now. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.splitter.feed(this.decoder.decode());
    this.splitter.end();
    this.flush();
    void this.toHandlers();
  }

  /** Resolves when the handlers have seen every event given to them. */
  handled: Promise<void> = Promise.resolve();
  private ended = false;
  private forHandlers: StreamEvent[] = [];

  /** Hand the events since the last call to the `.http` handlers (in order, one feed at a time). */
  private toHandlers(): Promise<void> {
    const live = this.o.live;
    if (!live || !this.forHandlers.length) return this.handled;
    const events = this.forHandlers.splice(0).map((e): StreamItem => ({ line: e.data, json: !e.malformed }));
    this.handled = this.handled.then(async () => {
      if (await live.feed(events)) live.stop();
    });
    return this.handled;
  }

  /** The kept events' texts, each followed by an empty line. */
  text(): string {
    return this.kept.map((e) => `${e.text}\n`).join('\n');
  }

  private take(e: StreamEvent): void {
    this.kept.push(e);
    this.chars += e.text.length;
    while (this.kept.length > 1 && (this.kept.length > MAX_KEPT_EVENTS || this.chars > MAX_KEPT_CHARS)) {
      this.chars -= this.kept.shift()!.text.length;
      this.dropped += 1;
    }
    if (this.o.onBatch) {
      this.batch.push(e);
      this.batchChars += e.text.length;
      // A client parses each batch at once (Emacs's jsonrpc.el: one JSON message): none gets big.
      if (this.batch.length >= MAX_BATCH_EVENTS || this.batchChars >= MAX_BATCH_CHARS) this.flush();
    }
    if (this.o.live) this.forHandlers.push(e);
  }

  private schedule(): void {
    if (this.scheduled || !this.o.onBatch) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (!this.o.onBatch || (this.headSent && !this.batch.length)) return;
    const events = this.batch;
    this.batch = [];
    this.batchChars = 0;
    const h = this.head;
    this.o.onBatch({
      ...(this.headSent ? {} : { head: { method: this.o.method ?? 'GET', url: h.url, status: h.status, statusText: h.statusText, headers: h.headers, httpVersion: h.httpVersion } }),
      events,
      count: this.count,
      elapsedMs: Math.round(performance.now() - this.o.started),
    });
    this.headSent = true;
  }
}

/** How a stream ended, as the answer says it (docs/http-files.md, "Streams"). */
export type StreamEnd = 'server closed' | 'cancelled' | 'timed out' | 'connection cut' | 'unsubscribed by a handler';

/** A streamed response in the answer (`SendOutput.stream`). */
export interface StreamInfo {
  kind: StreamKind;
  /** Events received (the filtered-out SSE types not counted). */
  events: number;
  /** The oldest events not kept in the answer (past {@link MAX_KEPT_EVENTS} / {@link MAX_KEPT_CHARS}). */
  dropped: number;
  /** Kept events shown raw because they were malformed. */
  malformed: number;
  ended: StreamEnd;
  /** From the start of the request to the end of the stream, in ms. */
  elapsedMs: number;
  /** All of it in words, for a trailer or a report (`streamSummary`). */
  summary: string;
}

/** What a request says about streaming, read before it is sent. */
export interface StreamRequest {
  /** kulala's `# @accept chunked`: any chunked body delivered piece by piece. */
  acceptChunked: boolean;
  /** The request line's kind: httpyac's `SSE URL` / `EVENTSOURCE URL`. */
  forced?: StreamKind;
  /** httpyac's `Event:` header: the SSE event types to keep (comma-separated, the header repeatable). */
  eventTypes?: string[];
}

/**
 * What `node` (a parsed request: its directives, its `stream` from the request line) and its
 * resolved headers say about streaming; the `Event:` header is a filter for the client, so it
 * is taken out of the request (httpyac reads it so too).
 */
export function streamRequestOf(node: { directives?: { name: string; value: string }[]; stream?: StreamKind }, headers: [string, string][]): { stream: StreamRequest; headers: [string, string][] } {
  const acceptChunked = !!node.directives?.some((d) => d.name === 'accept' && d.value.trim().toLowerCase() === 'chunked');
  const kept = headers.filter(([n]) => n.toLowerCase() !== 'event');
  const types = headers.filter(([n]) => n.toLowerCase() === 'event').flatMap(([, v]) => v.split(',').map((t) => t.trim()).filter(Boolean));
  // An SSE request line asks for the event stream, as an EventSource does (WHATWG HTML, 9.2).
  if (node.stream === 'sse' && !kept.some(([n]) => n.toLowerCase() === 'accept')) kept.push(['Accept', 'text/event-stream']);
  return { stream: { acceptChunked, ...(node.stream ? { forced: node.stream } : {}), ...(types.length ? { eventTypes: types } : {}) }, headers: node.stream || types.length ? kept : headers };
}

/** How an exchange error ends a stream that had begun, or undefined when the error is the request's (nothing received). */
export function streamEndOf(code: string | undefined): StreamEnd | undefined {
  if (code === 'timeout') return 'timed out';
  if (code === 'cancelled') return 'cancelled';
  if (code === 'network-error') return 'connection cut';
  return undefined;
}

/**
 * The sink of a body that is not a stream, when the caller gave none (the body collected in
 * memory, at most `max` bytes, as `send` collects it: `network-error` past it).
 */
export class CollectSink extends Writable {
  private held: Buffer[] = [];
  private size = 0;
  constructor(
    private readonly max: number,
    private readonly url: string,
  ) {
    super();
  }
  override _write(c: Buffer, _e: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.size += c.length;
    if (this.size > this.max) {
      cb(bodyTooLarge(this.url, this.max));
      return;
    }
    this.held.push(c);
    cb();
  }
  /** The body collected. */
  body(): Buffer {
    return Buffer.concat(this.held);
  }
}

/**
 * One request's choice of sink (`exchange.ts`'s `Sink`): a {@link StreamSink} when the head
 * says the body is a stream (`streamKindFor`), else the caller's `fallback` (the spill sink),
 * else a {@link CollectSink}; and what the exchange becomes when the stream ends, by the
 * server or by an error after the head (a timeout, a cancel, a cut: the events are kept).
 */
export class StreamChoice {
  stream: StreamSink | undefined;
  private sent: Request | undefined;
  private collect: CollectSink | undefined;
  readonly started = performance.now();

  /** The `.http` handlers opened for the stream (`openLive`), closed by the session's `afterHttp`. */
  live: LiveFeed | undefined;
  private unsubscribed = false;
  /** Aborts the exchange: given to `send` instead of the caller's signal, which it follows. */
  readonly abort = new AbortController();

  constructor(
    private readonly req: StreamRequest,
    private readonly fallback: ((head: SinkHead) => Writable) | undefined,
    private readonly onBatch?: (b: StreamBatch) => void,
    /** Opens the request's `.http` handlers when the response is a stream (session/http-file.ts, `openStreamHandlers`). */
    private readonly openLive?: (head: SinkHead, sent: Request) => Promise<LiveFeed | undefined>,
    signal?: AbortSignal,
  ) {
    if (signal?.aborted) this.abort.abort();
    else signal?.addEventListener('abort', () => this.abort.abort(), { once: true });
  }

  /** The sink for `exchange()`. */
  readonly sink = async (head: SinkHead, sent: Request): Promise<Writable> => {
    this.sent = sent;
    const kind = streamKindFor(headerValue(head.headers, 'content-type'), this.req.acceptChunked, this.req.forced);
    if (kind) {
      this.live = await this.openLive?.(head, sent);
      const live = this.live && { feed: this.live.feed, stop: () => ((this.unsubscribed = true), this.abort.abort()) };
      return (this.stream = new StreamSink(head, { kind, started: this.started, method: sent.method, ...(live ? { live } : {}), ...(this.req.eventTypes ? { eventTypes: this.req.eventTypes } : {}), ...(this.onBatch ? { onBatch: this.onBatch } : {}) }));
    }
    if (this.fallback) return this.fallback(head);
    return (this.collect = new CollectSink(MAX_BUFFERED_BODY, head.url));
  };

  /** The exchange of a stream an error ended after its head (undefined: the error stands). */
  recover(e: unknown): { exchange: Exchange; ended: StreamEnd } | undefined {
    const ended = this.stream && isEngineError(e) ? (this.unsubscribed && e.code === 'cancelled' ? 'unsubscribed by a handler' : streamEndOf(e.code)) : undefined;
    if (!ended || !this.stream || !this.sent) return undefined;
    const h = this.stream.head;
    this.stream.close();
    return { ended, exchange: { request: this.sent, response: { httpVersion: h.httpVersion, status: h.status, statusText: h.statusText, headers: h.headers, body: new Uint8Array(0) }, redirects: [], durationMs: performance.now() - this.started } };
  }

  /** The exchange with the body it collected (a stream's: its kept events' text), and the stream's summary. */
  finish(ex: Exchange, ended: StreamEnd = 'server closed'): { exchange: Exchange; info?: StreamInfo } {
    if (this.collect) return { exchange: { ...ex, response: { ...ex.response, body: this.collect.body() } } };
    const info = this.info(ended);
    if (!info) return { exchange: ex };
    return { exchange: { ...ex, response: { ...ex.response, body: Buffer.from(this.stream!.text(), 'utf8') } }, info };
  }

  /** The stream's summary once it ended (undefined: the body was no stream); the exchange's body left as it is (a gRPC call's messages: grpc.ts). */
  info(ended: StreamEnd = 'server closed', unit?: 'message'): StreamInfo | undefined {
    const s = this.stream;
    if (!s) return undefined;
    const facts = { kind: s.kind, events: s.count, dropped: s.dropped, malformed: s.malformed, ended, elapsedMs: Math.round(performance.now() - this.started) };
    return { ...facts, summary: streamSummary(facts, unit) };
  }

  /** Whether the `.http` handlers unsubscribed (and so ended the request). */
  get unsubscribedByHandler(): boolean {
    return this.unsubscribed;
  }
}

/** What the `.http` handlers of a stream are to the stream (session/http-file.ts's `LiveHandlers`). */
export interface LiveFeed {
  feed(events: StreamItem[]): Promise<boolean>;
}

/** A stream's presentation: its kept events' text (`StreamSink.text`), JSON mode for NDJSON. */
export function streamPresentation(info: StreamInfo, text: string, contentType: string | undefined, threshold: number | null): Presentation {
  return { kind: 'text', text, contentType: parseContentType(contentType).type, charset: 'utf-8', mode: info.kind === 'ndjson' ? 'json' : 'text', formatted: true, overThreshold: threshold !== null && text.length > threshold, bytes: Buffer.byteLength(text) };
}

/** The line the trailer and reports give a stream: `stream: 12 events, server closed after 3.2 s` (a gRPC call's: `12 messages`). */
export function streamSummary(info: Omit<StreamInfo, 'summary'>, unit: 'event' | 'message' = 'event'): string {
  const extra = [info.dropped ? `the first ${info.dropped} not kept` : '', info.malformed ? `${info.malformed} malformed, shown raw` : ''].filter(Boolean).join('; ');
  return `stream: ${info.events} ${unit}${info.events === 1 ? '' : 's'}, ${info.ended} after ${(info.elapsedMs / 1000).toFixed(1)} s${extra ? ` (${extra})` : ''}`;
}
