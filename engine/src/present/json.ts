/**
 * A token-level JSON re-indenter. Unlike JSON.parse + JSON.stringify it keeps every number and
 * key exactly as sent (12345678901234567890 stays that, 1.0 stays 1.0, duplicate keys stay),
 * since a REST client must never show a value the server did not send. `\uXXXX` escapes are
 * shown as the characters they stand for, except where that would change the meaning or hide
 * something: `"`, `\`, control characters (U+0000-U+001F, U+007F-U+009F) and lone surrogates
 * stay escaped. Other escapes (`\n`, `\/`, ...) are kept as written. Grammar: RFC 8259.
 * One pass over the UTF-8 bytes, no recursion (any nesting depth), linear time.
 */

const enum S {
  Value,
  Key,
  After,
}

import { BACKSLASH, CR, FALSE, isShortEscape, LF, NULL, putUnicodeEscape, QUOTE, SPACE, TAB, TRUE, unicodeEscapeLength } from './json-bytes.js';

/**
 * Pretty-print JSON given as UTF-8 bytes, into UTF-8 bytes, with `indent` (default two
 * spaces) per level, in the layout of `JSON.stringify(v, null, 2)` (`"key": value`, empty
 * `{}`/`[]` on one line). Works on the bytes as received: no decoding to a string and back,
 * strings copied in one pass. A leading byte order mark is skipped.
 * @param input UTF-8 bytes; must be valid UTF-8 (the caller checks, e.g. with `isUtf8`).
 * @returns the re-indented text as UTF-8 bytes, or undefined when `input` is not valid JSON
 *   (RFC 8259); leading and trailing whitespace is allowed.
 */
export function prettyJsonUtf8(input: Uint8Array, indent = '  '): Uint8Array | undefined {
  const text = input;
  const n = text.length;
  let i = n >= 3 && text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf ? 3 : 0;
  // The output grows in one buffer; indentation makes it longer than the input.
  let buf = new Uint8Array(Math.max(64, Math.ceil(n * 1.7)));
  let o = 0;
  const ensure = (more: number) => {
    if (o + more <= buf.length) return;
    const next = new Uint8Array(Math.max(buf.length * 2, o + more));
    next.set(buf.subarray(0, o));
    buf = next;
  };
  const ind = Buffer.from(indent, 'utf8');
  const il = ind.length;
  const newline = (depth: number) => {
    ensure(1 + depth * il);
    buf[o++] = LF;
    if (il === 2 && ind[0] === SPACE && ind[1] === SPACE) {
      for (let d = 2 * depth; d > 0; d--) buf[o++] = SPACE;
    } else for (let d = 0; d < depth; d++) for (let k = 0; k < il; k++) buf[o++] = ind[k]!;
  };
  const put = (c: number) => {
    ensure(1);
    buf[o++] = c;
  };
  const stack: number[] = []; // 123 `{` or 91 `[`
  let state = S.Value;

  /** Copies the string starting at text[i] === '"'; false when it is not a valid string. */
  const readString = (): boolean => {
    // The output of a string is never longer than its input (an escape turns into at most
    // as many bytes as it has), so room for the rest of the input is enough.
    ensure(n - i);
    const b = buf;
    let k = o;
    b[k++] = QUOTE;
    i++;
    for (;;) {
      if (i >= n) return false;
      const c = text[i]!;
      if (c === QUOTE) break;
      if (c !== BACKSLASH) {
        if (c < 0x20) return false;
        b[k++] = c;
        i++;
        continue;
      }
      const e = text[i + 1];
      if (e === 117 /* u */) {
        // A whole text that ends inside an escape ends inside a string: not JSON either way.
        const len = unicodeEscapeLength(text, i, n);
        if (len <= 0) return false;
        k = putUnicodeEscape(text, i, len, b, k);
        i += len;
      } else if (e !== undefined && isShortEscape(e)) {
        b[k++] = BACKSLASH;
        b[k++] = e;
        i += 2;
      } else return false;
    }
    b[k++] = QUOTE;
    i++;
    o = k;
    return true;
  };

  /** Copies a number at text[i]; false when it is not one (RFC 8259 section 6). */
  const readNumber = (): boolean => {
    const start = i;
    if (text[i] === 45) i++;
    let c = text[i]!;
    if (c === 48) i++;
    else if (c >= 49 && c <= 57) {
      do i++;
      while ((c = text[i]!) >= 48 && c <= 57);
    } else return false;
    if (text[i] === 46) {
      i++;
      c = text[i]!;
      if (!(c >= 48 && c <= 57)) return false;
      do i++;
      while ((c = text[i]!) >= 48 && c <= 57);
    }
    c = text[i]!;
    if (c === 101 || c === 69) {
      i++;
      c = text[i]!;
      if (c === 43 || c === 45) i++;
      c = text[i]!;
      if (!(c >= 48 && c <= 57)) return false;
      do i++;
      while ((c = text[i]!) >= 48 && c <= 57);
    }
    ensure(i - start);
    for (let k = start; k < i; k++) buf[o++] = text[k]!;
    return true;
  };
  const word = (w: readonly number[]): boolean => {
    for (let k = 0; k < w.length; k++) if (text[i + k] !== w[k]) return false;
    ensure(w.length);
    for (let k = 0; k < w.length; k++) buf[o++] = w[k]!;
    i += w.length;
    return true;
  };

  for (;;) {
    let c = text[i]!;
    while (c === SPACE || c === LF || c === CR || c === TAB) c = text[++i]!;
    if (state === S.After) {
      if (stack.length === 0) {
        if (i < n) return undefined;
        return buf.subarray(0, o);
      }
      const top = stack[stack.length - 1]!;
      if (c === 44 /* , */) {
        i++;
        put(44);
        newline(stack.length);
        state = top === 123 ? S.Key : S.Value;
      } else if ((top === 123 && c === 125) || (top === 91 && c === 93)) {
        i++;
        stack.pop();
        newline(stack.length);
        put(c);
      } else return undefined;
    } else if (state === S.Key) {
      if (c !== QUOTE || !readString()) return undefined;
      c = text[i]!;
      while (c === SPACE || c === LF || c === CR || c === TAB) c = text[++i]!;
      if (c !== 58 /* : */) return undefined;
      i++;
      put(58);
      put(SPACE);
      state = S.Value;
    } else {
      if (i >= n) return undefined;
      if (c === 123 || c === 91) {
        const close = c === 123 ? 125 : 93;
        i++;
        let d = text[i]!;
        while (d === SPACE || d === LF || d === CR || d === TAB) d = text[++i]!;
        put(c);
        if (d === close) {
          i++;
          put(close);
          state = S.After;
          continue;
        }
        stack.push(c);
        newline(stack.length);
        state = c === 123 ? S.Key : S.Value;
        continue;
      }
      if (c === QUOTE) {
        if (!readString()) return undefined;
      } else if (!(word(TRUE) || word(FALSE) || word(NULL) || readNumber())) return undefined;
      state = S.After;
    }
  }
}

/**
 * Pretty-print JSON text (see {@link prettyJsonUtf8}, which does the work on the text's UTF-8
 * bytes; an unpaired surrogate in `text` itself, which no decoded body holds, becomes U+FFFD).
 * @returns the re-indented text, or undefined when `text` is not valid JSON (RFC 8259);
 *   leading and trailing whitespace is allowed.
 */
export function prettyJson(text: string, indent = '  '): string | undefined {
  const out = prettyJsonUtf8(Buffer.from(text, 'utf8'), indent);
  return out && Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('utf8');
}
