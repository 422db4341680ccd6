/**
 * A WebSocket request's exchange (issue 40), beside exchange.ts's HTTP one: the cookie jar read
 * into the handshake and its Set-Cookie saved (RFC 6455 section 4.1: the handshake is an HTTP
 * request, cookies included), the connection opened with the request's connection settings
 * (../ws/connect.ts), its message script run (../ws/script.ts), and the outcome as an
 * {@link Exchange} the rest of the pipeline reads as any: the handshake's status and headers
 * (101, or the refusal's 401/426... with its body), and as the body the received messages, one
 * per line (websocat's convention), so hooks and the presentation work unchanged. The `.http`
 * handlers are fed the received messages while the socket is open (`handlers`, as a stream's
 * events: JetBrains' live `onEachMessage`).
 */
import type { Exchange, Request } from '../model.js';
import type { SendOptions } from '../http/send.js';
import { splitStreamMessages } from '../sheet/stream-messages.js';
import { openWebSocket, type WsClose, type WsConnection, type WsMessage } from '../ws/connect.js';
import { runScript, type StreamStep, type WsEnd } from '../ws/script.js';
import { readBodyFile } from '../resolve/body-parts.js';
import { expandPath } from '../resolve/resolve.js';
import { GRAPHQL_WS_PROTOCOL, graphQlMessage, runGraphQl } from '../ws/graphql.js';
import type { ExchangeJar } from './jar.js';
import type { Assertion } from '../hooks/results.js';
import type { StreamItem } from '../http-file/handlers.js';

/** What a WebSocket request did, for the answer and the reports (`SendOutput.websocket`). */
export interface WebSocketRecord {
  /** The `ws://`/`wss://` URL. */
  url: string;
  /** Every message both ways in order, with ms since the handshake. */
  messages: WsMessage[];
  /** The close (absent when the handshake was refused). */
  close?: WsClose;
  /** Why it ended; `refused`: the server answered the handshake with no 101. */
  ended: WsEnd | 'refused';
  /** Lines of `=== wait-for-server` no server message answered. */
  unanswered: number[];
  /** A GraphQL request over WebSocket (../ws/graphql.ts): how many results (`next`) came, what went wrong. */
  graphql?: { results: number; errors: string[] };
}

/** How the WebSocket request goes out: `send`'s connection options, the jar. */
export interface WebSocketExchangeOptions {
  send: Pick<SendOptions, 'insecure' | 'proxy' | 'trust' | 'clientCert' | 'unixSocket' | 'signal' | 'timeoutMs' | 'connectTimeoutMs'>;
  jar?: ExchangeJar;
  /** False: no cookies sent or stored (`# @no-cookie-jar`). */
  sendCookies?: boolean;
  /** Quiet period after the script, ms (../ws/script.ts `QUIET_MS` by default). */
  quietMs?: number;
  /** The sheet line of the body's first line, for the lines of the messages and waits. */
  bodyLine?: number;
  /** The directory `< path` messages are relative to (the sheet's or `.http` file's). */
  baseDir?: string;
  /** Each received message as it arrives (a live front end). */
  onMessage?: (m: WsMessage) => void;
  /**
   * Opens the request's `.http` handlers once the handshake succeeded (http-file.ts
   * `openStreamHandlers`): `output` sends a text message. They are fed each received message
   * as it arrives; when `feed` resolves true (they unsubscribed) we close with 1000 at once.
   */
  handlers?: (handshake: Exchange['response'], output: (text: string) => void) => Promise<LiveFeed | undefined>;
}

/** Handlers fed the received messages (`{line: text, json}`: parsed in the sandbox unless binary); true: they unsubscribed. */
export interface LiveFeed {
  feed(events: StreamItem[]): Promise<boolean>;
}

/**
 * Feed `c`'s received messages to `live` as they arrive, in order, one feed at a time (the
 * messages that came during a feed go together in the next); their unsubscribe closes `c`
 * with 1000 at once. `done()` resolves when every message received so far has been fed.
 */
function feedHandlers(c: WsConnection, live: LiveFeed, graphql: boolean): { unsubscribed(): boolean; done(): Promise<void> } {
  let queue: StreamItem[] = [];
  let chain = Promise.resolve();
  let stopped = false;
  const pump = () => {
    chain = chain.then(async () => {
      if (stopped || !queue.length) return;
      const events = queue;
      queue = [];
      if (await live.feed(events)) {
        stopped = true;
        c.close(1000, '');
      }
    });
  };
  c.onMessage((m) => {
    if (stopped) return;
    if (graphql) {
      // GraphQL over WebSocket: the handlers get the results (`next` payloads), not the protocol.
      const g = graphQlMessage(m);
      if (g?.type !== 'next') return;
      queue.push({ line: JSON.stringify(g.payload), json: true });
    } else queue.push({ line: m.text, json: !m.binary });
    pump();
  });
  return { unsubscribed: () => stopped, done: () => chain };
}

/**
 * The request's messages: its body split by `===` lines (../sheet/stream-messages.ts), each
 * one-line `< path` message read (relative to `o.baseDir`) to go as a binary message, as httpyac
 * and JetBrains send a file; a body that is a file as a whole (`< ./frame.bin`) is one binary message.
 * @throws EngineError `file-unreadable` naming the message's line.
 */
async function messageSteps(request: Request, o: WebSocketExchangeOptions): Promise<StreamStep[]> {
  const line = o.bodyLine ?? 1;
  if (request.body?.kind === 'bytes') return [{ kind: 'send', text: '', line, bytes: request.body.bytes }];
  const text = request.body?.kind === 'text' ? request.body.text : '';
  const out: StreamStep[] = [];
  for (const s of splitStreamMessages(text, line)) {
    if (s.kind === 'send' && s.file) out.push({ ...s, bytes: await readBodyFile(expandPath(s.file, o.baseDir ?? process.cwd()), s.line) });
    else out.push(s);
  }
  return out;
}

/** The received messages as the response body: one per line. */
export function receivedText(messages: WsMessage[]): string {
  return messages.filter((m) => m.direction === 'received').map((m) => m.text).join('\n');
}

/** The handshake with the jar's Cookie, its Set-Cookie kept: what both ways of sending share. */
async function openWithJar(request: Request, o: WebSocketExchangeOptions, protocols?: string[]) {
  const jarWarning = o.jar ? await o.jar.beforeSend() : null;
  const cookies = o.jar && o.sendCookies !== false ? await o.jar.jar.getCookieString(request.url) : '';
  const sent: Request = cookies && !request.headers.some(([n]) => /^cookie$/i.test(n)) ? { ...request, headers: [...request.headers, ['Cookie', cookies]] } : request;
  const opened = await openWebSocket(sent, {
    insecure: o.send.insecure,
    proxy: o.send.proxy,
    trust: o.send.trust,
    clientCert: o.send.clientCert,
    unixSocket: o.send.unixSocket,
    signal: o.send.signal,
    ...(protocols ? { protocols } : {}),
    ...(o.send.connectTimeoutMs ? { handshakeTimeoutMs: o.send.connectTimeoutMs } : {}),
  });
  const handshake = opened.kind === 'open' ? opened.connection.handshake : opened.response;
  if (o.jar && o.sendCookies !== false) {
    for (const [n, v] of handshake.headers) if (/^set-cookie$/i.test(n)) await o.jar.jar.setCookie(v, request.url, { ignoreError: true });
  }
  const saved = o.jar ? await o.jar.afterSend() : null;
  if (opened.kind === 'open' && o.onMessage) opened.connection.onMessage(o.onMessage);
  return { sent, opened, handshake, jarWarning: jarWarning ?? saved };
}

/**
 * Send the WebSocket `request` (its body the message script) and collect what happened.
 * @throws EngineError from ../ws/connect.ts (transport failures with curl's exit codes).
 */
export async function websocketExchange(request: Request, o: WebSocketExchangeOptions): Promise<{ exchange: Exchange; jarWarning: string | null; websocket: WebSocketRecord }> {
  const started = Date.now();
  const bodyText = request.body?.kind === 'text' ? request.body.text : request.body ? new TextDecoder().decode(request.body.bytes) : '';
  // Files are read before the handshake: one that cannot be read is the request's error, at its line.
  const steps = request.graphql ? [] : await messageSteps(request, o);
  const { sent, opened, handshake, jarWarning } = await openWithJar(request, o, request.graphql ? [GRAPHQL_WS_PROTOCOL] : undefined);
  let websocket: WebSocketRecord;
  let results: unknown[] | undefined;
  if (opened.kind === 'refused') {
    websocket = { url: opened.url, messages: [], ended: 'refused', unanswered: [] };
  } else {
    const c = opened.connection;
    const live = await o.handlers?.(handshake, (text) => c.send(text));
    const fed = live && feedHandlers(c, live, !!request.graphql);
    const g = request.graphql ? await runGraphQl(c, bodyText, { timeoutMs: o.send.timeoutMs, signal: o.send.signal }) : undefined;
    const r = g ? { ...g, unanswered: [] } : await runScript(c, steps, { timeoutMs: o.send.timeoutMs, quietMs: o.quietMs, signal: o.send.signal });
    await fed?.done();
    websocket = { url: c.url, messages: c.messages, close: r.close!, ended: fed?.unsubscribed() && !o.send.signal?.aborted ? 'unsubscribed' : r.ended, unanswered: r.unanswered, ...(g ? { graphql: { results: g.results.length, errors: g.errors } } : {}) };
    results = g?.results;
  }
  // The body: the received messages one per line; a GraphQL operation's results, one per line.
  const body = opened.kind === 'refused' ? handshake.body : new TextEncoder().encode(results ? results.map((x) => JSON.stringify(x)).join('\n') : receivedText(websocket.messages));
  return {
    exchange: { request: sent, response: { ...handshake, body }, redirects: [], durationMs: Date.now() - started },
    jarWarning,
    websocket,
  };
}

/**
 * What makes a WebSocket request fail, as failed assertions on its request line (a run counts
 * them as any assertion; sheet-mode shows them in the trailer): a refused handshake, a close by
 * the server with a code other than 1000 (normal) or 1001 (going away), a message over the
 * size cap (1009), a `=== wait-for-server` no message answered.
 */
export function websocketFailures(w: WebSocketRecord, handshake: { status: number; statusText: string }, line: number): Assertion[] {
  const fail = (name: string, message: string, at = line): Assertion => ({ line: at, name, args: '', passed: false, message: `line ${at}: ${message}` });
  const out: Assertion[] = [];
  if (w.ended === 'refused') out.push(fail('websocket', `the server refused the WebSocket handshake: ${handshake.status} ${handshake.statusText}`.trim()));
  const c = w.close;
  if (c && c.code !== 1000 && c.code !== 1001 && (c.by === 'server' || c.code === 1009)) out.push(fail('websocket', `the connection was closed with ${c.code}${c.reason ? ` (${c.reason})` : ''}`));
  for (const at of w.unanswered) out.push(fail('wait-for-server', 'no message from the server answered this === wait-for-server', at));
  for (const e of w.graphql?.errors ?? []) out.push(fail('graphql', `GraphQL over WebSocket: ${e}`));
  return out;
}

/**
 * A WebSocket session fed from lines as they come (the shell's `WS`, websocat's convention):
 * each line of `lines` sent as a text message (a `Uint8Array` as a binary one: `WS --binary`), each received message to `onMessage` as it
 * arrives; when `lines` ends, the quiet period (../ws/script.ts) and our close with 1000; the
 * server's close ends it at once. The jar as {@link websocketExchange}.
 * @throws EngineError from ../ws/connect.ts.
 */
export async function websocketLive(request: Request, lines: AsyncIterable<string | Uint8Array>, o: WebSocketExchangeOptions): Promise<{ handshake: Exchange['response']; websocket: WebSocketRecord; jarWarning: string | null }> {
  const started = Date.now();
  const { opened, handshake, jarWarning } = await openWithJar(request, o);
  if (opened.kind === 'refused') return { handshake, websocket: { url: opened.url, messages: [], ended: 'refused', unanswered: [] }, jarWarning };
  const c = opened.connection;
  let closed = false;
  void c.closed.then(() => (closed = true));
  const timeoutMs = o.send.timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const deadline = timeoutMs ? new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))) : new Promise<void>(() => undefined);
  const pump = (async () => {
    for await (const line of lines) {
      if (closed) break;
      if (typeof line === 'string') c.send(line);
      else c.sendBinary(line);
    }
  })();
  await Promise.race([pump, c.closed, deadline]);
  clearTimeout(timer);
  const left = timeoutMs ? Math.max(1, timeoutMs - (Date.now() - started)) : undefined;
  const r = await runScript(c, [], { ...(left !== undefined ? { timeoutMs: left } : {}), quietMs: o.quietMs, signal: o.send.signal });
  return { handshake, websocket: { url: c.url, messages: c.messages, close: r.close, ended: r.ended, unanswered: [] }, jarWarning };
}

/** An editor's open WebSocket session (`ws/open`): the connection, left open after its script. */
export interface OpenWebSocket {
  url: string;
  handshake: Exchange['response'];
  /** Absent when the server refused the handshake (`handshake` is then its answer). */
  connection?: WsConnection;
}

/**
 * Open the WebSocket `request` for an editor's session buffer: the handshake with the jar, then
 * the request's messages sent in the background (`=== wait-for-server` honoured) and the
 * connection left open for the user to send more and close (../ws/script.ts `keepOpen`).
 * `onMessage` gets every message either way as it goes, `onClose` the close.
 * @throws EngineError from ../ws/connect.ts.
 */
export async function websocketOpen(request: Request, o: WebSocketExchangeOptions & { onAny: (m: WsMessage) => void; onClose: (c: WsClose) => void }): Promise<OpenWebSocket> {
  const steps = await messageSteps(request, o);
  const { opened, handshake } = await openWithJar(request, { ...o, onMessage: undefined, send: { ...o.send, signal: undefined } });
  if (opened.kind === 'refused') return { url: opened.url, handshake };
  const c = opened.connection;
  c.onAny(o.onAny);
  void c.closed.then(o.onClose);
  void runScript(c, steps, { keepOpen: true });
  return { url: c.url, handshake, connection: c };
}
