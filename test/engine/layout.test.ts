// The engine's layout (docs/architecture.md, "Layers of the engine"; issue 15): a folder of
// engine/src imports only from folders listed above it in that table (and model.ts /
// errors.ts / version.ts), so no import runs back up (hooks/ -> rpc/ was one), and every
// folder has a README.md saying what belongs there. The order is read from the doc itself,
// so the doc and the code cannot drift apart. Issue 24 item 3: no file imports a file that
// imports it (no import cycle at all: a request goes down each layer once), and the front ends
// (the folders the table lists below `session/`) import the session, never each other.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './helpers.js';

const src = path.join(root, 'engine/src');
const folders = fs.readdirSync(src, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

/** The folders in the order of the architecture doc's layer table. */
function layerOrder(): string[] {
  const doc = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Layers of the engine'));
  if (!section) throw new Error('docs/architecture.md has no "Layers of the engine" section');
  return [...section.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((m) => m[1]!);
}

/** The engine/src folders a file imports from (relative imports only). */
function importedFolders(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const target = path.relative(src, path.resolve(path.dirname(file), m[1]!));
    const first = target.split(path.sep)[0]!;
    if (target.includes(path.sep) && !first.startsWith('..')) out.add(first);
  }
  return [...out];
}

/** Every .ts file of engine/src (relative paths) -> the engine/src files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of (fs.readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).sort()) {
    const text = fs.readFileSync(path.join(src, f), 'utf8');
    const to = new Set<string>();
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g)) {
      const target = path.relative(src, path.resolve(path.dirname(path.join(src, f)), m[1]!)) + '.ts';
      if (!target.startsWith('..') && target !== f) to.add(target);
    }
    graph.set(f, [...to]);
  }
  return graph;
}

/** The import cycles of `graph`, each as the files around it, first file smallest (Tarjan's components). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

describe('import cycles (the check itself)', () => {
  it('finds a pair of files that import each other, and a longer loop', () => {
    const g = new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']], ['c.ts', ['d.ts']], ['d.ts', ['e.ts']], ['e.ts', ['c.ts']], ['f.ts', ['a.ts']]]);
    expect(cycles(g)).toEqual([['a.ts', 'b.ts'], ['c.ts', 'd.ts', 'e.ts']]);
  });

  it('finds none in a tree', () => {
    expect(cycles(new Map([['a.ts', ['b.ts', 'c.ts']], ['b.ts', ['c.ts']], ['c.ts', []]]))).toEqual([]);
  });
});

describe('engine/src layout', () => {
  it('the architecture doc lists every folder once', () => {
    expect([...layerOrder()].sort()).toEqual(folders);
  });

  it('no folder imports from a folder listed below it', () => {
    const order = layerOrder();
    const upward: string[] = [];
    for (const folder of folders) {
      for (const f of fs.readdirSync(path.join(src, folder), { recursive: true }) as string[]) {
        if (!f.endsWith('.ts')) continue;
        for (const t of importedFolders(path.join(src, folder, f))) {
          if (t !== folder && order.indexOf(t) > order.indexOf(folder)) upward.push(`${folder}/${f} -> ${t}/`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it('every folder has a README.md', () => {
    expect(folders.filter((d) => !fs.existsSync(path.join(src, d, 'README.md')))).toEqual([]);
  });

  it('no file imports a file that imports it, directly or through others', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    expect(cycles(graph)).toEqual([]);
  });

  it('the front ends import the session, never each other', () => {
    const order = layerOrder();
    const frontEnds = order.slice(order.indexOf('session') + 1);
    expect(frontEnds.length).toBeGreaterThanOrEqual(3);
    const across: string[] = [];
    for (const folder of frontEnds) {
      const files = (fs.readdirSync(path.join(src, folder), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
      const reached = new Set(files.flatMap((f) => importedFolders(path.join(src, folder, f))));
      expect([folder, reached.has('session')]).toEqual([folder, true]);
      for (const f of files) for (const t of importedFolders(path.join(src, folder, f))) if (t !== folder && frontEnds.includes(t)) across.push(`${folder}/${f} -> ${t}/`);
    }
    expect(across).toEqual([]);
  });
});
