// The version number in one place (issue 15): engine/package.json's `version` is the engine's,
// the `sheet` command's, the shell CLI's and the JSON-RPC server's (engine/src/version.ts);
// everything else that writes a version must agree with it, and no engine source writes its own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../engine/src/version.js';
import { ENGINE_BUNDLE, root } from './helpers.js';

const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
const engineVersion = JSON.parse(read('engine/package.json')).version as string;

function walk(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)],
  );
}

describe('one version', () => {
  it('engine/package.json is a semver version and the engine exports it', () => {
    expect(engineVersion).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(VERSION).toBe(engineVersion);
  });

  it('the other package.json files agree', () => {
    for (const p of ['package.json', 'client-lib/package.json']) {
      expect({ p, v: JSON.parse(read(p)).version }).toEqual({ p, v: engineVersion });
    }
  });

  it('every Elisp Version: header and the clientVersion sheet-mode sends agree', () => {
    const files = fs.readdirSync(path.join(root, 'elisp')).filter((f) => f.endsWith('.el'));
    let headers = 0;
    for (const f of files) {
      const text = read(`elisp/${f}`);
      for (const m of text.matchAll(/^;; (?:Package-)?Version: (.+)$/gm)) {
        headers++;
        expect({ f, v: m[1]!.trim() }).toEqual({ f, v: engineVersion });
      }
      for (const m of text.matchAll(/:clientVersion "([^"]*)"/g)) expect({ f, v: m[1] }).toEqual({ f, v: engineVersion });
    }
    expect(headers).toBeGreaterThan(0);
  });

  it('no engine source writes a version of its own', () => {
    const offenders = walk('engine/src')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('version.ts'))
      .filter((f) => /VERSION\s*=\s*['"`]|version:\s*['"`]\d+\.\d+/.test(read(f)));
    expect(offenders).toEqual([]);
  });

  it('the bundled engine prints it (engine.cjs --version)', () => {
    expect(execFileSync(process.execPath, [ENGINE_BUNDLE, '--version'], { encoding: 'utf8' })).toBe(`sheet-engine ${engineVersion}\n`);
  });
});
