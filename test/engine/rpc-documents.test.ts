// Texts kept in step by their changes (engine/src/emacs/documents.ts; docs/protocol.md, "Texts
// kept in step"): over the real stdio server, a whole text, then changes in code points (an
// emoji before the edit counts as one, as in Emacs), and each way a copy goes out of step:
// a base the engine does not have, a size that does not match, a change past the end, a copy
// dropped because more than MAX_DOCUMENTS texts are kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENTS } from '../../engine/src/emacs/documents.js';
import { spawnEngine, type EngineProcess } from './helpers.js';

let engine: EngineProcess;
beforeAll(async () => {
  engine = spawnEngine();
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
});
afterAll(async () => {
  await engine.close();
});

type Diag = { line: number; column: number; message: string };
const diagnostics = async (doc: object) => ((await engine.conn.sendRequest('sheet/diagnostics', { doc })) as { diagnostics: Diag[] }).diagnostics;
const cp = (s: string) => [...s].length;

describe('sheet/diagnostics and sheet/completions on a text kept by its changes', () => {
  it('applies changes in code points, an emoji counting one', async () => {
    const text = '# 😀 start\nGET http://h/:a\n';
    expect((await diagnostics({ id: 'd1', version: 1, text, size: cp(text) })).map((d) => [d.line, d.column])).toEqual([[2, 14]]);
    // Declare :a above the request: insert at code point 10 (after "# 😀 start\n").
    const after = '# 😀 start\n:a = 1\nGET http://h/:a\n';
    expect(await diagnostics({ id: 'd1', version: 2, base: 1, changes: [{ start: 10, end: 10, text: ':a = 1\n' }], size: cp(after) })).toEqual([]);
    // Two changes in one go, the second on the text the first left: rename :a, then its use.
    const renamed = '# 😀 start\n:b = 1\nGET http://h/:c\n';
    const changes = [
      { start: 11, end: 12, text: 'b' },
      { start: 31, end: 32, text: 'c' },
    ];
    expect((await diagnostics({ id: 'd1', version: 3, base: 2, changes, size: cp(renamed) })).map((d) => [d.line, d.column, d.message])).toEqual([[3, 14, ':c is not a declared variable; it is sent as written']]);
    const c = (await engine.conn.sendRequest('sheet/completions', { doc: { id: 'd1', version: 4, base: 3, changes: [], size: cp(renamed) }, line: 3 })) as { variables: { name: string }[] };
    expect(c.variables.map((v) => v.name)).toEqual([':b']);
    // Eldoc's look-ups: sheet/variables and sheet/curl on the same kept text.
    const v = (await engine.conn.sendRequest('sheet/variables', { doc: { id: 'd1', version: 5, base: 4, changes: [{ start: 15, end: 16, text: '42' }], size: cp(renamed) + 1 }, line: 3, lookup: true })) as { variables: { name: string; value: string }[] };
    expect(v.variables).toMatchObject([{ name: ':b', value: '42' }]);
    const u = (await engine.conn.sendRequest('sheet/curl', { doc: { id: 'd1', version: 6, base: 5, changes: [{ start: 32, end: 33, text: 'b' }], size: cp(renamed) + 1 }, line: 3, lookup: true })) as { url: string };
    expect(u.url).toBe('http://h/42');
  });

  it('a copy out of step is refused as stale, and the whole text starts it again', async () => {
    const text = 'GET http://h/\n';
    await diagnostics({ id: 'd2', version: 1, text, size: cp(text) });
    const stale = { data: { code: 'bad-argument', details: { stale: true } } };
    await expect(diagnostics({ id: 'd2', version: 3, base: 2, changes: [], size: cp(text) })).rejects.toMatchObject(stale);
    await expect(diagnostics({ id: 'd2', version: 2, base: 1, changes: [{ start: 0, end: 0, text: 'x' }], size: cp(text) })).rejects.toMatchObject(stale);
    // The size check dropped the copy: even the right base is stale now.
    await expect(diagnostics({ id: 'd2', version: 2, base: 1, changes: [], size: cp(text) })).rejects.toMatchObject(stale);
    await diagnostics({ id: 'd2', version: 5, text, size: cp(text) });
    await expect(diagnostics({ id: 'd2', version: 6, base: 5, changes: [{ start: 99, end: 100, text: '' }], size: 13 })).rejects.toMatchObject(stale);
    await expect(diagnostics({ id: 'd2', version: 6, base: 5 })).rejects.toMatchObject({ data: { code: 'bad-argument' } });
  });

  it(`keeps at most ${MAX_DOCUMENTS} texts: the least recently used goes`, async () => {
    for (let i = 0; i <= MAX_DOCUMENTS; i++) await diagnostics({ id: `many${i}`, version: 1, text: 'x', size: 1 });
    await expect(diagnostics({ id: 'many0', version: 2, base: 1, changes: [], size: 1 })).rejects.toMatchObject({ data: { details: { stale: true } } });
    expect(await diagnostics({ id: `many${MAX_DOCUMENTS}`, version: 2, base: 1, changes: [], size: 1 })).toEqual([]);
  });
});
