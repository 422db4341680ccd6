// Issue 37 item 9: `sheet/outline`'s answer as its changes since the client's kept outline
// (emacs/outline-diff.ts). Applying the changes as sheet-mode does (keep the head, drop, insert,
// move the tail's lines; elisp/sheet-outline-kept.el `sheet--outline-patched`) gives the new
// outline, for outlines of real sheets before and after real edits.
import { describe, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
import { listDelta, OutlineVersions, type OutlineDelta } from '../../engine/src/emacs/outline-diff.js';

type Entry = Record<string, unknown> & { line?: number; prompts?: { line: number }[] };
function apply(old: Entry[], c: OutlineDelta): Entry[] {
  const move = (e: Entry): Entry => {
    const m: Entry = { ...e };
    for (const k of ['line', 'startLine', 'endLine', 'bodyLine']) if (typeof m[k] === 'number') m[k] = (m[k] as number) + c.delta;
    if (m.prompts) m.prompts = m.prompts.map((p) => ({ ...p, line: p.line + c.delta }));
    return m;
  };
  return [...old.slice(0, c.keep), ...(c.insert as Entry[]), ...old.slice(c.keep + c.drop).map(move)];
}

const sheet = (n: number) => Array.from({ length: n }, (_, i) => `# r${i}\nPOST :base/items/${i}\nContent-Type: application/json\n\n{"id": ${i}}\n`).join('#\n');
const edits: [string, (t: string) => string][] = [
  ['a comment line added mid-sheet', (t) => t.replace('# r20\n', '# r20\n# note\n')],
  ['a header line added in one request', (t) => t.replace('POST :base/items/7\n', 'POST :base/items/7\nX-A: 1\n')],
  ['a request added', (t) => t.replace('# r30\n', 'GET :base/new\n#\n# r30\n')],
  ['a request removed', (t) => t.replace(/# r12\nPOST[^#]*#\n/, '')],
  ['lines removed at the top', (t) => t.replace('# r0\n', '')],
  ['a method made unknown (refused, still listed)', (t) => t.replace('POST :base/items/5\n', 'FETCH :base/items/5\n')],
  ['nothing changed', (t) => t],
];

describe('outline changes', () => {
  const s = new Session(undefined);
  for (const [name, edit] of edits) {
    it(`${name}: the changes rebuild the new outline`, () => {
      const before = sheet(50);
      const old = s.outline(before);
      const now = s.outline(edit(before));
      for (const key of ['requests', 'variables', 'diagnostics'] as const) {
        const c = listDelta(old[key] as unknown as Entry[], now[key] as unknown as Entry[]);
        expect(apply(old[key] as unknown as Entry[], c)).toEqual(now[key]);
        // Small: an edit sends the entries it touched, not the sheet's.
        if (key === 'requests') expect(c.insert.length).toBeLessThanOrEqual(2);
      }
    });
  }

  it('answers the changes only to the version kept; else the whole outline', () => {
    const v = new OutlineVersions();
    const o = s.outline(sheet(3));
    const first = v.answer('a#1', undefined, o) as { version: number };
    expect(first).toMatchObject({ requests: o.requests });
    const second = v.answer('a#1', first.version, o);
    expect(second).toMatchObject({ base: first.version, diff: { requests: { keep: 3, drop: 0, insert: [] } } });
    // An old version (an answer the client dropped): the whole outline again.
    expect(v.answer('a#1', first.version, o)).toMatchObject({ requests: o.requests });
    // No document id (the whole text sent): the outline as before, no version.
    expect(v.answer(undefined, 1, o)).toBe(o);
  });
});
