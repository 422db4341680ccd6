/**
 * `sheet/outline`'s answer as its changes since the last one the client kept (`since`,
 * docs/protocol.md "`sheet/outline`"): sheet-mode refreshes its kept outline in the background
 * after each pause in typing, and the whole outline of a 5,000-request sheet is about 550 KB of
 * JSON that held Emacs for about 180 ms to read (issue 37 item 9). An edit changes a few entries
 * and moves the lines of those after it by the same number, so the answer is: the entries kept
 * at the start, how many old ones are dropped, the new ones inserted, and the line delta of the
 * kept tail.
 */
import type { Outline } from '../session/types.js';

/** One list's change: keep `keep` entries, drop `drop`, insert `insert`, move the rest's lines by `delta`. */
export interface OutlineDelta {
  keep: number;
  drop: number;
  insert: unknown[];
  delta: number;
}
/** The changes of the three lists of an outline. */
export interface OutlineDiff {
  requests: OutlineDelta;
  variables: OutlineDelta;
  diagnostics: OutlineDelta;
}

const LINE_KEYS = ['line', 'startLine', 'endLine', 'bodyLine'] as const;
type Entry = Record<string, unknown> & { line?: number; prompts?: { line: number }[] };

/** `e` with its lines (and its prompts' lines) moved by `d`. */
function moved(e: Entry, d: number): Entry {
  if (!d) return e;
  const c: Entry = { ...e };
  for (const k of LINE_KEYS) if (typeof c[k] === 'number') c[k] = (c[k] as number) + d;
  if (Array.isArray(c.prompts)) c.prompts = c.prompts.map((p) => ({ ...p, line: p.line + d }));
  return c;
}

/** The change from `old` to `now`: common head kept, common tail (moved by one delta) kept. */
export function listDelta(old: readonly Entry[], now: readonly Entry[]): OutlineDelta {
  const key = (e: Entry) => JSON.stringify(e);
  let keep = 0;
  while (keep < old.length && keep < now.length && key(old[keep]!) === key(now[keep]!)) keep++;
  const d = old.length > keep && now.length > keep ? (now[now.length - 1]!.line ?? 0) - (old[old.length - 1]!.line ?? 0) : 0;
  let tail = 0;
  while (tail < old.length - keep && tail < now.length - keep && key(moved(old[old.length - 1 - tail]!, d)) === key(now[now.length - 1 - tail]!)) tail++;
  return { keep, drop: old.length - keep - tail, insert: now.slice(keep, now.length - tail), delta: tail ? d : 0 };
}

/** The changes from outline `old` to `now`. */
export function outlineDiff(old: Outline, now: Outline): OutlineDiff {
  const e = (x: unknown) => x as Entry[];
  return {
    requests: listDelta(e(old.requests), e(now.requests)),
    variables: listDelta(e(old.variables), e(now.variables)),
    diagnostics: listDelta(e(old.diagnostics), e(now.diagnostics)),
  };
}

/**
 * The outlines last answered per document (`doc.id`), each with a version the client names as
 * `since`; at most `max` documents, the least recently answered dropped.
 */
export class OutlineVersions {
  private readonly last = new Map<string, { version: number; outline: Outline }>();
  private counter = 0;
  constructor(private readonly max = 16) {}

  /**
   * The answer for document `id`'s new `outline`: the changes when `since` is the version kept
   * for it, else the whole outline; either with the new version.
   */
  answer(id: string | undefined, since: unknown, outline: Outline): Outline & { version?: number } | { version: number; base: number; diff: OutlineDiff } {
    if (id === undefined) return outline;
    const prev = this.last.get(id);
    const version = ++this.counter;
    this.last.delete(id);
    this.last.set(id, { version, outline });
    if (this.last.size > this.max) this.last.delete(this.last.keys().next().value!);
    if (prev && typeof since === 'number' && since === prev.version) return { version, base: prev.version, diff: outlineDiff(prev.outline, outline) };
    return { ...outline, version };
  }
}
