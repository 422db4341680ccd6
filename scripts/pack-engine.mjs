#!/usr/bin/env node
// The npm package `sheet-rest` (engine/) ships files that live outside engine/ in the
// repository: shell/rest with its completion files, LICENSE and elisp/*.el (sheet-mode, found with
// `sheet elisp-path`, and sheet-batch.el, which `sheet run` needs). npm packs only the package folder,
// so engine/package.json's `prepack` runs this to copy them in, and `postpack` runs it with
// --clean to remove the copies (git ignores them). It also refuses to pack bundles older than
// the sources, or carrying another version than engine/package.json's: run `make build-engine`.
//
//   node ../scripts/pack-engine.mjs [--clean]      (from engine/, as npm runs it)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const engine = path.join(root, 'engine');
/** [from the repository root, to inside engine/] */
const COPIES = [
  ['shell/rest', 'shell/rest'],
  ['shell/rest-verbs', 'shell/rest-verbs'],
  ['shell/rest-daemon', 'shell/rest-daemon'],
  ['shell/rest-wire', 'shell/rest-wire'],
  ['shell/rest-completion', 'shell/rest-completion'],
  ['shell/_rest', 'shell/_rest'],
  ['LICENSE', 'LICENSE'],
  // Every file of sheet-mode (issue 37 item 12), sheet-batch.el among them.
  ...fs
    .readdirSync(path.join(root, 'elisp'))
    .filter((f) => f.endsWith('.el'))
    .map((f) => [`elisp/${f}`, `elisp/${f}`]),
];
const BUNDLES = ['dist/engine.cjs', 'dist/rest-cli.cjs', 'dist/sheet.cjs', 'dist/convert.cjs', 'dist/shell-path.cjs'];

function newestSource(dir) {
  let newest = 0;
  for (const f of fs.readdirSync(dir, { recursive: true })) {
    const p = path.join(dir, f);
    if (f.endsWith('.ts')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

if (process.argv.includes('--clean')) {
  for (const [, to] of COPIES) fs.rmSync(path.join(engine, to), { force: true });
  for (const d of ['shell', 'elisp']) {
    try {
      fs.rmdirSync(path.join(engine, d));
    } catch {
      // not empty or already gone
    }
  }
} else {
  const sources = newestSource(path.join(engine, 'src'));
  for (const b of BUNDLES) {
    const p = path.join(engine, b);
    if (!fs.existsSync(p) || fs.statSync(p).mtimeMs < sources) {
      process.stderr.write(`pack-engine: engine/${b} is missing or older than engine/src; run make build-engine first\n`);
      process.exit(1);
    }
  }
  // The version is bundled from package.json: the bundles must carry the one being packed.
  const { version } = JSON.parse(fs.readFileSync(path.join(engine, 'package.json'), 'utf8'));
  const said = execFileSync(process.execPath, [path.join(engine, 'dist/sheet.cjs'), '--version'], { encoding: 'utf8' });
  if (said !== `sheet ${version}\n`) {
    process.stderr.write(`pack-engine: the bundles say ${JSON.stringify(said.trim())}, package.json ${version}; run make build-engine first\n`);
    process.exit(1);
  }
  for (const [from, to] of COPIES) {
    fs.mkdirSync(path.dirname(path.join(engine, to)), { recursive: true });
    fs.copyFileSync(path.join(root, from), path.join(engine, to));
  }
}
