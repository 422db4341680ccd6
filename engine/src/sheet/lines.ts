/**
 * The lines of a sheet's text as {@link splitLines} gives them, remembered for the next text:
 * an editor sends a new text per keystroke (engine/src/emacs/documents.ts), and splitting 700 KB
 * into 35,000 fresh strings each time cost a few milliseconds, more in the garbage collector,
 * and made the incremental parser compare every line by content (issue 25's 50 ms target for
 * diagnostics while typing; docs/benchmarks.md). Here the part of the text an edit changed is
 * found by comparing the new text with the last one from both ends, only the lines it touches
 * are split again, and the others are the very strings of the last split (so the parser's
 * comparison is by identity). Pure; memory: the last text and its lines.
 */
import { splitLines } from './text.js';

/** The last text split, its lines, and whether it is plain (no BOM, no CR: offsets are lines' offsets). */
let memo: { text: string; lines: string[]; plain: boolean } | undefined;

/** No BOM, no carriage return: {@link splitLines} is `text.split('\n')` (without a last empty line). */
const isPlain = (text: string) => text.charCodeAt(0) !== 0xfeff && !text.includes('\r');

/** The length of the common prefix of `a` and `b`, at most `max`: whole blocks first, then characters. */
function commonPrefix(a: string, b: string, max: number): number {
  let p = 0;
  for (let step = 1 << 15; step >= 1; step >>= 1) while (p + step <= max && a.slice(p, p + step) === b.slice(p, p + step)) p += step;
  return p;
}

/** The length of the common suffix of `a` and `b`, at most `max`. */
function commonSuffix(a: string, b: string, max: number): number {
  let s = 0;
  for (let step = 1 << 15; step >= 1; step >>= 1) while (s + step <= max && a.slice(a.length - s - step, a.length - s) === b.slice(b.length - s - step, b.length - s)) s += step;
  return s;
}

/** How many `\n` are in `text` from `from` to `to` (exclusive). */
function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * {@link splitLines} of `text`, given the last plain text `old` and its lines: the lines wholly
 * inside the unchanged start and end are reused, the rest split. Works on the raw lines
 * (`text.split('\n')`: splitLines drops the last, empty one of a text ending in a newline).
 */
function patch(old: string, oldLines: string[], text: string): string[] {
  const popped = old.endsWith('\n');
  const oldRaw = oldLines.length + (popped ? 1 : 0);
  const max = Math.min(old.length, text.length);
  const p = commonPrefix(old, text, max);
  const s = commonSuffix(old, text, max - p);
  // The changed lines start at the line holding the first changed character ...
  const a = p === 0 ? 0 : old.lastIndexOf('\n', p - 1) + 1;
  // ... and end before the first line that starts after a newline inside the unchanged end.
  const nl = old.indexOf('\n', old.length - s);
  const endOld = nl === -1 ? old.length : nl + 1;
  // Line indexes, the newlines counted over the shorter of the unchanged start and end.
  const changed = newlines(old, a, endOld);
  const before = a <= old.length - endOld ? newlines(old, 0, a) : oldRaw - 1 - newlines(old, endOld, old.length) - changed;
  const middle = text.slice(a, nl === -1 ? text.length : endOld - 1 + text.length - old.length).split('\n');
  const lines = oldLines.slice(0, before);
  for (const m of middle) lines.push(m);
  if (nl !== -1) {
    for (let i = before + changed; i < oldLines.length; i++) lines.push(oldLines[i]!);
    if (popped) lines.push('');
  }
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** {@link splitLines} of `text`, re-using the last call's split where the text is unchanged. */
export function linesOf(text: string): string[] {
  if (memo?.text === text) return memo.lines;
  const plain = isPlain(text);
  const lines = plain && memo?.plain ? patch(memo.text, memo.lines, text) : splitLines(text);
  memo = { text, lines, plain };
  return lines;
}
