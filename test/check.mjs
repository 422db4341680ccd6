#!/usr/bin/env node
// `make check`: the loop after each edit (issue 43). Type-check and lint (scripts/lint.sh) beside
// the unit tests: the vitest files that start nothing, no server, no Emacs, no shell, no browser,
// no child process. A file counts as a unit test when neither it nor any local file it imports
// (followed transitively) mentions one of PROCESS_OR_SERVER; the rule is mechanical so that a new
// test file is classified without a list to keep. `make test` still runs every file.
// Ends with "N passed, N failed" like test/run.mjs; exit 1 when anything failed.
//
//   node test/check.mjs [--list]     --list: print the unit test files and exit
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What a test that starts a process or a server (or needs the network) says in its source. */
const PROCESS_OR_SERVER = /child_process|\bspawn\(|execFile|execSync|createServer|\.listen\(|startServer|startHttpbin|startFaults|launchChromium|puppeteer|engine\.cjs|sheet\.cjs|rest-cli\.cjs|fixtures\/[\w-]+\.mjs|npm pack|new Worker\(/;

/** The local modules a file imports (`./x.js`, `../y`), resolved to files that exist. */
function localImports(file) {
  const text = fs.readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const base = path.resolve(path.dirname(file), m[1]);
    const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.mjs`, `${base}.js`, path.join(base, 'index.ts')];
    const hit = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
    if (hit && hit.includes(`${path.sep}test${path.sep}`)) out.push(hit);
  }
  return out;
}

/** Whether a test file, or a test helper it reaches, starts a process or a server. */
function startsSomething(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  if (PROCESS_OR_SERVER.test(fs.readFileSync(file, 'utf8'))) return true;
  return localImports(file).some((f) => startsSomething(f, seen));
}

/** Every vitest test file of the projects (test/<area>/**\/*.test.ts). */
function testFiles() {
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== 'fixtures' && e.name !== 'node_modules') walk(p);
      else if (e.isFile() && e.name.endsWith('.test.ts')) files.push(p);
    }
  };
  for (const area of ['engine', 'shell-engine', 'client-lib']) {
    const dir = path.join(root, 'test', area);
    if (fs.existsSync(dir)) walk(dir);
  }
  return files.sort();
}

const units = testFiles().filter((f) => !startsSomething(f)).map((f) => path.relative(root, f));
if (process.argv.includes('--list')) {
  process.stdout.write(units.join('\n') + '\n');
  process.exit(0);
}

/** Run a command, its output captured and shown when it ends (the jobs run side by side). */
function run(label, cmd, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('error', (e) => resolve({ label, code: 127, out: out + String(e), ms: Date.now() - started }));
    child.on('close', (code) => resolve({ label, code: code ?? 1, out, ms: Date.now() - started }));
  });
}

const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-check-')), 'vitest.json');
const started = Date.now();
const [lint, unit] = await Promise.all([
  run('lint (tsc, Elisp, shell)', 'bash', ['scripts/lint.sh']),
  run(`unit tests (${units.length} files)`, path.join(root, 'node_modules/.bin/vitest'), ['run', '--reporter=json', `--outputFile.json=${report}`, ...units]),
]);
let passed = 0;
let failed = 0;
// Quiet when it passes: a job's whole output only when it failed.
const failures = [];
if (fs.existsSync(report)) {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (unit.code !== 0 && r.numFailedTests === 0 ? 1 : 0);
  for (const t of r.testResults || []) {
    if (t.status === 'failed' && !(t.assertionResults || []).length) failures.push(`${path.relative(root, t.name)}: ${t.message}`);
    for (const a of t.assertionResults || []) {
      if (a.status === 'failed') failures.push(`${path.relative(root, t.name)} > ${a.fullName}\n${(a.failureMessages || []).join('\n').split('\n').slice(0, 12).join('\n')}`);
    }
  }
} else {
  failed += 1;
}
if (lint.code === 0) passed += 1; else failed += 1;
for (const job of [lint, unit]) {
  const show = job.code !== 0 && (job === lint || !failures.length);
  process.stdout.write(`=== ${job.label}: ${job.code === 0 ? 'ok' : `exit ${job.code}`} in ${(job.ms / 1000).toFixed(1)}s\n${show ? `${job.out.trimEnd()}\n` : ''}`);
}
if (failures.length) process.stdout.write(`\nFailed:\n${failures.join('\n\n')}\n`);
process.stdout.write(`make check: ${((Date.now() - started) / 1000).toFixed(1)}s (lint counts as one)\n${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
