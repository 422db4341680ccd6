#!/usr/bin/env node
// Runs every test suite (vitest projects, ERT in batch Emacs, bats under bash and zsh), shows
// their output as it comes, and ends with one line "N passed, N failed" summed over all suites.
// Exit status 1 when any test failed or a suite could not run or reported nothing.
// vitest runs first, on both cores (its own workers); then ERT and bats under bash and zsh run
// side by side (each is one process after another, mostly waiting on the processes and servers
// it starts), their lines prefixed with the suite's name (docs/testing.md). TEST_SERIAL=1 runs
// every suite alone, one after another, output unprefixed.
//
//   node test/run.mjs [suite ...]      suites: vitest ert bats (default: all)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-rest-test-'));

/**
 * A suite that runs longer than this is stopped and counted as failed: a guard against a hang,
 * well inside CI's 90 minutes for the whole run (issue 43). Not a test timeout: each test keeps
 * its own (vitest's testTimeout, ERT's and bats' waits).
 */
const SUITE_LIMIT_MS = 30 * 60 * 1000;

/**
 * vitest's workers: its default on N cores is N - 1 (one on this 2-core machine), but most of a
 * test file's time is spent waiting on what it starts (the engine, servers, curl, Emacs), so
 * more files than cores run side by side (issue 43). VITEST_WORKERS overrides.
 */
const VITEST_WORKERS = Number(process.env.VITEST_WORKERS) || Math.max(2, os.availableParallelism() + 1);

const SERIAL = process.env.TEST_SERIAL === '1';

/**
 * bats' own limit per test, in seconds (bats-core's BATS_TEST_TIMEOUT): a test that hangs fails
 * under its name ("# timeout after 300s") and the rest of the run goes on, where the suite limit
 * above would stop the whole run and name nothing. The slowest test takes about 20 s.
 */
const BATS_TEST_TIMEOUT = process.env.BATS_TEST_TIMEOUT || '300';

/**
 * ERT's limit per test, in seconds, read by test/elisp/test-helper.el (ERT has none of its own):
 * a test that waits past it (on a process, a helper's wait, a JSON-RPC answer) fails under its
 * name and the run goes on. A test that never waits (a loop in Lisp) runs no timer: when no ERT
 * test has ended for this limit plus 30 s, that Emacs is stopped, the test fails under its name
 * and a fresh Emacs runs the tests after it (`ertRuns`).
 */
const ERT_TEST_TIMEOUT = process.env.ERT_TEST_TIMEOUT || '300';

/** A writer that prefixes each whole line with `[label] ` (a suite beside others), or passes through. */
function prefixed(stream, label) {
  if (!label) return (d) => stream.write(d);
  let rest = '';
  const write = (d) => {
    rest += d;
    const cut = rest.lastIndexOf('\n');
    if (cut < 0) return;
    stream.write(rest.slice(0, cut + 1).replace(/^/gm, `[${label}] `).replace(/\[[^\]\n]*\] $/, ''));
    rest = rest.slice(cut + 1);
  };
  write.flush = () => { if (rest) stream.write(`[${label}] ${rest}\n`); rest = ''; };
  return write;
}

/**
 * Run a command with output shown live and also captured; its process group is killed at the
 * limit. `label`: the output's lines are prefixed with it (a suite running beside others);
 * `watch`, when given, is called with the child process once it is spawned.
 */
function run(cmd, args, env = {}, label = '', watch = null) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.stderr.write(`\ntest/run.mjs: ${cmd} ran over ${SUITE_LIMIT_MS / 60000} minutes; stopping it\n`);
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, SUITE_LIMIT_MS);
    watch?.(child);
    const toOut = prefixed(process.stdout, label);
    const toErr = prefixed(process.stderr, label);
    const flush = () => { toOut.flush?.(); toErr.flush?.(); };
    child.stdout.on('data', (d) => { out += d; toOut(String(d)); });
    child.stderr.on('data', (d) => { out += d; toErr(String(d)); });
    child.on('error', (e) => { clearTimeout(timer); flush(); resolve({ code: 127, out: out + String(e), timedOut }); });
    child.on('close', (code) => { clearTimeout(timer); flush(); resolve({ code: code ?? 1, out, timedOut }); });
  });
}

/** The first non-empty line of a failure message, cut to one screen line. */
function firstLine(msg) {
  const line = String(msg || '').split('\n').find((l) => l.trim()) || '';
  return line.trim().slice(0, 160);
}

const suites = {
  async vitest() {
    const report = path.join(tmp, 'vitest.json');
    const { code } = await run(path.join(root, 'node_modules/.bin/vitest'), [
      // One more try for a failed test: a test that fails twice fails; one that passes on the
      // second try is named under "Passed only on a second try" at the end, never hidden.
      'run', '--retry=1', `--maxWorkers=${VITEST_WORKERS}`, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
    ]);
    if (!fs.existsSync(report)) return { passed: 0, failed: 1, note: `vitest exited ${code} without a report` };
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    // A file that fails to load counts as a failure even though it ran no test.
    const files = r.testResults || [];
    const broken = files.filter((t) => t.status === 'failed' && (t.assertionResults || []).length === 0);
    const flaky = [];
    const names = broken.map((t) => `${path.relative(root, t.name)}: ${firstLine(t.message) || 'failed to load'}`);
    for (const t of files) {
      for (const a of t.assertionResults || []) {
        if (a.status === 'failed') names.push(`${path.relative(root, t.name)} > ${a.fullName}: ${firstLine((a.failureMessages || [])[0])}`);
        else if (a.status === 'passed' && (a.failureMessages || []).length) flaky.push(`${path.relative(root, t.name)} > ${a.fullName}: ${firstLine(a.failureMessages[0])}`);
      }
    }
    const times = files.map((t) => ({ file: path.relative(root, t.name), ms: Math.max(0, (t.endTime || 0) - (t.startTime || 0)) }));
    return { times, passed: r.numPassedTests, failed: r.numFailedTests + broken.length + (code !== 0 && r.numFailedTests === 0 && broken.length === 0 ? 1 : 0), names, flaky };
  },
  async ert() {
    const dir = path.join(root, 'test/elisp');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('-test.el')).sort();
    if (!files.length) return { passed: 0, failed: 0 };
    const args = ['--batch', '-Q', '-L', path.join(root, 'elisp'), '-L', dir, '-l', 'ert', '-l', path.join(dir, 'test-helper.el')];
    for (const f of files) args.push('-l', path.join(dir, f));
    const summary = (out) => /Ran (\d+) tests?, (\d+) results? as expected, (\d+) unexpected/.exec(out);
    const failedIn = (out) => [...out.matchAll(/^\s+FAILED\s+\d+\/\d+\s+(\S+)/gm)].map((x) => x[1]);
    // ERT prints a failed test's condition under "Test NAME condition:"; its first lines, joined,
    // say why (CI keeps only the log's tail, so the reason goes beside the name at the end).
    const why = (out, n) => {
      const m = new RegExp(`^Test ${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} condition:\n((?:[ \t].*\n?){1,16})`, 'm').exec(out);
      return m ? m[1].replace(/\s+/g, ' ').replace(/ (?:FAILED|passed) +\d+\/\d+ .*$/, '').trim().slice(0, 200) : '';
    };
    const first = await ertRuns(args, ertNames(dir, files), SERIAL ? '' : 'ert', true);
    const { code, out, hung } = first;
    const m = summary(out);
    if (!m && !hung.length) return { passed: 0, failed: 1, note: `ERT exited ${code} without a summary` };
    const times = ertFileTimes(dir, files, first.outs.join('\n'));
    let failed = first.failed + (m ? Number(m[3]) : 0);
    let passed = first.passed + (m ? Number(m[2]) : 0);
    let names = first.outs.flatMap(failedIn);
    const flaky = [];
    const outs = [...first.outs];
    // One more try for the failed tests, as vitest's --retry=1: in a fresh Emacs, only them. A
    // test that fails twice fails; one that passes on the second try counts as passed and is
    // named under "Passed only on a second try", never hidden.
    if (failed > 0 && names.length === failed) {
      process.stdout.write(`\n[ert] trying the ${failed} failed test(s) once more: ${names.join(' ')}\n`);
      const again = await ertRuns(args, names, SERIAL ? '' : 'ert retry');
      const still = summary(again.out) ? again.outs.flatMap(failedIn).concat(again.hung) : names;
      for (const n of names) if (!still.includes(n)) flaky.push(`${n}: failed on the first try`);
      passed += names.length - still.length;
      failed = still.length;
      names = still;
      outs.unshift(...again.outs);
    }
    names = names.map((n) => { const w = outs.map((o) => why(o, n)).find(Boolean); return w ? `${n}: ${w}` : n; });
    // A hung test is not tried again (its Emacs was stopped; a second try would take as long).
    for (const n of hung) names.push(`${n}: no result within ${Number(ERT_TEST_TIMEOUT) + 30} s and its Emacs stopped (a test that never waits: ERT_TEST_TIMEOUT)`);
    failed += hung.length;
    return { times, passed, failed: failed + (code !== 0 && failed === 0 && !flaky.length ? 1 : 0), names, flaky };
  },
  async bats() {
    const dir = path.join(root, 'test/shell');
    if (!fs.readdirSync(dir).some((f) => f.endsWith('.bats'))) return { passed: 0, failed: 0 };
    let passed = 0;
    let failed = 0;
    const names = [];
    const times = [];
    // Every bats test runs once with the verbs in bash and once in zsh; the two side by side
    // (each test has its own runtime directory, HOME and servers) unless TEST_SERIAL=1.
    const one = async (shell) => {
      if (SERIAL) process.stdout.write(`\n# bats, verbs under ${shell}\n`);
      const junit = fs.mkdtempSync(path.join(tmp, `bats-${shell}-`));
      const r = await run('bats', ['--tap', '--report-formatter', 'junit', '--output', junit, dir], { REST_TEST_SHELL: shell, BATS_TEST_TIMEOUT }, SERIAL ? '' : `bats ${shell}`);
      return { shell, ...r, times: batsFileTimes(path.join(junit, 'report.xml'), shell) };
    };
    const results = SERIAL ? [await one('bash'), await one('zsh')] : await Promise.all([one('bash'), one('zsh')]);
    const flaky = [];
    for (const { shell, code, out, times: t } of results) {
      times.push(...t);
      const ok = (out.match(/^ok \d+/gm) || []).length;
      const notOk = (out.match(/^not ok \d+/gm) || []).length;
      passed += ok;
      failed += notOk + (code !== 0 && notOk === 0 ? 1 : 0);
      // One more try for a failed test, as vitest's --retry=1 and ERT's: that test alone, in a
      // fresh bats under the same shell. One that passes then counts as passed and is named
      // under "Passed only on a second try", never hidden.
      for (const m of out.matchAll(/^not ok \d+ (.*?)(?: # timeout after \d+s)?(?: # in \d+ ?ms)?\n# \(in test file (\S+), line \d+\)/gm)) {
        const [, name, file] = m;
        const filter = `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
        process.stdout.write(`\n[bats ${shell}] trying once more: ${name}\n`);
        const again = await run('bats', ['--tap', '-f', filter, path.resolve(root, file)], { REST_TEST_SHELL: shell, BATS_TEST_TIMEOUT }, SERIAL ? '' : `bats ${shell} retry`);
        if (again.code === 0 && /^ok 1 /m.test(again.out)) {
          passed += 1;
          failed -= 1;
          flaky.push(`${shell}: ${name}: failed on the first try`);
        } else names.push(`${shell}: ${name}`);
      }
      // A failure whose file bats did not name is not tried again.
      const tried = new Set([...out.matchAll(/^not ok \d+ (.*?)(?: # timeout after \d+s)?(?: # in \d+ ?ms)?\n# \(in test file/gm)].map((x) => x[1]));
      for (const m of out.matchAll(/^not ok \d+ (.*?)(?: # timeout after \d+s)?(?: # in \d+ ?ms)?$/gm)) if (!tried.has(m[1])) names.push(`${shell}: ${m[1]}`);
    }
    return { times, passed, failed, names, flaky };
  },
};

/** ERT's line for a test's result ("   passed  3/9  NAME (0.1 sec)"): its word and NAME. */
const ERT_RESULT = /^\s+(passed|FAILED|skipped|QUIT)\s+\d+\/\d+\s+(\S+)/gm;
const ERT_RESULT_LINE = new RegExp(ERT_RESULT.source);

/**
 * A watchdog for an ERT run: each test's result line restarts it; past ERT_TEST_TIMEOUT plus
 * 30 s without one (a test that never waits, which test-helper.el's timer cannot stop), Emacs's
 * process group (the engine and servers it started too) is killed and `stopped` called.
 */
function ertWatchdog(label, stopped) {
  const ms = (Number(ERT_TEST_TIMEOUT) + 30) * 1000;
  return (child) => {
    let timer;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        process.stderr.write(`\n${label ? `[${label}] ` : ''}test/run.mjs: no ERT test ended for ${ms / 1000} s (ERT_TEST_TIMEOUT ${ERT_TEST_TIMEOUT} + 30); stopping that Emacs\n`);
        stopped();
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      }, ms);
    };
    // Whole lines only: a result line may come in two pieces.
    const ended = () => {
      let rest = '';
      return (d) => {
        const lines = (rest + d).split('\n');
        rest = lines.pop();
        if (lines.some((l) => ERT_RESULT_LINE.test(l))) arm();
      };
    };
    child.stdout.on('data', ended());
    child.stderr.on('data', ended());
    child.on('close', () => clearTimeout(timer));
    arm();
  };
}

/**
 * Run the ERT tests `names` (in ERT's order, by name; `whole`: every test loaded, selected as
 * ERT's `t`) in batch Emacs (`args` before the selector) until each has a result. When the
 * watchdog stops an Emacs, the first test without a result is the one that hung (ERT runs them
 * in that order): it is named in `hung`, and a fresh Emacs runs the tests after it. Returns the last run's `code` and `out`, every run's output in
 * `outs`, and the `passed` and `failed` counts of the stopped runs (the last run's are in its
 * summary).
 */
async function ertRuns(args, names, label, whole = false) {
  const outs = [];
  const hung = [];
  let passed = 0;
  let failed = 0;
  let left = names;
  const member = (list) => ['--eval', `(ert-run-tests-batch-and-exit '(member ${list.join(' ')}))`];
  let selector = whole ? ['-f', 'ert-run-tests-batch-and-exit'] : member(names);
  for (;;) {
    let stopped = false;
    const { code, out } = await run('emacs', [...args, ...selector], { ERT_TEST_TIMEOUT }, label, ertWatchdog(label, () => { stopped = true; }));
    outs.push(out);
    if (!stopped) return { code, out, outs, hung, passed, failed };
    const results = [...out.matchAll(ERT_RESULT)];
    passed += results.filter((r) => r[1] === 'passed').length;
    failed += results.filter((r) => r[1] === 'FAILED' || r[1] === 'QUIT').length;
    const ended = new Set(results.map((r) => r[2]));
    const rest = left.filter((n) => !ended.has(n));
    if (rest.length) hung.push(rest.shift());
    left = rest;
    if (!left.length) return { code: 1, out: '', outs, hung, passed, failed };
    selector = member(left);
  }
}

/** The names of the ERT tests in `files` (under `dir`), in ERT's order: by name. */
function ertNames(dir, files) {
  return files.flatMap((f) => [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/^\(ert-deftest\s+(\S+)/gm)].map((m) => m[1])).sort();
}

/**
 * ERT's time per test file: batch ERT prints each test's duration ("passed 3/9 name (0.1 sec)");
 * a test's file is the one holding its `(ert-deftest NAME`.
 */
function ertFileTimes(dir, files, out) {
  const fileOf = new Map();
  for (const f of files) {
    for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/^\(ert-deftest\s+(\S+)/gm)) fileOf.set(m[1], f);
  }
  const perFile = new Map();
  for (const m of out.matchAll(/^\s+(?:passed|FAILED|skipped)\s+\d+\/\d+\s+(\S+)\s+\(([\d.]+) sec\)/gm)) {
    const file = path.join('test/elisp', fileOf.get(m[1]) || '?');
    perFile.set(file, (perFile.get(file) || 0) + Number(m[2]) * 1000);
  }
  return [...perFile].map(([file, ms]) => ({ file, ms }));
}

/** bats' time per file under one shell, from its JUnit report (one testsuite per .bats file). */
function batsFileTimes(report, shell) {
  if (!fs.existsSync(report)) return [];
  const xml = fs.readFileSync(report, 'utf8');
  return [...xml.matchAll(/<testsuite name="([^"]+)"[^>]*\btime="([\d.]+)"/g)]
    .map((m) => ({ file: `test/shell/${m[1]} (${shell})`, ms: Number(m[2]) * 1000 }));
}

/** Minutes and seconds, as the closing lines show a duration. */
function clock(ms) {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(suites);
let passed = 0;
let failed = 0;
const lines = [];
const failedNames = [];
const flakyNames = [];
const allTimes = [];
const runStarted = Date.now();
for (const name of wanted) {
  if (!suites[name]) {
    console.error(`unknown suite ${name}; known: ${Object.keys(suites).join(' ')}`);
    process.exit(2);
  }
}
/** One suite run and its results counted; `took` is its own wall time. */
async function runSuite(name) {
  process.stdout.write(`\n=== ${name} ===\n`);
  const started = Date.now();
  const r = await suites[name]();
  return { name, r, took: Date.now() - started };
}
// vitest alone (it fills both cores), then the others side by side.
const phases = SERIAL ? wanted.map((n) => [n]) : [wanted.filter((n) => n === 'vitest'), wanted.filter((n) => n !== 'vitest')].filter((p) => p.length);
const results = [];
for (const phase of phases) results.push(...(await Promise.all(phase.map(runSuite))));
for (const { name, r, took } of results) {
  for (const t of r.times || []) allTimes.push({ suite: name, ...t });
  passed += r.passed;
  failed += r.failed;
  for (const n of r.names || []) failedNames.push(`${name}: ${n}`);
  for (const n of r.flaky || []) flakyNames.push(`${name}: ${n}`);
  lines.push(`suite ${name}: passed ${r.passed}, failed ${r.failed} in ${clock(took)}${r.note ? ` (${r.note})` : ''}`);
}
fs.rmSync(tmp, { recursive: true, force: true });
// The tests that passed only on a retry are named again near the end of the log.
if (flakyNames.length) process.stdout.write('\nPassed only on a second try (flaky: fix them):\n' + flakyNames.map((n) => `  ${n}`).join('\n') + '\n');
// Where the time went (docs/testing.md): the 20 slowest test files over all suites.
if (allTimes.length) {
  const slowest = allTimes.sort((a, b) => b.ms - a.ms).slice(0, 20);
  process.stdout.write('\nSlowest test files:\n' + slowest.map((t) => `  ${(t.ms / 1000).toFixed(1).padStart(6)}s  ${t.suite}  ${t.file}`).join('\n') + '\n');
}
if (failedNames.length) process.stdout.write('\nFailed:\n' + failedNames.map((n) => `  ${n}`).join('\n') + '\n');
process.stdout.write('\n' + lines.map((l) => `  ${l}`).join('\n') + '\n');
process.stdout.write(`  all suites: ${clock(Date.now() - runStarted)}\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
