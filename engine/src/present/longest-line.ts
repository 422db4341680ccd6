/**
 * The longest line of a body, in characters (code points, as Emacs counts columns; the line
 * feed not counted), for the client's long-line protections (sheet-mode turns on `so-long`
 * past a few thousand: docs/sheet-mode.md, "The response buffer"). Line feeds are found with
 * `Buffer.indexOf` (memchr); characters are counted only where a line could be the longest.
 */
import { charLength } from './present.js';

/** Code points in UTF-8 `b[from..to)`: the bytes that are not continuation bytes (10xxxxxx). */
function utf8Chars(b: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if ((b[i]! & 0xc0) !== 0x80) n++;
  return n;
}

/** The longest line of UTF-8 text given in chunks (cut anywhere). */
export class LongestLine {
  /** Characters of the longest line so far (the open last line included). */
  max = 0;
  /** Characters of the line still open at the end of the last chunk. */
  private open = 0;

  /** Take the next chunk of UTF-8 bytes. */
  feed(chunk: Uint8Array): void {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let from = 0;
    let first = true;
    for (;;) {
      const lf = b.indexOf(10, from);
      const end = lf < 0 ? b.length : lf;
      // A line inside the chunk has at most as many characters as bytes: counted only when
      // that could beat the longest; the line continued from the last chunk always.
      if (first || lf < 0 || end - from > this.max) {
        const chars = (first ? this.open : 0) + utf8Chars(b, from, end);
        if (chars > this.max) this.max = chars;
        if (lf < 0) {
          this.open = chars;
          return;
        }
      }
      first = false;
      this.open = 0;
      from = lf + 1;
    }
  }
}

/** The longest line of `text`, in characters (code points). */
export function longestLineOf(text: string): number {
  let max = 0;
  let from = 0;
  for (;;) {
    const lf = text.indexOf('\n', from);
    const end = lf < 0 ? text.length : lf;
    // UTF-16 units are at least as many as code points: counted only when the line could win.
    if (end - from > max) max = Math.max(max, charLength(text.slice(from, end)));
    if (lf < 0) return max;
    from = lf + 1;
  }
}
