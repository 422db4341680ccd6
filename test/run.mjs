#!/usr/bin/env node
// Runs every test suite (vitest projects, ERT in batch Emacs, bats under bash and zsh), shows
// their output as it comes, and ends with one line "N passed, N failed" summed over all suites.
// Exit status 1 when any test failed or a suite could not run or reported nothing.
//
//   node test/run.mjs [suite ...]      suites: vitest ert bats (default: all)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-rest-test-'));

/** A suite that runs longer than this is stopped and counted as failed (no hang in CI). */
const SUITE_LIMIT_MS = 20 * 60 * 1000;

/** Run a command with output shown live and also captured; its process group is killed at the limit. */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.stderr.write(`\ntest/run.mjs: ${cmd} ran over ${SUITE_LIMIT_MS / 60000} minutes; stopping it\n`);
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, SUITE_LIMIT_MS);
    child.stdout.on('data', (d) => { out += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => { out += d; process.stderr.write(d); });
    child.on('error', (e) => { clearTimeout(timer); resolve({ code: 127, out: out + String(e), timedOut }); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code: code ?? 1, out, timedOut }); });
  });
}

const suites = {
  async vitest() {
    const report = path.join(tmp, 'vitest.json');
    const { code } = await run(path.join(root, 'node_modules/.bin/vitest'), [
      'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
    ]);
    if (!fs.existsSync(report)) return { passed: 0, failed: 1, note: `vitest exited ${code} without a report` };
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    // A file that fails to load counts as a failure even though it ran no test.
    const brokenFiles = (r.testResults || []).filter((t) => t.status === 'failed' && (t.assertionResults || []).length === 0).length;
    return { passed: r.numPassedTests, failed: r.numFailedTests + brokenFiles + (code !== 0 && r.numFailedTests === 0 && brokenFiles === 0 ? 1 : 0) };
  },
  async ert() {
    const dir = path.join(root, 'test/elisp');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('-test.el')).sort();
    if (!files.length) return { passed: 0, failed: 0 };
    const args = ['--batch', '-Q', '-L', path.join(root, 'elisp'), '-L', dir, '-l', 'ert', '-l', path.join(dir, 'test-helper.el')];
    for (const f of files) args.push('-l', path.join(dir, f));
    args.push('-f', 'ert-run-tests-batch-and-exit');
    const { code, out } = await run('emacs', args);
    const m = /Ran (\d+) tests?, (\d+) results? as expected, (\d+) unexpected/.exec(out);
    if (!m) return { passed: 0, failed: 1, note: `ERT exited ${code} without a summary` };
    const failed = Number(m[3]);
    return { passed: Number(m[2]), failed: failed + (code !== 0 && failed === 0 ? 1 : 0) };
  },
  async bats() {
    const dir = path.join(root, 'test/shell');
    if (!fs.readdirSync(dir).some((f) => f.endsWith('.bats'))) return { passed: 0, failed: 0 };
    let passed = 0;
    let failed = 0;
    // Every bats test runs once with the verbs in bash and once in zsh.
    for (const shell of ['bash', 'zsh']) {
      process.stdout.write(`\n# bats, verbs under ${shell}\n`);
      const { code, out } = await run('bats', ['--tap', dir], { REST_TEST_SHELL: shell });
      const ok = (out.match(/^ok \d+/gm) || []).length;
      const notOk = (out.match(/^not ok \d+/gm) || []).length;
      passed += ok;
      failed += notOk + (code !== 0 && notOk === 0 ? 1 : 0);
    }
    return { passed, failed };
  },
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(suites);
let passed = 0;
let failed = 0;
const lines = [];
for (const name of wanted) {
  if (!suites[name]) {
    console.error(`unknown suite ${name}; known: ${Object.keys(suites).join(' ')}`);
    process.exit(2);
  }
  process.stdout.write(`\n=== ${name} ===\n`);
  const r = await suites[name]();
  passed += r.passed;
  failed += r.failed;
  lines.push(`suite ${name}: passed ${r.passed}, failed ${r.failed}${r.note ? ` (${r.note})` : ''}`);
}
fs.rmSync(tmp, { recursive: true, force: true });
process.stdout.write('\n' + lines.map((l) => `  ${l}`).join('\n') + '\n');
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
