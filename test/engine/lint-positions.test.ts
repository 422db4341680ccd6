// lint/positions.ts's codePointColumn: columns in code points (Emacs characters,
// docs/protocol.md) without an array per diagnostic; the same as counting a spread of the
// line's start, surrogate pairs, lone surrogates and indexes past the end included; and a
// diagnostic after an emoji lands at its character column.
import { describe, expect, it } from 'vitest';
import { lintSheet } from '../../engine/src/lint/diagnostics.js';
import { codePointColumn, lineColumn } from '../../engine/src/lint/positions.js';
import { parseSheet } from '../../engine/src/sheet/parse.js';

describe('codePointColumn', () => {
  const lines = ['', 'plain ascii', 'é and ü', 'a😀b😀c', '\ud83d lone high', 'lone low \ude00 x', '😀😀😀'];
  for (const line of lines) {
    it(JSON.stringify(line), () => {
      for (let i = 0; i <= line.length + 2; i++) expect(codePointColumn(line, i)).toBe([...line.slice(0, i)].length + 1);
    });
  }
  it('lineColumn counts the last line in code points', () => {
    expect(lineColumn('ab\n😀x', 6)).toEqual({ line: 2, column: 3 });
  });
});

describe('a diagnostic after an emoji', () => {
  it('is at its character column', () => {
    const text = ':base = http://h\nPOST :base/😀😀/:nope\n';
    const [d] = lintSheet(text, parseSheet(text));
    expect(d).toMatchObject({ line: 2, column: 15, endLine: 2, endColumn: 20, code: 'unknown-variable' });
  });
});
