/**
 * The request body as undici sends it: bytes from the `Request`, or a stream read as it is sent
 * (a file, standard input) with a Content-Length when its size is known, else chunked
 * (RFC 9112 7.1). Which streams can be read again after a 307/308 is `reopen`
 * (`redirects.ts` asks).
 */
import type { Readable } from 'node:stream';
import { bodyBytes, type Request } from '../model.js';

/** A request body read as a stream: see `SendOptions.bodyStream` (send.ts). */
export interface BodyStream {
  open: () => Readable;
  length?: number;
  reopen: boolean;
}

/** The Content-Length header of a stream of known length, unless the request sets its own. */
export function streamLengthHeader(req: Request, stream: BodyStream | undefined): [string, string] | undefined {
  if (stream && stream.length !== undefined && !req.headers.some(([n]) => /^content-length$/i.test(n))) return ['Content-Length', String(stream.length)];
  return undefined;
}

/**
 * The body handed to undici's dispatch: the stream opened (once per send), the request's bytes,
 * an empty buffer for an empty body, or null for none.
 */
export function dispatchBody(req: Request, stream: BodyStream | undefined): Readable | Buffer | null {
  if (stream) return stream.open();
  const body = bodyBytes(req.body);
  return body && body.length ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : body ? Buffer.alloc(0) : null;
}
