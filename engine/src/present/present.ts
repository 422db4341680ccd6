/**
 * Response -> what a person reads: the body decoded by its charset, JSON and XML
 * pretty-printed, images as base64, HTML as is with a mode hint (restclient.el shows the same).
 */
import { isUtf8 } from 'node:buffer';
import { headerValue, type Response } from '../model.js';
import { prettyJson, prettyJsonUtf8 } from './json.js';
import { jsonError } from './json-stream.js';
import { prettyXml } from './xml.js';

export { prettyJson, prettyJsonUtf8, prettyXml };

/** What the body is, for the client's choice of major mode. */
export type Mode = 'json' | 'xml' | 'html' | 'image' | 'javascript' | 'text';

export interface PresentOptions {
  /** Return the body untouched (decoded text or base64), no pretty printing. */
  raw?: boolean;
  /**
   * Size threshold in characters (default 100000, `sheet-response-size-threshold`); above it the
   * body is still formatted, and `overThreshold` tells the client to use the bare mode.
   * null disables it.
   */
  threshold?: number | null;
}

export interface Presentation {
  /** `text`: `text` holds the body; `image`/`binary`: `base64` holds the bytes. */
  kind: 'text' | 'image' | 'binary';
  text?: string;
  base64?: string;
  /** Media type without parameters, lower case; '' when the response had none. */
  contentType: string;
  /** Charset used to decode a text body. */
  charset?: string;
  mode: Mode;
  /** True when the text was pretty-printed. */
  formatted: boolean;
  /**
   * A JSON or XML text body that was not pretty-printed although not asked raw: why, in words
   * for the trailer (e.g. `not valid JSON at byte 12: unexpected "}"`).
   */
  unformatted?: string;
  /** True when the body is longer than the threshold (the client uses the bare mode). */
  overThreshold: boolean;
  /** Body size in bytes as received. */
  bytes: number;
}

/** Default size threshold in characters (restclient.el's restclient-response-size-threshold). */
export const DEFAULT_THRESHOLD = 100000;

/** Split a Content-Type header into media type and charset. */
export function parseContentType(value: string | undefined): { type: string; charset?: string } {
  if (!value) return { type: '' };
  const [type, ...params] = value.split(';');
  let charset: string | undefined;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";]+)"?/i.exec(p);
    if (m) charset = m[1]!.trim();
  }
  return { type: type!.trim().toLowerCase(), charset };
}

/** The mode hint for a media type. */
export function modeFor(type: string): Mode {
  if (type === 'application/json' || type.endsWith('+json') || type === 'text/json') return 'json';
  if (type === 'text/xml' || type === 'application/xml' || type.endsWith('+xml')) return 'xml';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/javascript' || type === 'text/javascript') return 'javascript';
  return 'text';
}

/**
 * Decode body bytes by charset (any label the WHATWG Encoding Standard knows: UTF-8,
 * ISO-8859-1, Shift_JIS, EUC-JP, GBK, ...; unknown labels fall back to UTF-8), only when every
 * byte sequence is valid in that charset (the standard's `fatal` mode); undefined when one is
 * not, so that nothing is replaced by U+FFFD behind the user's back.
 */
export function decodeExact(bytes: Uint8Array, charset: string | undefined): { text: string; charset: string } | undefined {
  let decoder: TextDecoder;
  let label = charset || 'utf-8';
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    label = 'utf-8';
    decoder = new TextDecoder(label, { fatal: true });
  }
  try {
    return { text: decoder.decode(bytes), charset: label };
  } catch {
    return undefined;
  }
}

/** Whether `charset` (absent: UTF-8, the JSON default) names UTF-8 in the WHATWG Encoding Standard. */
export function isUtf8Label(charset: string | undefined): boolean {
  if (!charset) return true;
  try {
    return new TextDecoder(charset).encoding === 'utf-8';
  } catch {
    return false;
  }
}

/**
 * Whether valid UTF-8 `bytes` decode to more than `limit` characters (code points; a leading
 * byte order mark, which decoding drops, not counted).
 */
function utf8LongerThan(bytes: Uint8Array, limit: number): boolean {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 1 : 0;
  if (bytes.length - 3 * bom <= limit) return false;
  // A character is at most 4 bytes.
  if ((bytes.length - 3 * bom) / 4 > limit) return true;
  let n = -bom;
  for (let i = 0; i < bytes.length; i++) if ((bytes[i]! & 0xc0) !== 0x80) n++;
  return n > limit;
}

/** Length of `text` in characters as Emacs counts them (code points, not UTF-16 units). */
export function charLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Whether bytes look like text (no NUL byte in the first 8 KiB and valid UTF-8 there). */
function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * Make a response readable.
 *
 * - images (`image/*`): base64 of the bytes, with the content type, mode `image`;
 * - other bodies that hold NUL bytes and declare no text type or charset: base64, kind `binary`;
 * - bodies that are not valid in the charset they are decoded with (the Content-Type charset,
 *   UTF-8 by default), raw or not: base64 of the bytes as received, kind `binary`; the bytes
 *   are never replaced by U+FFFD (an `application/octet-stream` of Latin-1 bytes, a
 *   `text/plain` without charset that is not UTF-8);
 * - text: decoded by the Content-Type charset (UTF-8 by default); unless `raw`, JSON
 *   (`application/json`, `+json`) is re-indented by {@link prettyJson} (numbers and keys kept
 *   exactly, `\uXXXX` shown as characters) and XML (`text/xml`, `application/xml`, `+xml`) by
 *   {@link prettyXml}; HTML and the rest as they are, with a mode hint.
 *
 * `overThreshold` is true when the decoded body is longer than `threshold` characters (code
 * points); the body is formatted all the same, and the client may choose its bare mode.
 * A body that does not parse as its type is returned as received, `formatted: false`, with
 * `unformatted` saying why (json-stream.ts names the byte where JSON stops being JSON).
 */
export function present(response: Response, opts: PresentOptions = {}): Presentation {
  const { type, charset } = parseContentType(headerValue(response.headers, 'content-type'));
  const mode = modeFor(type);
  const threshold = opts.threshold === undefined ? DEFAULT_THRESHOLD : opts.threshold;
  const bytes = response.body.length;
  const asBytes = (): Presentation => ({
    kind: mode === 'image' ? 'image' : 'binary',
    base64: Buffer.from(response.body).toString('base64'),
    contentType: type,
    mode,
    formatted: false,
    overThreshold: threshold !== null && bytes > threshold,
    bytes,
  });
  if (mode === 'image' || (mode === 'text' && !charset && !type.startsWith('text/') && looksBinary(response.body))) return asBytes();
  const body = response.body;
  // Whether the bytes were tried (and found not to be JSON): not tried again.
  let tried = false;
  if (!opts.raw && mode === 'json' && isUtf8Label(charset) && isUtf8(body)) {
    tried = true;
    // UTF-8 JSON (nearly all of it) is re-indented on the bytes as received: no decoding to a
    // string first; other bodies go the way below.
    const pretty = prettyJsonUtf8(body);
    if (pretty !== undefined) {
      return {
        kind: 'text',
        text: Buffer.from(pretty.buffer, pretty.byteOffset, pretty.byteLength).toString('utf8'),
        contentType: type,
        charset: charset || 'utf-8',
        mode,
        formatted: true,
        overThreshold: threshold !== null && utf8LongerThan(response.body, threshold),
        bytes,
      };
    }
  }
  // Bytes that are not valid in the charset are kept as bytes, never replaced by U+FFFD.
  const decoded = decodeExact(response.body, charset);
  if (!decoded) return asBytes();
  let text = decoded.text;
  const over = threshold !== null && text.length > threshold && charLength(text) > threshold;
  let formatted = false;
  let unformatted: string | undefined;
  if (!opts.raw && (mode === 'json' || mode === 'xml') && text.trim() !== '') {
    // The same bytes decoded are the same JSON: not valid this way either.
    const pretty = mode === 'json' ? (tried ? undefined : prettyJson(text)) : prettyXml(text);
    if (pretty !== undefined) {
      text = pretty;
      formatted = true;
    } else if (mode === 'json') unformatted = jsonError(tried ? body : Buffer.from(text, 'utf8'));
    else unformatted = 'not well-formed XML (xml-formatter could not read it)';
  }
  return {
    kind: 'text',
    text,
    contentType: type,
    charset: decoded.charset,
    mode,
    formatted,
    ...(unformatted ? { unformatted } : {}),
    overThreshold: over,
    bytes,
  };
}
