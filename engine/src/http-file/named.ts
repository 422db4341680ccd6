/**
 * Named requests of `.http` files (`# @name login`, then `{{login.response.body.$.token}}`,
 * `{{login.request.headers.X}}`; VS Code REST Client's "Request Variables", JetBrains HTTP
 * Client's response references): what of an exchange is kept, and bodies as the text the
 * references and the response handlers read, for the Session (session/http-file.ts), which
 * every front end and the library's HttpFileRunner send through.
 */
import { decodeExact, parseContentType } from '../present/present.js';
import type { RequestRecord } from '../resolve/http-vars.js';
import { headerValue, type Header, type Request } from '../model.js';

/**
 * A body as text: decoded with the charset of `contentType` when the bytes are exact in it,
 * else as UTF-8 (with replacement characters). Undefined without bytes.
 */
export function bodyText(bytes: Uint8Array | undefined, contentType: string | undefined): string | undefined {
  return bytes ? (decodeExact(bytes, parseContentType(contentType).charset)?.text ?? new TextDecoder().decode(bytes)) : undefined;
}

/**
 * Keep request `name`'s exchange in `requests` for later `{{name.request...}}` and
 * `{{name.response...}}` references: the request's headers and body (as text), the response's
 * status, headers and `responseText` (its body as {@link bodyText} gives it). `responseText` may
 * be a function giving that text: it is called at the first read of `response.body`, once (a file
 * of many `### name` requests that no reference reads decodes none of their bodies; `sheet run`'s
 * 1,000 gRPC calls spent ~18 ms of CPU decoding them: docs/benchmarks.md, "grpc").
 */
export function rememberRequest(requests: Map<string, RequestRecord>, name: string, request: Request, response: { status: number; headers: Header[] }, responseText: string | (() => string)): void {
  const rb = request.body ? (request.body.kind === 'text' ? request.body.text : bodyText(request.body.bytes, headerValue(request.headers, 'content-type'))) : undefined;
  const kept: NonNullable<RequestRecord['response']> = { status: response.status, headers: response.headers, body: '' };
  if (typeof responseText === 'string') kept.body = responseText;
  else {
    let text: string | undefined;
    Object.defineProperty(kept, 'body', { enumerable: true, configurable: true, get: () => (text ??= responseText()) });
  }
  requests.set(name, { request: { headers: request.headers, ...(rb !== undefined ? { body: rb } : {}) }, response: kept });
}
