// batchedOut (engine/src/sheet-command/batched-out.ts): sheet's stdout in batches, written
// together after a short delay, at once past its size, on flush, never once stdout is closed.
import { describe, expect, it } from 'vitest';
import { batchedOut } from '../../engine/src/sheet-command/batched-out.js';

describe('batchedOut', () => {
  it('writes the lines of one stretch together, once, after the delay', async () => {
    const writes: string[] = [];
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const o = batchedOut((s) => (writes.push(s), wrote()), () => false, 5);
    o.out('a\n');
    o.out('b\n');
    expect(writes).toEqual([]);
    await written;
    expect(writes).toEqual(['a\nb\n']);
    o.flush();
    expect(writes).toEqual(['a\nb\n']);
  });

  it('writes at once past maxChars and on flush (stderr and prompts call it first)', () => {
    const writes: string[] = [];
    const o = batchedOut((s) => writes.push(s), () => false, 60_000, 4);
    o.out('ab');
    expect(writes).toEqual([]);
    o.out('cd');
    expect(writes).toEqual(['abcd']);
    o.out('e');
    o.flush();
    expect(writes).toEqual(['abcd', 'e']);
  });

  it('drops what is kept once stdout is closed', () => {
    const writes: string[] = [];
    let closed = false;
    const o = batchedOut((s) => writes.push(s), () => closed, 60_000);
    o.out('kept');
    closed = true;
    o.out('after');
    o.flush();
    expect(writes).toEqual([]);
  });
});
