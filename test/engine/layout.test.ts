// The engine's layout (docs/architecture.md, "Layers of the engine"; issue 15): a folder of
// engine/src imports only from folders listed above it in that table (and model.ts /
// errors.ts / version.ts), so no import runs back up (hooks/ -> rpc/ was one), and every
// folder has a README.md saying what belongs there. The order is read from the doc itself,
// so the doc and the code cannot drift apart.
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
});
