/**
 * The daemon's request without a body to stream (docs/shell.md, "The daemon"): the fields as
 * `application/x-www-form-urlencoded`, as `curl --data-urlencode name=content` writes them
 * (each byte but `A-Za-z0-9-._~` as `%XX`; `+` read as a space, as the WHATWG form rules say).
 * curl makes this body without the random multipart boundary, which costs it a few ms per
 * call; calls whose standard input is the body keep `multipart/form-data` (src/shell-verbs/multipart.ts).
 */
import type { Readable } from 'node:stream';
import type { Field } from './multipart.js';

/** Largest field body read (bytes): far above what a command line can hold (ARG_MAX). */
export const MAX_FORM_BYTES = 64 * 1024 * 1024;

/** The value of one hex digit's char code, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x57 : -1;
}

/**
 * Percent-decode one name or value to its bytes. Char codes only: every call decodes its PATH
 * and file names, `%2F` after `%2F` (with a slice and a regular expression per escape, this was
 * a tenth of what a call allocated).
 */
function unescapeBytes(s: string): Buffer {
  if (!/[%+]/.test(s)) return Buffer.from(s, 'latin1');
  const out = Buffer.allocUnsafe(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 && i + 2 < s.length) {
      const hi = hexValue(s.charCodeAt(i + 1));
      const lo = hexValue(s.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        out[n++] = hi * 16 + lo;
        i += 2;
        continue;
      }
    }
    out[n++] = c === 0x2b ? 0x20 : c & 0xff;
  }
  return out.subarray(0, n);
}

/** Parse a urlencoded body into fields, in order, bytes as sent. */
export function parseUrlencoded(body: Buffer): Field[] {
  const fields: Field[] = [];
  const text = body.toString('latin1');
  if (!text) return fields;
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = unescapeBytes(eq < 0 ? pair : pair.slice(0, eq)).toString('latin1');
    fields.push({ name, data: unescapeBytes(eq < 0 ? '' : pair.slice(eq + 1)) });
  }
  return fields;
}

/**
 * Read a whole urlencoded request body and parse it.
 * @throws Error when the body is larger than {@link MAX_FORM_BYTES}.
 */
export async function readFormRequest(req: Readable): Promise<Field[]> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new Error(`the call's arguments are larger than ${MAX_FORM_BYTES} bytes`);
    chunks.push(c as Buffer);
  }
  return parseUrlencoded(Buffer.concat(chunks));
}
