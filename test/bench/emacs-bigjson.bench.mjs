#!/usr/bin/env node
// A 50 MB JSON response in a terminal Emacs 28 (issue 22, item 1; restclient #285), against
// restclient.el's own path in the same Emacs and the same run. The keys are typed on a real
// pseudo-terminal (`script`), so Emacs's own command loop runs them and redisplay is real:
//   C-c C-c on GET /big.json?kb=51200 -> sheet-response-loaded-hook       (target < 3 s)
//   then in the response buffer M->, M-<, and an isearch for the last element's name
//   (each key press to the end of its redisplay; target < 100 ms each)
//   C-c a: the anchor, url-retrieve of the same URL + json-pretty-print-buffer, shown in
//   fundamental-mode, then the same keys                                 (sheet < 0.2 x anchor)
// The Emacs side is test/bench/emacs-bigjson-bench.el. Prints one Markdown section on stdout.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../fixtures/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (...a) => process.stderr.write(a.join(' ') + '\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const api = await startServer();
// The fixture builds its 50 MB body on first use: not in anyone's time.
await (await fetch(`${api.url}/big.json?kb=51200`)).arrayBuffer();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bigjson-'));
const out = path.join(tmp, 'results');
fs.writeFileSync(out, '');
const emacs = ['emacs', '-nw', '-Q', '-L', path.join(root, 'elisp'), '-l', path.join(root, 'test/bench/emacs-bigjson-bench.el')];
const child = spawn('script', ['-qfec', `stty rows 40 cols 120; exec ${emacs.map((a) => `'${a}'`).join(' ')}`, '/dev/null'], {
  cwd: root,
  env: { ...process.env, TERM: 'xterm-256color', SHEET_BENCH_BASE: api.url, SHEET_BENCH_OUT: out },
  stdio: ['pipe', 'pipe', 'pipe'],
});
child.stdout.on('data', () => {}); // the terminal's output, drained
child.stderr.on('data', (d) => log(String(d)));

const lines = () => fs.readFileSync(out, 'utf8').split('\n').filter(Boolean);
/** Wait until the results file has a line matching `re` after line `from`; that line. */
async function waitFor(re, from, seconds) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const hit = lines().slice(from).find((l) => re.test(l));
    if (hit) return hit;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${re} within ${seconds} s: ${lines().join(' | ')}`);
    await sleep(20);
  }
}
/** Type `keys` on the terminal and wait for `n` CMD lines; their ms. */
async function type(keys, n = 1) {
  const from = lines().length;
  child.stdin.write(keys);
  const deadline = Date.now() + 120000;
  for (;;) {
    const cmds = lines().slice(from).filter((l) => l.startsWith('CMD '));
    if (cmds.length >= n) return cmds.map((l) => Number(l.split(' ')[3]));
    if (Date.now() > deadline) throw new Error(`no answer to ${JSON.stringify(keys)}: ${lines().slice(from).join(' | ')}`);
    await sleep(20);
  }
}
/** Load with `keys`, then time M->, M-< and the isearch in the buffer shown. */
async function measure(who, keys, seconds) {
  const from = lines().length;
  child.stdin.write(keys);
  const loaded = (await waitFor(new RegExp(`^LOADED ${who} `), from, seconds)).split(' ');
  const target = (await waitFor(/^TARGET /, from, 10)).slice('TARGET '.length);
  const memory = Number((await waitFor(new RegExp(`^MEMORY ${who} `), from, 10)).split(' ')[2]);
  log(`emacs-bigjson: ${who} loaded in ${loaded[2]} ms`);
  await sleep(1500); // idle: the timers after a load have run
  const end = (await type('\x1b>'))[0];
  await sleep(300);
  const beg = (await type('\x1b<'))[0];
  await sleep(300);
  // C-s, the target typed key by key, RET: each key is a command.
  const search = await type(`\x13${target}\r`, target.length + 2);
  await sleep(300);
  await type('\x1b<');
  await sleep(300);
  // The same without a space: isearch's lax whitespace (on by default) makes a string with a
  // space a regexp search, a plain one is a string search.
  const digits = target.replace(/\D/g, '');
  const plain = await type(`\x13${digits}\r`, digits.length + 2);
  log(`emacs-bigjson: ${who} M-> ${end} ms, M-< ${beg} ms, isearch keys ${search.join(' ')} ms; ${plain.join(' ')} ms`);
  await sleep(300);
  return { ms: Number(loaded[2]), chars: Number(loaded[3]), lines: Number(loaded[4]), mode: loaded[5], soLong: loaded[6], memory, end, beg, search, plain, target, digits };
}

let sheet;
let anchor;
let failure;
try {
  await waitFor(/^READY$/, 0, 60);
  sheet = await measure('sheet', '\x03\x03', 120);
  // SHEET_BENCH_NO_ANCHOR=1: sheet-mode alone, printed on stderr (a quick look while working).
  if (!process.env.SHEET_BENCH_NO_ANCHOR) anchor = await measure('anchor', '\x03a', 900);
} catch (e) {
  failure = e;
}
child.stdin.write('\x18\x03'); // C-x C-c
await Promise.race([new Promise((r) => child.on('close', r)), sleep(5000)]);
if (child.exitCode === null) child.kill();
await api.close();
fs.rmSync(tmp, { recursive: true, force: true });
if (!failure && !anchor) process.exit(0);
if (failure) {
  process.stdout.write(`## Emacs: a 50 MB JSON response (issue 22)\n\nFAILED: ${failure.message}\n`);
  process.exit(1);
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const met = (ok) => (ok ? 'met' : 'missed');
const ratio = sheet.ms / anchor.ms;
const row = (what, s, a, target) => `| ${what} | ${s} | ${a} | ${target} |`;
const searchCell = (keys) => `${fmt(sum(keys))} ms in all, the slowest key ${fmt(Math.max(...keys))} ms`;
process.stdout.write(`## Emacs: a 50 MB JSON response (issue 22)

A terminal Emacs (\`emacs -nw -Q\`, 120x40, on a pseudo-terminal made by \`script\`), the keys typed
on the terminal so that Emacs's own command loop runs them and redisplay is real. The example API
on 127.0.0.1 serves /big.json?kb=51200 (a compact JSON array on one line, ${(sheet.chars > 0 ? 52.4 : 0).toFixed(1)} MB).
sheet-mode: \`C-c C-c\` to \`sheet-response-loaded-hook\`, the engine re-indenting the body as it
arrives (past 16 MiB it is written to a file as it comes) and Emacs filling the buffer chunk by
chunk. The anchor, in the same Emacs and the same run, after sheet-mode: what restclient.el does
underneath, \`url-retrieve\` of the same URL then \`json-pretty-print-buffer\`, the buffer shown in
\`fundamental-mode\` (restclient.el's choice above its size threshold). Then in each response
buffer: \`M->\`, \`M-<\`, and \`C-s\` for the last element's name ("${sheet.target}", near the end)
typed key by key, then \`RET\`; each from the key press to the end of the redisplay after it.
One run (the anchor alone takes minutes).

| | sheet-mode | anchor (url-retrieve + json-pretty-print-buffer) | target |
|---|---|---|---|
${row('key press to loaded', `${fmt(sheet.ms)} ms`, `${fmt(anchor.ms)} ms`, `< 3000 ms: ${met(sheet.ms < 3000)}; < 0.2 x anchor: ${met(ratio < 0.2)} (${ratio.toFixed(3)} x)`)}
${row('`M->`', `${fmt(sheet.end)} ms`, `${fmt(anchor.end)} ms`, `< 100 ms: ${met(sheet.end < 100)}`)}
${row('`M-<`', `${fmt(sheet.beg)} ms`, `${fmt(anchor.beg)} ms`, `< 100 ms: ${met(sheet.beg < 100)}`)}
${row(`C-s "${sheet.target}" RET (a space: isearch's lax whitespace makes it a regexp search), ${sheet.search.length} keys`, searchCell(sheet.search), searchCell(anchor.search), `< 100 ms a key: ${met(Math.max(...sheet.search) < 100)}`)}
${row(`C-s "${sheet.digits}" RET (a string search), ${sheet.plain.length} keys`, searchCell(sheet.plain), searchCell(anchor.plain), `< 100 ms a key: ${met(Math.max(...sheet.plain) < 100)}`)}
${row('response buffer', `${(sheet.chars / 1e6).toFixed(2)} M chars, ${sheet.lines} lines, ${sheet.mode}${sheet.soLong === 'so-long' ? ', so-long' : ''}`, `${(anchor.chars / 1e6).toFixed(2)} M chars, ${anchor.lines} lines, ${anchor.mode}`, 'pretty-printed')}
${row('Emacs peak memory (VmHWM) after loading', `${(sheet.memory / 1024).toFixed(0)} MiB`, `${(anchor.memory / 1024).toFixed(0)} MiB (after both)`, '')}
`);
