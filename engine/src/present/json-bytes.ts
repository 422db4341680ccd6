/**
 * The bytes of JSON text (RFC 8259) that both re-indenters work with: json.ts (a whole body)
 * and json-stream.ts (a body in chunks). Byte values, `\uXXXX` digits, how an escape is shown
 * (which stay escaped, surrogate pairs as one character), and UTF-8 encoding of a code point.
 */

export const SPACE = 32;
export const TAB = 9;
export const LF = 10;
export const CR = 13;
export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const COLON = 58;
export const OPEN_OBJECT = 123;
export const CLOSE_OBJECT = 125;
export const OPEN_ARRAY = 91;
export const CLOSE_ARRAY = 93;

export const TRUE = [116, 114, 117, 101] as const;
export const FALSE = [102, 97, 108, 115, 101] as const;
export const NULL = [110, 117, 108, 108] as const;

/** How a byte is named in an error message: `"x"` when printable ASCII, else `0xNN`. */
export function byteName(c: number): string {
  return c > 32 && c < 127 ? `"${String.fromCharCode(c)}"` : `0x${c.toString(16).padStart(2, '0')}`;
}

/** JSON's whitespace between tokens: space, tab, LF, CR. */
export const isWs = (c: number): boolean => c === SPACE || c === LF || c === CR || c === TAB;

/** The four hexadecimal digits at `text[at..at+4)` as a number; -1 when one is not a digit (or missing). */
export function hex4(text: Uint8Array, at: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const c = text[at + k]!;
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 65 && c <= 70) d = c - 55;
    else if (c >= 97 && c <= 102) d = c - 87;
    else return -1;
    v = v * 16 + d;
  }
  return v;
}

/**
 * Whether `\uXXXX` for code point `cp` stays escaped: `"`, `\` and control characters
 * (U+0000-U+001F, U+007F-U+009F), which shown as characters would change the meaning or hide
 * something. (Lone surrogates stay escaped too; the callers check those.)
 */
export const keepEscaped = (cp: number): boolean => cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp === QUOTE || cp === BACKSLASH;

/**
 * Whether `\` then byte `k` is one of JSON's two-character escapes (RFC 8259 section 7:
 * `\" \\ \/ \b \f \n \r \t`), which both re-indenters keep as written.
 */
export const isShortEscape = (k: number): boolean =>
  k === QUOTE || k === BACKSLASH || k === 47 || k === 98 || k === 102 || k === 110 || k === 114 || k === 116;

/** From {@link unicodeEscapeLength}: the bytes end before the escape's length is known. */
export const ESC_MORE = 0;
/** From {@link unicodeEscapeLength}: `\u` is not followed by four hexadecimal digits. */
export const ESC_BAD = -1;

/**
 * How many bytes of `text[at..end)`, which starts with `\u`, make one escape as both
 * re-indenters show it: 12 for a surrogate pair written as two escapes (`\uD83D\uDE00`, one
 * character), else 6; {@link ESC_MORE} when `end` comes before that is known (a stream waits for
 * more, a whole text is cut inside a string), {@link ESC_BAD} when the four digits are not hex.
 */
export function unicodeEscapeLength(text: Uint8Array, at: number, end: number): number {
  const have = end - at;
  if (have < 6) return ESC_MORE;
  const cp = hex4(text, at + 2);
  if (cp < 0) return ESC_BAD;
  if (cp < 0xd800 || cp > 0xdbff) return 6;
  // A high surrogate: a low one written as a second escape makes one character with it.
  if (have < 12 && (have < 7 || text[at + 6] === BACKSLASH) && (have < 8 || text[at + 7] === 117)) return ESC_MORE;
  const lo = have >= 12 && text[at + 6] === BACKSLASH && text[at + 7] === 117 ? hex4(text, at + 8) : -1;
  return lo >= 0xdc00 && lo <= 0xdfff ? 12 : 6;
}

/**
 * Write the escape `text[at..at+len)` (`len` from {@link unicodeEscapeLength}, 6 or 12) into
 * `buf` at `o` as both re-indenters show it: as the character, or as written when
 * {@link keepEscaped} says so or it is a lone surrogate. Writes at most `len` bytes (so a string's
 * output is never longer than its input); returns the new `o`.
 */
export function putUnicodeEscape(text: Uint8Array, at: number, len: number, buf: Uint8Array, o: number): number {
  const cp = hex4(text, at + 2);
  if (len === 12) return putUtf8(buf, o, 0x10000 + ((cp - 0xd800) << 10) + (hex4(text, at + 8) - 0xdc00));
  if ((cp >= 0xd800 && cp <= 0xdfff) || keepEscaped(cp)) {
    for (let m = 0; m < 6; m++) buf[o++] = text[at + m]!;
    return o;
  }
  return putUtf8(buf, o, cp);
}

/** Write the UTF-8 encoding of code point `cp` (not a surrogate) into `buf` at `o`; the new `o`. */
export function putUtf8(buf: Uint8Array, o: number, cp: number): number {
  if (cp < 0x80) buf[o++] = cp;
  else if (cp < 0x800) {
    buf[o++] = 0xc0 | (cp >> 6);
    buf[o++] = 0x80 | (cp & 0x3f);
  } else if (cp < 0x10000) {
    buf[o++] = 0xe0 | (cp >> 12);
    buf[o++] = 0x80 | ((cp >> 6) & 0x3f);
    buf[o++] = 0x80 | (cp & 0x3f);
  } else {
    buf[o++] = 0xf0 | (cp >> 18);
    buf[o++] = 0x80 | ((cp >> 12) & 0x3f);
    buf[o++] = 0x80 | ((cp >> 6) & 0x3f);
    buf[o++] = 0x80 | (cp & 0x3f);
  }
  return o;
}

// Where a number is, byte by byte (RFC 8259 section 6): after its `-`, after a leading `0`, in
// its integer digits, after `.`, in its fraction digits, after `e`, after the exponent's sign,
// in the exponent's digits.
export const NUM_MINUS = 0;
export const NUM_ZERO = 1;
export const NUM_INT = 2;
export const NUM_DOT = 3;
export const NUM_FRAC = 4;
export const NUM_E = 5;
export const NUM_E_SIGN = 6;
export const NUM_EXP = 7;
/** From {@link numberStep}: the byte ends the number (it belongs to what follows it). */
export const NUM_END = -1;
/** From {@link numberStep}: the byte cannot come there. */
export const NUM_BAD = -2;

/** The place in a number after byte `c` read at place `at`, or NUM_END or NUM_BAD. */
export function numberStep(at: number, c: number): number {
  const digit = c >= 48 && c <= 57;
  const e = c === 101 || c === 69;
  switch (at) {
    case NUM_MINUS:
      return c === 48 ? NUM_ZERO : digit ? NUM_INT : NUM_BAD;
    case NUM_ZERO:
      return c === 46 ? NUM_DOT : e ? NUM_E : NUM_END;
    case NUM_INT:
      return digit ? NUM_INT : c === 46 ? NUM_DOT : e ? NUM_E : NUM_END;
    case NUM_DOT:
      return digit ? NUM_FRAC : NUM_BAD;
    case NUM_FRAC:
      return digit ? NUM_FRAC : e ? NUM_E : NUM_END;
    case NUM_E:
      return c === 43 || c === 45 ? NUM_E_SIGN : digit ? NUM_EXP : NUM_BAD;
    case NUM_E_SIGN:
      return digit ? NUM_EXP : NUM_BAD;
    default:
      return digit ? NUM_EXP : NUM_END;
  }
}

/** Whether a number may end at place `at`. */
export const numberComplete = (at: number): boolean => at === NUM_ZERO || at === NUM_INT || at === NUM_FRAC || at === NUM_EXP;
