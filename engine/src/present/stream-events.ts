/**
 * A response body that arrives over time, cut into events as it comes (issue 40): Server-Sent
 * Events (`text/event-stream`, the WHATWG HTML standard's "Server-sent events" section, parsed
 * by `eventsource-parser`: multi-line `data:`, `event:`, `id:`, `retry:`, comments, CRLF),
 * newline-delimited JSON (`application/x-ndjson`, `application/jsonl`: one value a line, a last
 * line without its newline included), or any other chunked body read with kulala's `# @accept
 * chunked` (each piece as it came). Each event carries the text a person reads: its data,
 * pretty-printed when it is JSON (`json.ts`), else as received (a malformed event is shown raw
 * and the stream goes on). Pure: text in, events out; the session (`session/stream.ts`) feeds it.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { prettyJson } from './json.js';
import { parseContentType } from './present.js';

/** How a streamed body is cut: SSE events, NDJSON lines, or the pieces as they arrived. */
export type StreamKind = 'sse' | 'ndjson' | 'chunks';

/** One event of a stream, in arrival order. */
export interface StreamEvent {
  /** 1-based number of the event in its stream (the events a filter skipped are not counted). */
  n: number;
  /** The event's data: SSE's `data:` lines joined by `\n`, an NDJSON line, or a piece. */
  data: string;
  /** SSE's `event:` field, when the server named the event type. */
  event?: string;
  /** SSE's `id:` field, when given. */
  id?: string;
  /** Not what the format allows (a line SSE does not know, an NDJSON line that is not JSON, an event cut by the end of the stream): `data` is the raw text. */
  malformed?: string;
  /** What a person reads: `event:`/`id:` lines when present, then the data, JSON re-indented. */
  text: string;
}

/**
 * The stream kind of a response, from its `Content-Type` (`text/event-stream` -> `sse`;
 * `application/x-ndjson`, `application/ndjson`, `application/jsonl`, `application/x-jsonlines`
 * -> `ndjson`), else `chunks` when the request said `# @accept chunked` (kulala), else
 * `undefined` (an ordinary body). `forced` is the request line's (httpyac's `SSE URL`).
 */
export function streamKindFor(contentType: string | undefined, acceptChunked: boolean, forced?: StreamKind): StreamKind | undefined {
  const { type } = parseContentType(contentType);
  if (type === 'text/event-stream') return 'sse';
  if (NDJSON_TYPES.has(type)) return 'ndjson';
  if (forced) return forced;
  return acceptChunked ? 'chunks' : undefined;
}

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/json-seq']);

/** What an {@link EventSplitter} is told besides its kind. */
export interface SplitterOptions {
  /** Called for each event, in order. */
  onEvent: (e: StreamEvent) => void;
  /** SSE only: keep the events of these types (httpyac's `Event:` header; an event without `event:` is `message`); absent: all. */
  eventTypes?: string[];
  /** Longest event kept whole, in characters (default 1 MiB): past it, the event is cut there and marked malformed. */
  maxEventChars?: number;
}

/** Default longest event, in characters: 1 MiB. */
export const MAX_EVENT_CHARS = 1024 * 1024;

/**
 * Cuts a stream's text into {@link StreamEvent}s as it is fed (chunks of any size, split
 * anywhere); `end()` gives what was left: an SSE event or NDJSON line the stream closed in the
 * middle of (as a malformed event: "close mid-event").
 */
export class EventSplitter {
  private n = 0;
  private pending = ''; // SSE: the lines since the last event; NDJSON: the line so far
  private sse?: EventSourceParser;
  private readonly max: number;
  private readonly types?: Set<string>;

  constructor(
    readonly kind: StreamKind,
    private readonly o: SplitterOptions,
  ) {
    this.max = o.maxEventChars ?? MAX_EVENT_CHARS;
    this.types = o.eventTypes?.length ? new Set(o.eventTypes) : undefined;
    if (kind === 'sse') {
      this.sse = createParser({
        onEvent: (e) => {
          this.pending = '';
          if (this.types && !this.types.has(e.event ?? 'message')) return;
          this.emit({ data: e.data, ...(e.event !== undefined ? { event: e.event } : {}), ...(e.id !== undefined ? { id: e.id } : {}) });
        },
        onError: (err) => {
          // A line SSE does not know (no colon and not a field): shown raw, the stream goes on.
          if (err.type === 'unknown-field') this.emit({ data: err.line ?? err.field ?? '', malformed: `not an SSE line: ${err.message}` });
        },
      });
    }
  }

  /** Feed the next piece of text (already decoded). */
  feed(text: string): void {
    if (this.kind === 'chunks') {
      if (text) this.emit({ data: text });
      return;
    }
    if (this.kind === 'ndjson') {
      let start = 0;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
        this.line(this.pending + text.slice(start, i));
        this.pending = '';
        start = i + 1;
      }
      this.pending += text.slice(start);
      if (this.pending.length > this.max) this.cutPending('longer than the longest event kept');
      return;
    }
    // SSE: fed line by line, so that what an event has gathered so far is known at the end.
    let start = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
      const piece = text.slice(start, i + 1);
      this.pending += piece;
      this.sse!.feed(piece);
      start = i + 1;
    }
    const rest = text.slice(start);
    if (rest) {
      this.pending += rest;
      this.sse!.feed(rest);
    }
    if (this.pending.length > this.max) {
      this.cutPending('longer than the longest event kept');
      this.sse!.reset();
    }
  }

  /** The stream ended: an unfinished event or line is given as it is (NDJSON's last line without newline is a whole line). */
  end(): void {
    if (this.kind === 'ndjson') {
      if (this.pending.trim()) this.line(this.pending);
      this.pending = '';
    } else if (this.kind === 'sse' && this.pending.trim()) {
      this.cutPending('the stream ended in the middle of this event');
    }
  }

  /** Events given so far. */
  get count(): number {
    return this.n;
  }

  private line(raw: string): void {
    const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!l.trim()) return;
    let malformed: string | undefined;
    try {
      JSON.parse(l);
    } catch (e) {
      malformed = `not JSON: ${(e as Error).message}`;
    }
    this.emit({ data: l, ...(malformed ? { malformed } : {}) });
  }

  private cutPending(why: string): void {
    const raw = this.pending.slice(0, this.max);
    this.pending = '';
    this.emit({ data: raw.replace(/\r?\n$/, ''), malformed: why });
  }

  private emit(e: Omit<StreamEvent, 'n' | 'text'>): void {
    this.n += 1;
    this.o.onEvent({ ...e, n: this.n, text: eventText(e) });
  }
}

/** What a person reads for one event (see {@link StreamEvent.text}). */
export function eventText(e: Pick<StreamEvent, 'data' | 'event' | 'id' | 'malformed'>): string {
  const head = [e.event !== undefined ? `event: ${e.event}` : '', e.id !== undefined ? `id: ${e.id}` : ''].filter(Boolean).join('\n');
  const body = e.malformed ? e.data : (prettyJson(e.data) ?? e.data);
  return head ? `${head}\n${body}` : body;
}
