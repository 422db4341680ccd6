/**
 * A `GRPC` request's exchange (docs/http-files.md, "gRPC"): the resolved request handed to
 * ../grpc/call.ts with the connection the HTTP side would use (CA files, client certificate,
 * `-k`: connection.ts) and the per-request timeout as the deadline, and the call's outcome in the
 * one {@link Exchange} shape the rest of the pipeline reads (presentation, hooks, handlers,
 * reports):
 *
 * - `status` is the gRPC status code (0 `OK`), `statusText` its name, then its message;
 * - `headers` are the response metadata, then the trailers, then `grpc-status` and
 *   `grpc-message` as they travel in HTTP/2 trailers; `content-type` says `application/json`
 *   because the body is the messages as JSON (the wire's `application/grpc` is not shown);
 * - the body is the response message as pretty JSON for unary and client-streaming calls, and
 *   the JSON array of the messages in the order they came for server-streaming and
 *   bidirectional ones (so `jq-set-var`, `expect-jq` and handlers read one JSON value).
 *
 * The messages of a server-streaming or bidirectional call also go, as they arrive, through the
 * streaming path of HTTP streams (stream.ts): each one an NDJSON line written to the request's
 * `StreamChoice`, so sheet-mode shows it at once (`sheet/streamEvents`), the `.http` handlers'
 * `onEachMessage` get it (their `unsubscribe()` cancels the call), and `-> expect-events` /
 * `-> expect-event` count and read them.
 */
import type { Exchange, Header, Request } from '../model.js';
import type { RequestNode } from '../sheet/ast.js';
import { splitStreamMessages } from '../sheet/stream-messages.js';
import { grpcCall, type GrpcResult } from '../grpc/call.js';
import { grpcStatusName } from '../grpc/status.js';
import { toGrpcurl } from '../grpc/grpcurl.js';
import { EngineError } from '../errors.js';
import path from 'node:path';
import { atDirectiveLine } from './connection.js';
import type { SendOptions } from '../http/send.js';
import type { Assertion } from '../hooks/results.js';
import type { Writable } from 'node:stream';
import type { StreamChoice, StreamEnd } from './stream.js';

/** What the call connects with: the HTTP side's options for the same request. */
export type GrpcConnection = Pick<SendOptions, 'insecure' | 'trust' | 'clientCert'>;

/**
 * Make the call of `request` (a resolved `GRPC` request) and give its outcome as an exchange.
 * @param node the parsed request (its proto lines, the body's first line).
 * @param baseDir where the proto paths start (the sheet's directory).
 * @throws EngineError as ../grpc/call.ts's `grpcCall`.
 */
export async function grpcExchange(request: Request, node: RequestNode, o: { connection: GrpcConnection; timeoutMs?: number; baseDir: string; signal?: AbortSignal; stream?: StreamChoice }): Promise<Exchange> {
  const g = node.grpc!;
  const feed = o.stream && new MessageFeed(o.stream, request);
  const body = request.body ? (request.body.kind === 'text' ? request.body.text : Buffer.from(request.body.bytes).toString('utf8')) : '';
  const bodyLine = node.body && 'line' in node.body ? node.body.line : node.line;
  const result = await grpcCall({
    url: request.url,
    line: node.line,
    metadata: request.headers,
    steps: splitStreamMessages(body, bodyLine),
    protos: g.protos,
    importPaths: g.importPaths,
    options: g.options,
    baseDir: o.baseDir,
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    insecure: o.connection.insecure,
    trust: o.connection.trust,
    clientCert: o.connection.clientCert,
    ...(g.authority ? { authority: g.authority } : {}),
    ...(feed ? { onStreamStart: (_kind: string, headers: Header[]) => feed.open(headers), onMessage: (m: unknown) => feed.write(m) } : {}),
  });
  // A unary call's feed never opened: nothing to end (and no await).
  if (feed?.opened) await feed.end();
  return { request, response: responseOf(result), redirects: [], durationMs: result.durationMs };
}

/**
 * A stream's messages written to its `StreamChoice`'s sink as NDJSON lines, in order: the sink
 * is opened (the `.http` handlers with it) at the metadata, before the first message.
 */
class MessageFeed {
  private sink: Promise<Writable> | undefined;
  constructor(
    private readonly choice: StreamChoice,
    private readonly request: Request,
  ) {}

  /** Whether the call began streaming (its sink opened). */
  get opened(): boolean {
    return this.sink !== undefined;
  }

  open(headers: Header[]): void {
    this.sink ??= this.choice.sink({ url: this.request.url, status: 0, statusText: 'OK', headers: [['content-type', 'application/x-ndjson'], ...headers], httpVersion: '2' }, this.request);
  }

  /** Messages that come after the call began streaming (unary ones: never opened). */
  write(message: unknown): void {
    const line = `${JSON.stringify(message)}\n`;
    this.sink = this.sink?.then((w) => (w.write(line), w));
  }

  /** The stream's last batch out and its handlers done. */
  async end(): Promise<void> {
    const w = await this.sink;
    if (w) await new Promise<void>((resolve, reject) => w.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
}

/**
 * How a gRPC stream ended, in the words of HTTP streams: by the status (`CANCELLED`: the user or
 * a handler's `unsubscribe()`; `DEADLINE_EXCEEDED`: the per-request timeout), else the server's end.
 */
export function grpcStreamEnd(status: number, choice: StreamChoice): StreamEnd {
  if (status === 1) return choice.unsubscribedByHandler ? 'unsubscribed by a handler' : 'cancelled';
  return status === 4 ? 'timed out' : 'server closed';
}

/**
 * {@link grpcExchange} as the session's send step: relative protos from the sheet's directory
 * (`path`'s, else the working directory), a directive's error at its line (connection.ts).
 */
export async function grpcSent(request: Request, node: RequestNode, o: { connection: GrpcConnection; timeoutMs?: number; path?: string; signal?: AbortSignal; stream?: StreamChoice }): Promise<{ exchange: Exchange; jarWarning: undefined }> {
  const baseDir = o.path ? path.dirname(path.resolve(o.path)) : process.cwd();
  const exchange = await grpcExchange(request, node, { connection: o.connection, timeoutMs: o.timeoutMs, baseDir, signal: o.signal, ...(o.stream ? { stream: o.stream } : {}) }).catch((e: unknown) => {
    throw atDirectiveLine(e);
  });
  return { exchange, jarWarning: undefined };
}

function responseOf(r: GrpcResult): Exchange['response'] {
  const many = r.kind === 'server-streaming' || r.kind === 'bidi-streaming';
  const value = many ? r.messages : r.messages[0];
  const text = value === undefined ? '' : JSON.stringify(value, null, 2);
  const name = grpcStatusName(r.code);
  const wire = (h: Header[]) => h.filter(([n]) => n !== 'content-type');
  const headers: Header[] = [['content-type', 'application/json'], ...wire(r.headers), ...wire(r.trailers), ['grpc-status', String(r.code)]];
  if (r.code !== 0 && r.details) headers.push(['grpc-message', r.details]);
  return { httpVersion: '2', protocol: 'grpc', status: r.code, statusText: r.code === 0 || !r.details ? name : `${name}: ${r.details}`, headers, body: new TextEncoder().encode(text) };
}

/**
 * The failed assertion of a gRPC call whose status is not OK, unless one of its hooks is an
 * `-> expect-grpc-status` (which then decides): a non-OK status fails the request in `sheet
 * run` (exit 1) and shows in the trailer, as grpcurl exits non-zero; the next request runs.
 */
export function grpcStatusAssertion(node: RequestNode, response: Exchange['response'], hooks: { name: string }[], ended?: StreamEnd): Assertion | undefined {
  // A handler's `unsubscribe()` cancels the call on purpose: its CANCELLED is no failure.
  if (response.status === 0 || ended === 'unsubscribed by a handler' || hooks.some((h) => h.name === 'expect-grpc-status')) return undefined;
  return { line: node.line, name: 'grpc-status', args: 'OK', passed: false, message: `line ${node.line}: gRPC status ${response.statusText} (code ${response.status}), not OK` };
}

/**
 * A `GRPC` request as C-c C-u's command: grpcurl's, with the connection the call would use
 * (../grpc/grpcurl.ts).
 */
export function grpcurlCommand(request: Request, node: RequestNode, baseDir: string, c: GrpcConnection, timeoutMs?: number): string {
  const cert = c.clientCert?.cert;
  return toGrpcurl(request, node.grpc!, baseDir, { insecure: c.insecure, caFile: c.trust?.caFile, ...(cert ? { cert, key: c.clientCert?.key } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
}

/**
 * The grpcurl command of an export (`sheet export --to grpcurl`, `sheet/code`): a `GRPC`
 * request exports to grpcurl (any target asked: the other targets make HTTP calls), and only a
 * `GRPC` request does.
 * @throws EngineError `bad-argument` for `--to grpcurl` on an HTTP request.
 */
export function grpcurlOnly(grpcurl: string | undefined, target: string, line?: number): string {
  if (grpcurl !== undefined) return grpcurl;
  throw new EngineError('bad-argument', `--to ${target}: the request is not a GRPC request`, { line, hint: 'grpcurl writes gRPC calls only; write --to curl for an HTTP request.' });
}
