/**
 * Response -> what a person reads: the body decoded by its charset, JSON and XML
 * pretty-printed, images as base64, HTML as is with a mode hint (restclient.el shows the same).
 */
import { headerValue, type Response } from '../model.js';

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
 * ISO-8859-1, Shift_JIS, EUC-JP, GBK, ...). Unknown labels fall back to UTF-8.
 */
export function decodeBody(bytes: Uint8Array, charset: string | undefined): { text: string; charset: string } {
  const label = charset || 'utf-8';
  try {
    return { text: new TextDecoder(label).decode(bytes), charset: label };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), charset: 'utf-8' };
  }
}

/** Pretty-print JSON with a 2-space indent; undefined when the text is not JSON. */
export function prettyJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

/** Whether bytes look like text (no NUL byte in the first 8 KiB and valid UTF-8 there). */
function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * Make a response readable.
 * @returns text (decoded by charset, pretty-printed when JSON or XML unless `raw`), or base64
 *   for images and binary bodies; with the mode hint and whether the threshold was passed.
 */
export function present(response: Response, opts: PresentOptions = {}): Presentation {
  const { type, charset } = parseContentType(headerValue(response.headers, 'content-type'));
  const mode = modeFor(type);
  const threshold = opts.threshold === undefined ? DEFAULT_THRESHOLD : opts.threshold;
  const bytes = response.body.length;
  if (mode === 'image' || (mode === 'text' && !charset && !type.startsWith('text/') && looksBinary(response.body))) {
    return {
      kind: mode === 'image' ? 'image' : 'binary',
      base64: Buffer.from(response.body).toString('base64'),
      contentType: type,
      mode,
      formatted: false,
      overThreshold: threshold !== null && bytes > threshold,
      bytes,
    };
  }
  const decoded = decodeBody(response.body, charset);
  let text = decoded.text;
  let formatted = false;
  if (!opts.raw && mode === 'json') {
    const pretty = prettyJson(text);
    if (pretty !== undefined) {
      text = pretty;
      formatted = true;
    }
  }
  return {
    kind: 'text',
    text,
    contentType: type,
    charset: decoded.charset,
    mode,
    formatted,
    overThreshold: threshold !== null && text.length > threshold,
    bytes,
  };
}
