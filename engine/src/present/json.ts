/**
 * A token-level JSON re-indenter. Unlike JSON.parse + JSON.stringify it keeps every number and
 * key exactly as sent (12345678901234567890 stays that, 1.0 stays 1.0, duplicate keys stay),
 * since a REST client must never show a value the server did not send. `\uXXXX` escapes are
 * shown as the characters they stand for, except where that would change the meaning or hide
 * something: `"`, `\`, control characters (U+0000-U+001F, U+007F-U+009F) and lone surrogates
 * stay escaped. Other escapes (`\n`, `\/`, ...) are kept as written. Grammar: RFC 8259.
 * One pass, no recursion (any nesting depth), linear time.
 */

const enum S {
  Value,
  Key,
  After,
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;

function hex4(text: string, at: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const c = text.charCodeAt(at + k);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 65 && c <= 70) d = c - 55;
    else if (c >= 97 && c <= 102) d = c - 87;
    else return -1;
    v = v * 16 + d;
  }
  return v;
}

const keepEscaped = (cp: number) => cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp === QUOTE || cp === BACKSLASH;

/**
 * Pretty-print JSON text with `indent` (default two spaces) per level, in the layout of
 * `JSON.stringify(v, null, 2)` (`"key": value`, empty `{}`/`[]` on one line).
 * @returns the re-indented text, or undefined when `text` is not valid JSON (RFC 8259);
 *   leading and trailing whitespace is allowed.
 */
export function prettyJson(text: string, indent = '  '): string | undefined {
  const n = text.length;
  // The output is written as UTF-16 code units into a growing buffer and decoded once at the
  // end: much faster on large bodies than concatenating millions of small strings.
  let buf = new Uint16Array(Math.max(64, Math.ceil(n * 1.6)));
  let o = 0;
  const ensure = (more: number) => {
    if (o + more <= buf.length) return;
    const next = new Uint16Array(Math.max(buf.length * 2, o + more));
    next.set(buf.subarray(0, o));
    buf = next;
  };
  const ind: number[] = [];
  for (let k = 0; k < indent.length; k++) ind.push(indent.charCodeAt(k));
  const il = ind.length;
  const newline = (depth: number) => {
    ensure(1 + depth * il);
    buf[o++] = LF;
    for (let d = 0; d < depth; d++) for (let k = 0; k < il; k++) buf[o++] = ind[k]!;
  };
  const put = (c: number) => {
    ensure(1);
    buf[o++] = c;
  };
  let i = 0;
  const stack: number[] = []; // 123 `{` or 91 `[`
  let state = S.Value;

  /** Copies the string starting at text[i] === '"'; false when it is not a valid string. */
  const readString = (): boolean => {
    // The output of a string is never longer than its input.
    const start = i;
    i++;
    for (;;) {
      if (i >= n) return false;
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c < 0x20) return false;
      if (c !== BACKSLASH) {
        i++;
        continue;
      }
      const e = text.charCodeAt(i + 1);
      if (e === 117 /* u */) {
        if (hex4(text, i + 2) < 0) return false;
        i += 6;
      } else if (e === QUOTE || e === BACKSLASH || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) i += 2;
      else return false;
    }
    i++;
    ensure(i - start);
    for (let k = start; k < i; k++) {
      const c = text.charCodeAt(k);
      if (c !== BACKSLASH) {
        buf[o++] = c;
        continue;
      }
      const e = text.charCodeAt(k + 1);
      if (e !== 117) {
        buf[o++] = c;
        buf[o++] = e;
        k++;
        continue;
      }
      const cp = hex4(text, k + 2);
      if (cp >= 0xd800 && cp <= 0xdbff && text.charCodeAt(k + 6) === BACKSLASH && text.charCodeAt(k + 7) === 117) {
        // A pair written as two escapes becomes one character.
        const lo = hex4(text, k + 8);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          buf[o++] = cp;
          buf[o++] = lo;
          k += 11;
          continue;
        }
      }
      if ((cp >= 0xd800 && cp <= 0xdfff) || keepEscaped(cp)) {
        for (let m = 0; m < 6; m++) buf[o++] = text.charCodeAt(k + m);
      } else buf[o++] = cp;
      k += 5;
    }
    return true;
  };

  /** Copies a number at text[i]; false when it is not one (RFC 8259 section 6). */
  const readNumber = (): boolean => {
    const start = i;
    if (text.charCodeAt(i) === 45) i++;
    let c = text.charCodeAt(i);
    if (c === 48) i++;
    else if (c >= 49 && c <= 57) {
      do i++;
      while ((c = text.charCodeAt(i)) >= 48 && c <= 57);
    } else return false;
    if (text.charCodeAt(i) === 46) {
      i++;
      c = text.charCodeAt(i);
      if (!(c >= 48 && c <= 57)) return false;
      do i++;
      while ((c = text.charCodeAt(i)) >= 48 && c <= 57);
    }
    c = text.charCodeAt(i);
    if (c === 101 || c === 69) {
      i++;
      c = text.charCodeAt(i);
      if (c === 43 || c === 45) i++;
      c = text.charCodeAt(i);
      if (!(c >= 48 && c <= 57)) return false;
      do i++;
      while ((c = text.charCodeAt(i)) >= 48 && c <= 57);
    }
    ensure(i - start);
    for (let k = start; k < i; k++) buf[o++] = text.charCodeAt(k);
    return true;
  };
  const word = (w: string): boolean => {
    if (!text.startsWith(w, i)) return false;
    ensure(w.length);
    for (let k = 0; k < w.length; k++) buf[o++] = w.charCodeAt(k);
    i += w.length;
    return true;
  };

  for (;;) {
    let c = text.charCodeAt(i);
    while (c === SPACE || c === LF || c === CR || c === TAB) c = text.charCodeAt(++i);
    if (state === S.After) {
      if (stack.length === 0) {
        if (i < n) return undefined;
        return new TextDecoder('utf-16le').decode(buf.subarray(0, o));
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
      c = text.charCodeAt(i);
      while (c === SPACE || c === LF || c === CR || c === TAB) c = text.charCodeAt(++i);
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
        let d = text.charCodeAt(i);
        while (d === SPACE || d === LF || d === CR || d === TAB) d = text.charCodeAt(++i);
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
      } else if (!(word('true') || word('false') || word('null') || readNumber())) return undefined;
      state = S.After;
    }
  }
}
