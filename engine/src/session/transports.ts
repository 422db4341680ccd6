/**
 * Which transport carries a resolved request, and its exchange (issues 40 and 41): a `GRPC`
 * request is a gRPC call (grpc.ts), a WebSocket request a socket (websocket.ts, its `.http`
 * handlers fed each message while it is open), any other an HTTP exchange (exchange.ts) whose
 * body may arrive as a stream (stream.ts: a stream the timeout or a cancel ended keeps its
 * events). One place for the choice, so `Session.send` reads every exchange alike; the
 * connection each uses is the one an HTTP request would (connection.ts).
 */
import path from 'node:path';
import type { RequestNode } from '../sheet/ast.js';
import type { HttpVarContext } from '../resolve/http-vars.js';
import type { HttpRequestMeta } from '../resolve/resolve-http.js';
import { SinkError } from '../http/send.js';
import { isEngineError } from '../errors.js';
import type { Exchange, Request } from '../model.js';
import { exchange as sendExchange } from './exchange.js';
import type { FileJar } from './jar.js';
import { atDirectiveLine, connectionSend, type ConnectionInput } from './connection.js';
import { grpcSent, grpcStreamEnd } from './grpc.js';
import type { StreamChoice, StreamEnd } from './stream.js';
import { openStreamHandlers, type LiveHandlers } from './http-file.js';
import { websocketExchange } from './websocket.js';
import { withUserAgent } from './user-agent.js';
import type { SendLocal, Settings } from './types.js';

/** What {@link exchangeOf} needs besides the request: the session's state and this send's options. */
export interface TransportInput {
  settings: Required<Settings>;
  /** The `.http` directives `# @no-cookie-jar` and `# @no-redirect` (undefined in a sheet). */
  meta: HttpRequestMeta | undefined;
  /** The session's cookie jar; undefined when cookies are off (`inhibitCookies`). */
  jar: FileJar | undefined;
  connection: ConnectionInput;
  /** How the body is read (stream.ts): its sink, its abort signal, its events. */
  choice: StreamChoice;
  /** The request's headers with what a stream asks for (`Accept: text/event-stream`). */
  streamHeaders: Request['headers'];
  signal: AbortSignal | undefined;
  /** The sheet's or `.http` file's path: relative protos and files start at its directory. */
  path: string | undefined;
  local: SendLocal;
  /** The session's variable overrides, which `.http` handlers read and set. */
  overrides: Map<string, string>;
}

/** What {@link exchangeOf} gives: the exchange, with what the session reads of its transport. */
export interface TransportResult {
  sent: { exchange: Exchange; jarWarning: string | null | undefined };
  grpc?: Awaited<ReturnType<typeof grpcSent>>;
  ws?: Awaited<ReturnType<typeof websocketExchange>>;
  /** A WebSocket request's `.http` handlers, opened once the handshake succeeded. */
  wsLive?: LiveHandlers;
  /** How a streamed body ended, when a gRPC stream or a kept stream says so. */
  ended?: StreamEnd;
}

/**
 * Send a resolved request over its transport.
 * @param r the resolved request: its `Request`, its node, the `.http` context (undefined in a sheet).
 * @throws EngineError as the transport fails (located at a directive's line where one caused it);
 *   an HTTP error status is a result, not an error.
 */
export async function exchangeOf(r: { request: Request; node: RequestNode; http?: HttpVarContext }, o: TransportInput): Promise<TransportResult> {
  const { settings: s, choice } = o;
  const connection = connectionSend(o.connection);
  const jar = o.jar ? { jar: o.jar } : {};
  if (r.node.grpc) {
    const grpc = await grpcSent(r.request, r.node, { connection, timeoutMs: s.timeoutMs, path: o.path, signal: choice.abort.signal, stream: choice });
    return { sent: grpc, grpc, ...(choice.stream ? { ended: grpcStreamEnd(grpc.exchange.response.status, choice) } : {}) };
  }
  if (r.request.websocket) {
    const wsRequest = withUserAgent(r.request, s.userAgent);
    const body = r.node.body;
    let wsLive: LiveHandlers | undefined;
    const handlers = r.http && r.node.handlers?.length
      ? async (head: { status: number; headers: Request['headers'] }, output: (text: string) => void) => (wsLive = await openStreamHandlers(r.node, wsRequest, head, o.path, o.overrides, r.http, o.local.handlerTimeoutMs, { output }))
      : undefined;
    const ws = await websocketExchange(wsRequest, {
      ...jar,
      sendCookies: !o.meta?.noCookieJar,
      send: { signal: o.signal, timeoutMs: s.timeoutMs, ...connection },
      ...(body && 'line' in body ? { bodyLine: body.line } : {}),
      baseDir: o.path ? path.dirname(path.resolve(o.path)) : process.cwd(),
      ...(o.local.onWebSocketMessage ? { onMessage: o.local.onWebSocketMessage } : {}),
      ...(handlers ? { handlers } : {}),
    }).catch((e: unknown) => {
      throw atDirectiveLine(e);
    });
    return { sent: ws, ws, ...(wsLive ? { wsLive } : {}) };
  }
  let ended: StreamEnd | undefined;
  const sent = await sendExchange(withUserAgent({ ...r.request, headers: o.streamHeaders }, s.userAgent), {
    ...jar,
    sendCookies: !o.meta?.noCookieJar,
    send: {
      signal: choice.abort.signal,
      timeoutMs: s.timeoutMs,
      followRedirects: s.followRedirects && !o.meta?.noRedirect,
      maxRedirects: s.maxRedirects,
      ...connection,
    },
    sink: choice.sink,
  }).catch((e: unknown) => {
    // A stream the timeout or a cancel ended keeps its events.
    const kept = choice.recover(e);
    if (kept) return ((ended = kept.ended), { exchange: kept.exchange, jarWarning: null });
    throw atDirectiveLine(e instanceof SinkError && isEngineError(e.cause) ? e.cause : e);
  });
  return { sent, ...(ended ? { ended } : {}) };
}
