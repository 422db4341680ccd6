// The longest line of a body in characters (engine/src/present/longest-line.ts), for the
// client's so-long protection: UTF-8 chunks cut anywhere (inside a line, inside a character)
// give the count of the whole text, and the string version agrees.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LongestLine, longestLineOf } from '../../engine/src/present/longest-line.js';

/** The longest line of `text` by the plain definition: code points between line feeds. */
const plain = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

const chunked = (text: string, cuts: number[]) => {
  const bytes = Buffer.from(text, 'utf8');
  const l = new LongestLine();
  let from = 0;
  for (const at of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    l.feed(bytes.subarray(from, Math.max(from, at)));
    from = Math.max(from, at);
  }
  return l.max;
};

describe('longest line', () => {
  it.each([
    ['empty', '', 0],
    ['one line, no line feed', 'abc', 3],
    ['the last line without a line feed counts', 'ab\nabcd', 4],
    ['line feeds not counted', 'abc\n\n', 3],
    ['code points, not bytes or UTF-16 units', 'h\u00e9\u65e5\u{1f600}\nab', 4],
    ['CR is a character', 'ab\r\nc', 3],
  ])('%s', (_, text, want) => {
    expect(longestLineOf(text)).toBe(want);
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at <= bytes.length; at++) expect(chunked(text, [at])).toBe(want);
  });

  it('any text cut anywhere: the same as counting the whole', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.array(fc.nat(), { maxLength: 5 }), (t, cuts) => {
        const text = t.replace(/\r/g, '');
        expect(longestLineOf(text)).toBe(plain(text));
        expect(chunked(text, cuts)).toBe(plain(text));
      }),
      { numRuns: 300 },
    );
  });
});
