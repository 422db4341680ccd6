/**
 * The JSON re-indenter of json.ts as a stream: UTF-8 bytes go in chunk by chunk (cut
 * anywhere, even inside a string, an escape, a number or a multi-byte character) and the
 * re-indented bytes come out as they are known, in the same layout and with the same string
 * handling as {@link prettyJsonUtf8} (numbers and keys as sent, `\uXXXX` shown as characters
 * where that changes nothing, other escapes as written). A state machine over bytes: it
 * never parses a value, never holds one (a 100 MB string passes through), and keeps only its
 * state, one byte per level of nesting and at most 12 bytes of a pending escape.
 * Grammar: RFC 8259. Used by session/spill.ts for bodies written to a file as they arrive.
 */

import { BACKSLASH, byteName, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, ESC_BAD, ESC_MORE, FALSE, isShortEscape, isWs, LF, NULL } from './json-bytes.js';
import { NUM_BAD, NUM_END, NUM_EXP, NUM_FRAC, NUM_INT, NUM_MINUS, NUM_ZERO, numberComplete, numberStep } from './json-bytes.js';
import { OPEN_ARRAY, OPEN_OBJECT, putUnicodeEscape, QUOTE, SPACE, TRUE, unicodeEscapeLength } from './json-bytes.js';

const enum St {
  /** At the very start: a byte order mark may come. */
  Start,
  Value,
  Key,
  Colon,
  After,
  /** `{` or `[` written; the first byte after it says whether it is empty. */
  Open,
  Str,
  Esc,
  Num,
  Word,
}

/** The literals by their first byte. */
const WORDS: Record<number, readonly number[]> = { 116: TRUE, 102: FALSE, 110: NULL };

export interface JsonStreamOptions {
  /** One level of indentation (default two spaces, as `JSON.stringify(v, null, 2)`). */
  indent?: string;
  /**
   * Give up (an error naming why) when the output would be more than this many times the
   * input plus 1 MiB: deep nesting makes indentation grow with the square of the depth.
   * Default 32; Infinity never gives up.
   */
  maxGrowth?: number;
}

/**
 * A streaming JSON re-indenter. `push` each chunk, then `end`; once `error` is set the input
 * is known not to be JSON (or too deep to indent), and `push`/`end` produce nothing more.
 * @example
 *   const r = new JsonReindenter();
 *   out.write(r.push(chunk1)); out.write(r.push(chunk2));
 *   const last = r.end(); if (last === undefined) console.log(r.error);
 */
export class JsonReindenter {
  /** Why the input is not pretty-printed (not JSON, where), once known; else undefined. */
  error: string | undefined;
  /** Bytes taken in so far. */
  bytesIn = 0;
  /** Bytes given out so far. */
  bytesOut = 0;

  private state = St.Start;
  private bom = 0;
  /** `{` or `[` per open level. */
  private stack = new Uint8Array(64);
  private depth = 0;
  private keyString = false;
  private esc = new Uint8Array(12);
  private escLen = 0;
  /** Offset in the body of the pending escape's backslash. */
  private escAt = 0;
  /** Where the number being read is (json-bytes.ts, `NUM_*`). */
  private num = NUM_MINUS;
  private word: readonly number[] = WORDS[116]!;
  private wordAt = 0;
  private readonly ind: Uint8Array;
  private readonly maxGrowth: number;
  private buf = new Uint8Array(0);
  private o = 0;
  /** The most bytes the output may reach by the end of the current chunk (`maxGrowth`). */
  private limitOut = Infinity;

  constructor(opts: JsonStreamOptions = {}) {
    this.ind = Buffer.from(opts.indent ?? '  ', 'utf8');
    this.maxGrowth = opts.maxGrowth ?? 32;
  }

  /**
   * Take the next chunk of the body.
   * @returns the re-indented bytes this chunk completes (possibly empty); empty once `error`.
   */
  push(chunk: Uint8Array): Uint8Array {
    if (this.error !== undefined) return new Uint8Array(0);
    // Not zero-filled: every byte handed out is written first.
    this.buf = Buffer.allocUnsafe(Math.max(4096, chunk.length * 2));
    this.o = 0;
    this.limitOut = this.maxGrowth * (this.bytesIn + chunk.length) + 1024 * 1024;
    this.feed(chunk, 0, chunk.length);
    this.bytesIn += chunk.length;
    const out = this.take();
    return this.error === undefined ? out : new Uint8Array(0);
  }

  /**
   * The input is complete.
   * @returns the last bytes of the output, or undefined (with `error` set) when the input,
   *   as a whole, is not one JSON text (RFC 8259; whitespace around it allowed).
   */
  end(): Uint8Array | undefined {
    if (this.error !== undefined) return undefined;
    this.buf = new Uint8Array(64);
    this.o = 0;
    if (this.state === St.Num && numberComplete(this.num)) this.state = St.After;
    if (this.state !== St.After || this.depth !== 0) {
      this.fail(this.state === St.Str || this.state === St.Esc ? 'it ends inside a string' : this.state === St.Start ? 'it is empty' : 'it ends before the JSON text does');
      return undefined;
    }
    return this.take();
  }

  private take(): Uint8Array {
    this.bytesOut += this.o;
    return this.buf.subarray(0, this.o);
  }

  private fail(why: string, at?: number): void {
    this.error = at === undefined ? `not valid JSON: ${why}` : `not valid JSON at byte ${at}: ${why}`;
    this.state = St.Start;
  }

  private ensure(more: number): void {
    if (this.o + more <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.o + more));
    next.set(this.buf.subarray(0, this.o));
    this.buf = next;
  }

  private put(c: number): void {
    this.ensure(1);
    this.buf[this.o++] = c;
  }

  /** A new line at the current depth; false (failed) when the output would grow too much. */
  private newline(): boolean {
    const ind = this.ind;
    const il = ind.length;
    if (this.bytesOut + this.o + 1 + this.depth * il > this.limitOut) {
      this.fail(`indented it would be more than ${this.maxGrowth} times its size (nested ${this.depth} levels deep)`);
      return false;
    }
    this.ensure(1 + this.depth * il);
    const b = this.buf;
    let o = this.o;
    b[o++] = LF;
    if (il === 2 && ind[0] === SPACE && ind[1] === SPACE) {
      // A loop: TypedArray.fill costs more than it saves on a few bytes.
      const to = o + 2 * this.depth;
      if (to - o > 64) {
        b.fill(SPACE, o, to);
        o = to;
      } else while (o < to) b[o++] = SPACE;
    } else for (let d = 0; d < this.depth; d++) for (let k = 0; k < il; k++) b[o++] = ind[k]!;
    this.o = o;
    return true;
  }

  private pushLevel(c: number): void {
    if (this.depth === this.stack.length) {
      const next = new Uint8Array(this.stack.length * 2);
      next.set(this.stack);
      this.stack = next;
    }
    this.stack[this.depth++] = c;
  }

  /** Bytes `b[i..n)` through the state machine; `base` + index is the byte's offset in the body. */
  private feed(b: Uint8Array, i: number, n: number, base = this.bytesIn): void {
    while (i < n) {
      const c = b[i]!;
      switch (this.state) {
        case St.Start:
          if (this.bom === 0 && c !== 0xef) {
            this.state = St.Value;
            continue;
          }
          if (c !== [0xef, 0xbb, 0xbf][this.bom]) return this.fail(`unexpected ${byteName(c)}`, base + i);
          if (++this.bom === 3) this.state = St.Value;
          i++;
          break;
        case St.Str: {
          // The hot loop: copy the string's bytes up to a quote, a backslash or a control byte.
          this.ensure(n - i);
          const out = this.buf;
          let o = this.o;
          let d = c;
          while (d !== QUOTE && d !== BACKSLASH && d >= 0x20) {
            out[o++] = d;
            if (++i === n) break;
            d = b[i]!;
          }
          this.o = o;
          if (i === n) break;
          if (d < 0x20) return this.fail(`control character ${byteName(d)} inside a string`, base + i);
          i++;
          if (d === QUOTE) {
            out[this.o++] = QUOTE;
            this.state = this.keyString ? St.Colon : St.After;
          } else {
            this.esc[0] = BACKSLASH;
            this.escLen = 1;
            this.escAt = base + i - 1;
            this.state = St.Esc;
          }
          break;
        }
        case St.Esc:
          this.esc[this.escLen++] = c;
          i++;
          if (!this.escape()) return;
          break;
        case St.Num: {
          const num = this.num;
          if (c >= 48 && c <= 57 && (num === NUM_INT || num === NUM_FRAC || num === NUM_EXP)) {
            // The digits that follow, in one loop.
            this.ensure(n - i);
            const out = this.buf;
            let o = this.o;
            let d = c;
            do {
              out[o++] = d;
              if (++i === n) break;
              d = b[i]!;
            } while (d >= 48 && d <= 57);
            this.o = o;
            continue;
          }
          const next = numberStep(num, c);
          if (next === NUM_END) {
            this.state = St.After;
            continue;
          }
          if (next === NUM_BAD) return this.fail(`unexpected ${byteName(c)} in a number`, base + i);
          this.num = next;
          this.put(c);
          i++;
          break;
        }
        case St.Word:
          if (c !== this.word[this.wordAt]) return this.fail(`unexpected ${byteName(c)}`, base + i);
          this.put(c);
          i++;
          if (++this.wordAt === this.word.length) this.state = St.After;
          break;
        default: {
          if (isWs(c)) {
            i++;
            break;
          }
          // The most frequent tokens here, inline; the rest in token().
          const st = this.state;
          if (c === QUOTE && (st === St.Value || st === St.Key)) {
            this.put(QUOTE);
            this.keyString = st === St.Key;
            this.state = St.Str;
          } else if (c === COLON && st === St.Colon) {
            this.ensure(2);
            this.buf[this.o++] = COLON;
            this.buf[this.o++] = SPACE;
            this.state = St.Value;
          } else if (!this.token(c, base + i)) return;
          i++;
        }
      }
    }
  }

  /** A byte outside strings, numbers and words, not whitespace; false when it fails. */
  private token(c: number, at: number): boolean {
    switch (this.state) {
      case St.Open: {
        const open = this.stack[this.depth - 1]!;
        if (c === (open === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          this.depth--;
          this.put(c);
          this.state = St.After;
          return true;
        }
        if (!this.newline()) return false;
        this.state = open === OPEN_OBJECT ? St.Key : St.Value;
        return this.token(c, at);
      }
      case St.Key:
        if (c !== QUOTE) return this.failAt(c, at);
        this.put(QUOTE);
        this.keyString = true;
        this.state = St.Str;
        return true;
      case St.Colon:
        if (c !== COLON) return this.failAt(c, at);
        this.put(COLON);
        this.put(SPACE);
        this.state = St.Value;
        return true;
      case St.After: {
        if (this.depth === 0) return this.failAt(c, at, 'after the JSON text');
        const top = this.stack[this.depth - 1]!;
        if (c === COMMA) {
          this.put(COMMA);
          if (!this.newline()) return false;
          this.state = top === OPEN_OBJECT ? St.Key : St.Value;
          return true;
        }
        if (c === (top === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          this.depth--;
          if (!this.newline()) return false;
          this.put(c);
          return true;
        }
        return this.failAt(c, at);
      }
      default: // St.Value
        if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
          this.put(c);
          this.pushLevel(c);
          this.state = St.Open;
        } else if (c === QUOTE) {
          this.put(QUOTE);
          this.keyString = false;
          this.state = St.Str;
        } else if (c === 45 || (c >= 48 && c <= 57)) {
          this.put(c);
          this.num = c === 45 ? NUM_MINUS : c === 48 ? NUM_ZERO : NUM_INT;
          this.state = St.Num;
        } else if (WORDS[c]) {
          this.put(c);
          this.word = WORDS[c]!;
          this.wordAt = 1;
          this.state = St.Word;
        } else return this.failAt(c, at);
        return true;
    }
  }

  private failAt(c: number, at: number, where = ''): false {
    this.fail(`unexpected ${byteName(c)}${where ? ' ' + where : ''}`, at);
    return false;
  }

  /**
   * The escape in `esc[0..escLen)` (it starts with a backslash): written out once complete,
   * as json.ts writes it; false when it fails.
   */
  private escape(): boolean {
    const at = this.escAt;
    const e = this.esc;
    const len = this.escLen;
    if (len < 2) return true;
    if (e[1] !== 117 /* u */) {
      const k = e[1]!;
      if (isShortEscape(k)) {
        this.put(BACKSLASH);
        this.put(k);
        this.state = St.Str;
        return true;
      }
      this.fail(`unknown escape \\${String.fromCharCode(k)}`, at);
      return false;
    }
    const used = unicodeEscapeLength(e, 0, len);
    if (used === ESC_MORE) return true;
    if (used === ESC_BAD) {
      this.fail('\\u not followed by four hexadecimal digits', at);
      return false;
    }
    this.ensure(used);
    this.o = putUnicodeEscape(e, 0, used, this.buf, this.o);
    this.state = St.Str;
    if (used === len) return true;
    // A high surrogate not followed by a low one stays as written; what followed it is read again.
    const rest = e.slice(used, len);
    this.feed(rest, 0, rest.length, at + used);
    return this.error === undefined;
  }
}

/**
 * Why `input` (whole UTF-8 bytes) is not JSON, as {@link JsonReindenter} words it, or
 * undefined when it is JSON. For the trailer of a body json.ts could not re-indent.
 */
export function jsonError(input: Uint8Array): string | undefined {
  const r = new JsonReindenter({ maxGrowth: Infinity });
  r.push(input);
  return r.end() === undefined ? r.error : undefined;
}
