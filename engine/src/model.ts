/**
 * The one request model shared by every front end: the sheet resolver produces it, the shell
 * CLI builds it from curl-style options, the curl converter prints it, and `http/send` sends it.
 */

/** A header as written: name with its case kept, value as a string. Order is kept. */
export type Header = [name: string, value: string];

/** A request body: text (sent as UTF-8) or bytes (sent exactly). */
export type Body = { kind: 'text'; text: string } | { kind: 'bytes'; bytes: Uint8Array; path?: string };

/** A concrete request, ready to send. */
export interface Request {
  /** HTTP method in upper case (RFC 9110 section 9). */
  method: string;
  /** Absolute http: or https: URL, non-ASCII already percent-encoded. */
  url: string;
  /**
   * The request target to send as written (path and query; non-ASCII sent as UTF-8 bytes)
   * instead of `url`'s percent-encoded ones: a request marked `# @no-auto-encoding`
   * (url/as-written.ts). Not carried to a redirect's request.
   */
  target?: string;
  headers: Header[];
  body?: Body;
  /** Where it came from: the sheet line of the request line, when from a sheet. */
  line?: number;
  /**
   * A WebSocket request (issue 40): `url` is its http:/https: form (ws: -> http:, wss: ->
   * https:, so the cookie jar and proxy rules read it as any request), `headers` the
   * handshake's and `body` the message script (sheet/stream-messages.ts); sent by ws/.
   */
  websocket?: boolean;
  /**
   * A GraphQL request over WebSocket (`GRAPHQL ws://...`; resolve/http-graphql.ts): `websocket`
   * too, spoken in the `graphql-transport-ws` subprotocol (ws/graphql.ts); `body` is the
   * `subscribe` payload as JSON (`{"query", "operationName"?, "variables"?}`).
   */
  graphql?: boolean;
}

/** One hop of a followed redirect. */
export interface Redirect {
  status: number;
  url: string;
  location: string;
}

/** The response as received: status line, headers and raw body bytes. */
export interface Response {
  /** The version the server answered with: "1.0", "1.1" (its status line) or "2". */
  httpVersion: string;
  status: number;
  statusText: string;
  headers: Header[];
  body: Uint8Array;
  /**
   * `grpc` for a gRPC call's outcome (session/grpc.ts): `status` is the gRPC status code (0 OK),
   * `statusText` its name and message; absent for HTTP.
   */
  protocol?: 'grpc';
}

/** A request as sent and its response, with timings in milliseconds. */
export interface Exchange {
  /** The request as sent: final URL after redirects, headers including Cookie. */
  request: Request;
  response: Response;
  redirects: Redirect[];
  /** Wall time from the start of sending to the last body byte, in ms. */
  durationMs: number;
  /** The proxy the final request went through (http/proxy.ts), and where it came from. */
  proxy?: { origin: string; source: string };
}

/** Case-insensitive first value of a header, or undefined. */
export function headerValue(headers: Header[], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [n, v] of headers) if (n.toLowerCase() === lower) return v;
  return undefined;
}

/** The body as bytes (text bodies encoded as UTF-8). Browser-safe (no Buffer): the client library bundles it. */
export function bodyBytes(body: Body | undefined): Uint8Array | undefined {
  if (!body) return undefined;
  return body.kind === 'text' ? new TextEncoder().encode(body.text) : body.bytes;
}
