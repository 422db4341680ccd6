#!/usr/bin/env node
// The endless stream (issue 40: "a 10-minute endless stream in bounded memory"), behind a
// switch because it takes as long as it says: REST_BENCH_ENDLESS_S=600 node test/bench/run.mjs streams-endless
// Without the switch it prints nothing and run.mjs keeps the section of the last run.
//
// One Server-Sent Events stream per front end from test/fixtures/streams.mjs on 127.0.0.1
// (`/sse/timed`, an event each EVERY ms, never ending within the run), all three at once:
//   - sheet-mode: batch Emacs (test/bench/streams-endless.el), C-c C-k at the end;
//   - `sheet run` on a .http file, with `--timeout` ending the stream (keeping its events);
//   - the shell's `GET`, direct (`REST_NO_DAEMON=1`: the process is bash's child), stopped by SIGTERM.
// Every SAMPLE_S seconds the resident memory (VmRSS) of each front end's process tree (Emacs and
// its engine; node; bash and the node it starts) is read from /proc. Prints a Markdown section.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStreams } from '../fixtures/streams.mjs';

const seconds = Number(process.env.REST_BENCH_ENDLESS_S ?? 0);
const log = (...a) => process.stderr.write(a.join(' ') + '\n');
if (!seconds) {
  log('streams-endless: skipped (set REST_BENCH_ENDLESS_S=600 to run it)');
  process.exit(0);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EVERY = 2;
const SAMPLE_S = 10;
const N = 1e9;

/** The pids of `pid` and its descendants, from /proc/PID/stat's parent field. */
function tree(pid) {
  const parent = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [c, p] of parent) if (p === out[i]) out.push(c);
  return out;
}
/** VmRSS of `pid`'s tree in MiB (0 once it is gone). */
function rssMiB(pid) {
  let kb = 0;
  for (const p of tree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

const load = os.loadavg()[0];
const srv = await startStreams();
const url = `${srv.url}/sse/timed?n=${N}&every=${EVERY}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-endless-'));
log(`streams-endless: ${seconds} s on ${url}`);

/** Start a front end; counts newlines of its stdout (events for GET), keeps the rest. */
function start(name, cmd, args, env = process.env) {
  const c = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const fe = { name, child: c, samples: [], lines: 0, tail: '', err: '', code: undefined };
  c.stdout.on('data', (d) => {
    const s = String(d);
    for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) fe.lines++;
    fe.tail = (fe.tail + s).slice(-4000);
  });
  c.stderr.on('data', (d) => (fe.err = (fe.err + d).slice(-2000)));
  fe.done = new Promise((resolve) => c.on('close', (code, signal) => resolve((fe.code = code ?? signal))));
  return fe;
}

const httpFile = path.join(dir, 'endless.http');
fs.writeFileSync(httpFile, `GET ${url}\n`);
const fronts = [
  start('sheet-mode (batch Emacs + engine)', 'emacs', ['--batch', '-Q', '-L', path.join(root, 'elisp'), '-l', path.join(root, 'test/bench/streams-endless.el'), url, String(seconds)]),
  start('`sheet run` (node)', path.join(root, 'engine/bin/sheet'), ['run', httpFile, '--timeout', String(seconds), '--report', `json:${dir}/r.json`]),
  start('the shell\'s `GET`, direct (bash + node)', 'bash', ['-c', `source "${root}/shell/rest"; rest ${srv.url} >/dev/null; GET "/sse/timed" -q n=${N} -q every=${EVERY}`], { ...process.env, REST_NO_DAEMON: '1', REST_RUNTIME_DIR: dir, HOME: dir }),
];
const t0 = Date.now();
const sample = () => {
  const at = (Date.now() - t0) / 1000;
  for (const fe of fronts) if (fe.code === undefined) fe.samples.push({ at, mib: rssMiB(fe.child.pid) });
};
sample();
const timer = setInterval(sample, SAMPLE_S * 1000);
// GET has no end of its own: stopped (its process group) at the time, as a user's C-c would.
const stopGet = setTimeout(() => {
  try {
    process.kill(-fronts[2].child.pid, 'SIGTERM');
  } catch {
    // gone already
  }
}, seconds * 1000);
await Promise.all(fronts.map((fe) => Promise.race([fe.done, new Promise((r) => setTimeout(r, (seconds + 120) * 1000))])));
clearInterval(timer);
clearTimeout(stopGet);
for (const fe of fronts) if (fe.code === undefined) try { process.kill(-fe.child.pid, 'SIGKILL'); } catch { /* gone */ }
await srv.close();

const emacsOut = /^BUFFER (\d+) (\S+)$/m.exec(fronts[0].tail);
let runEvents = '?';
try {
  runEvents = String(JSON.parse(fs.readFileSync(`${dir}/r.json`, 'utf8')).files[0].results[0].stream?.events ?? '?');
} catch {
  // no report: the exit code says why
}
fs.rmSync(dir, { recursive: true, force: true });
const at = (fe, s) => {
  const x = fe.samples.filter((p) => p.at <= s + SAMPLE_S / 2).at(-1);
  return x ? x.mib.toFixed(0) : '-';
};
const marks = [30, 60, 120, 300, seconds - SAMPLE_S].filter((s, i, a) => s > 0 && s <= seconds && a.indexOf(s) === i);
const mm = (s) => (s >= 60 ? `${(s / 60).toFixed(s % 60 ? 1 : 0)} min` : `${s} s`);
const rows = fronts.map((fe) => {
  const peak = Math.max(...fe.samples.map((p) => p.mib));
  const events = fe === fronts[0] ? (emacsOut?.[2] ?? '?') : fe === fronts[1] ? runEvents : `${fe.lines} output lines`;
  return `| ${fe.name} | ${marks.map((s) => `${at(fe, s)}`).join(' | ')} | **${peak.toFixed(0)}** | ${events} | ${fe.code} |`;
});
process.stdout.write(`## Endless stream (issue 40)

One endless Server-Sent Events stream (test/fixtures/streams.mjs \`/sse/timed\`, an event each ${EVERY} ms) into each front end at once for ${seconds} s, the resident memory (VmRSS, MiB) of each front end's process tree read every ${SAMPLE_S} s; load average ${load.toFixed(1)} when it started. Target: bounded (no growth after the first minutes). sheet-mode's buffer held ${emacsOut ? Number(emacsOut[1]).toLocaleString('en') : '?'} characters at the end (\`sheet-stream-max-chars\`, 2,000,000 by default, trims its head).

| front end | ${marks.map(mm).join(' | ')} | peak | events seen | exit |
|---|${marks.map(() => '---|').join('')}---|---|---|
${rows.join('\n')}
`);
