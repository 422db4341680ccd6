/**
 * Content-Encoding decoding as a stream (RFC 9110 section 8.4.1): `gzip` / `x-gzip`, `deflate`
 * (zlib-wrapped as RFC 9110 says, or raw deflate as some servers send and curl accepts), `br`.
 * The decoder is a Transform, so a body is never held whole: a small gzip that expands to
 * gigabytes flows through in chunks to whatever consumes it.
 */
import * as stream from 'node:stream';
import type { Duplex } from 'node:stream';
import zlib from 'node:zlib';

/** The encodings the engine decodes, lower case, in the order the server applied them. */
export function encodings(contentEncoding: string | undefined): string[] {
  if (!contentEncoding) return [];
  return contentEncoding
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '' && s !== 'identity');
}

/** Whether every listed encoding can be decoded (else the body is passed on as it is). */
export function canDecode(list: string[]): boolean {
  return list.length > 0 && list.every((e) => e === 'gzip' || e === 'x-gzip' || e === 'deflate' || e === 'br');
}

/**
 * Whether a `deflate` body is zlib-wrapped (RFC 1950: compression method 8 and a header check
 * value divisible by 31) or raw deflate, from its first two bytes, as curl and browsers decide.
 */
export function isZlibWrapped(first: Uint8Array): boolean {
  if (first.length < 2) return false;
  const b0 = first[0]!;
  return (b0 & 0x0f) === 8 && ((b0 << 8) | first[1]!) % 31 === 0;
}

/**
 * One decoder for a Content-Encoding list (applied last first), or undefined when the list is
 * empty or names an encoding the engine does not know. `first` holds at least the body's first
 * two bytes (or the whole body when shorter), to tell zlib from raw deflate.
 */
export function decoder(list: string[], first: Uint8Array): Duplex | undefined {
  if (!canDecode(list)) return undefined;
  const steps = [...list].reverse().map((e, i) => {
    if (e === 'br') return zlib.createBrotliDecompress();
    // Only the outermost encoding's first bytes are known; an inner deflate is taken as zlib.
    if (e === 'deflate') return i > 0 || isZlibWrapped(first) ? zlib.createInflate() : zlib.createInflateRaw();
    return zlib.createGunzip();
  });
  return steps.length === 1 ? steps[0] : (stream as unknown as { compose: (...s: Duplex[]) => Duplex }).compose(...steps);
}
