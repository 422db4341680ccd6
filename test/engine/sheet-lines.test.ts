// engine/src/sheet/lines.ts: the lines of a text re-split only where an edit changed it must be
// exactly splitLines' lines, whatever the edit (a table of edge cases, then random edits), and
// the unchanged lines the very strings of the last split.
import { describe, expect, it } from 'vitest';
import { linesOf } from '../../engine/src/sheet/lines.js';
import { splitLines } from '../../engine/src/sheet/parse.js';

/** A small deterministic random generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('linesOf after an edit', () => {
  const cases: [string, string, string][] = [
    ['typing at the end', 'GET :base/\n# c\nPOST x\n', 'GET :base/\n# c\nPOST xy\n'],
    ['a newline typed', 'a\nb\nc', 'a\nb\n\nc'],
    ['a newline deleted', 'a\nb\n\nc\n', 'a\nb\nc\n'],
    ['the last newline added', 'a\nb', 'a\nb\n'],
    ['the last newline removed', 'a\nb\n', 'a\nb'],
    ['emptied', 'a\nb\n', ''],
    ['from empty', '', 'x\n'],
    ['only newlines', '\n\n', '\n\n\n'],
    ['a repeated line inserted', 'x\nx\nx\n', 'x\nx\nx\nx\n'],
    ['the first line changed', 'abc\ndef\n', 'abd\ndef\n'],
    ['a CR appears (the whole split)', 'a\nb\n', 'a\r\nb\n'],
    ['a BOM', '\ufeffa\nb', '\ufeffa\nbc'],
  ];
  for (const [what, before, after] of cases) {
    it(what, () => {
      linesOf(before);
      expect(linesOf(after)).toEqual(splitLines(after));
    });
  }

  it('reuses the unchanged lines of a big text', () => {
    const text = Array.from({ length: 3000 }, (_, i) => `POST :base/items/${i}`).join('\n') + '\n';
    const first = linesOf(text);
    const edited = text.slice(0, 100) + 'x' + text.slice(100);
    const second = linesOf(edited);
    expect(second).toEqual(splitLines(edited));
    expect(second[2999]).toBe(first[2999]);
    expect(second.filter((l, i) => l !== first[i])).toHaveLength(1);
  });

  it('random edits give splitLines lines', () => {
    const next = random(25);
    const pieces = ['\n', '#', 'GET :a\n', 'x', '\n\n', '# c\n', '{"a": 1}', ' '];
    let text = 'GET :base/\n# comment\nPOST :base/x\n\n{"a": 1}\n#\n';
    linesOf(text);
    for (let round = 0; round < 3000; round++) {
      const from = Math.floor(next() * (text.length + 1));
      const to = Math.min(text.length, from + Math.floor(next() * 4) * (next() < 0.5 ? 1 : 0));
      const insert = next() < 0.3 ? '' : pieces[Math.floor(next() * pieces.length)]!;
      text = text.slice(0, from) + insert + text.slice(to);
      if (text.length > 400) text = text.slice(200);
      expect(linesOf(text), `round ${round}: ${JSON.stringify(text)}`).toEqual(splitLines(text));
    }
  });
});
