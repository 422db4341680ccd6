#!/usr/bin/env node
// Benchmark of the shell verbs (shell/rest): 200 sequential `GET /small` from one shell to the
// keep-alive example API on 127.0.0.1, in ms per call, against 200 plain `curl -s` calls from
// the same shell in the same run (the floor). Target: at most 1.25x curl per call. Also the
// direct mode (REST_NO_DAEMON=1: one engine start per call), which the daemon replaces.
// Prints one Markdown section on stdout; progress on stderr. Run: node test/bench/run.mjs shell
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../fixtures/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const N = Number(process.env.REST_BENCH_CALLS ?? 200);
const DIRECT_N = Number(process.env.REST_BENCH_DIRECT_CALLS ?? 10);
const ROUNDS = 3;

function sh(shell, script, env) {
  const argv = shell === 'zsh' ? ['-f', '-c', script] : ['-c', script];
  return new Promise((resolve, reject) => {
    const child = spawn(shell, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${shell} exited ${code}: ${err}`))));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Inside one shell: the loop timed with EPOCHREALTIME (bash 5, zsh/datetime), in ms per call.
function loops(n, directN) {
  return `
    [ -n "\${ZSH_VERSION-}" ] && zmodload zsh/datetime
    source shell/rest
    rest "$API" >/dev/null
    ms() { printf '%s\\n' "$EPOCHREALTIME"; }
    GET /small >/dev/null || exit 1
    i=0; while [ ! -S "$REST_RUNTIME_DIR/engine.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
    GET /small >/dev/null || exit 1
    for round in ${Array.from({ length: ROUNDS }, (_, i) => i + 1).join(' ')}; do
      t0=$(ms); i=0; while [ $i -lt ${n} ]; do curl -s "$API/small" >/dev/null || exit 1; i=$((i+1)); done; t1=$(ms)
      echo "curl $t0 $t1"
      t0=$(ms); i=0; while [ $i -lt ${n} ]; do GET /small >/dev/null || exit 1; i=$((i+1)); done; t1=$(ms)
      echo "rest $t0 $t1"
    done
    t0=$(ms); i=0; while [ $i -lt ${directN} ]; do REST_NO_DAEMON=1 GET /small >/dev/null || exit 1; i=$((i+1)); done; t1=$(ms)
    echo "direct $t0 $t1"
    rest --stop
  `;
}

// ---- Big bodies (issue 10): GET > file and PUT < file, against curl, in the same run. ----
const MB = Number(process.env.REST_BENCH_MB ?? 1000);
let transfers;

/** kB of a /proc status field of `pid` (VmHWM: peak RSS, VmRSS: now). */
function procKb(pid, field) {
  const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

async function transferBench() {
  const rt = fs.mkdtempSync('/tmp/rest-bench-rt.');
  const big = path.join(rt, 'big.bin');
  const out = path.join(rt, 'out.bin');
  const env = { API: api.url, HOME: home, REST_RUNTIME_DIR: rt, REST_DAEMON_IDLE: '120', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', BIG: big, OUT: out, MB: String(MB) };
  // Times in ms (EPOCHREALTIME) and peak RSS in kB of the shell and everything it ran
  // (/usr/bin/time -f %M: the largest of the process tree: bash, curl, or node in direct mode).
  const timed = async (code) => {
    const o = await sh('bash', `t0=$EPOCHREALTIME; /usr/bin/time -f '%M' -o "$REST_RUNTIME_DIR/rss" bash -c 'source shell/rest; rest "$API" >/dev/null; ${code}' >/dev/null || exit 1; t1=$EPOCHREALTIME; echo "$t0 $t1 $(cat "$REST_RUNTIME_DIR/rss")"`, env);
    const [t0, t1, rss] = o.trim().split(' ').map(Number);
    return { ms: (t1 - t0) * 1000, rssKb: rss };
  };
  try {
    // The daemon, fresh, so its peak is the transfers' (and one small call's).
    await sh('bash', 'source shell/rest; rest "$API" >/dev/null; GET /small >/dev/null; i=0; while [ ! -S "$REST_RUNTIME_DIR/engine.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; GET /small >/dev/null', env);
    const pid = Number(fs.readFileSync(path.join(rt, 'engine.pid'), 'utf8'));
    const baseline = procKb(pid, 'VmRSS');
    const r = { curlGet: [], restGet: [], curlPut: [], restPut: [] };
    for (let round = 0; round < 2; round++) {
      r.curlGet.push(await timed('curl -s "$API/stream/bytes?mb=$MB" >"$OUT"'));
      r.restGet.push(await timed('GET /stream/bytes -q "mb=$MB" >"$OUT"'));
    }
    if (fs.statSync(out).size !== MB * 1024 * 1024) throw new Error('the download is short');
    fs.renameSync(out, big);
    for (let round = 0; round < 2; round++) {
      r.curlPut.push(await timed('curl -s -T "$BIG" "$API/stream/upload" >"$OUT"'));
      r.restPut.push(await timed('PUT /stream/upload <"$BIG" >"$OUT"'));
    }
    if (JSON.parse(fs.readFileSync(out, 'utf8')).bytes !== MB * 1024 * 1024) throw new Error('the upload is short');
    const daemonPeak = procKb(pid, 'VmHWM');
    const daemonAfter = procKb(pid, 'VmRSS');
    await sh('bash', 'source shell/rest; rest --stop', env);
    const best = (xs) => xs.reduce((a, b) => (b.ms < a.ms ? b : a));
    const maxRss = (xs) => Math.max(...xs.map((x) => x.rssKb));
    return { ...r, best, maxRss, daemonPeak, daemonAfter, baseline };
  } finally {
    fs.rmSync(rt, { recursive: true, force: true });
  }
}

const api = await startServer();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-bench-home-'));
const rows = [];
try {
  for (const shell of ['bash', 'zsh']) {
    const rt = fs.mkdtempSync('/tmp/rest-bench-rt.');
    process.stderr.write(`shell bench: ${shell}, ${ROUNDS} rounds of ${N} calls each\n`);
    const out = await sh(shell, loops(N, DIRECT_N), { API: api.url, HOME: home, REST_RUNTIME_DIR: rt, REST_DAEMON_IDLE: '30', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' });
    fs.rmSync(rt, { recursive: true, force: true });
    const per = { curl: [], rest: [], direct: [] };
    for (const line of out.trim().split('\n')) {
      const [kind, t0, t1] = line.split(' ');
      const n = kind === 'direct' ? DIRECT_N : N;
      per[kind].push(((Number(t1.replace(',', '.')) - Number(t0.replace(',', '.'))) * 1000) / n);
    }
    const curl = median(per.curl);
    const rest = median(per.rest);
    rows.push({ shell, curl, rest, ratio: rest / curl, direct: median(per.direct), rounds: per });
    process.stderr.write(`  curl ${curl.toFixed(2)} ms, rest ${rest.toFixed(2)} ms, direct ${median(per.direct).toFixed(1)} ms\n`);
  }
  process.stderr.write(`shell bench: ${MB} MB transfers\n`);
  transfers = await transferBench();
} finally {
  await api.close();
  fs.rmSync(home, { recursive: true, force: true });
}

const fmt = (x) => x.toFixed(2);
const lines = [
  '## Shell verbs: sequential GET /small (shell/rest)',
  '',
  `${N} sequential \`GET /small\` calls from one shell to the example API (keep-alive, 127.0.0.1), against ${N} plain \`curl -s\` calls from the same shell in the same run; median of ${ROUNDS} alternating rounds. The verbs reach the per-user engine daemon with one \`curl --unix-socket\` each; the daemon sends with undici over a kept-alive connection. "Direct" is the fallback without the daemon (one engine start per call, ${DIRECT_N} calls). Target: at most 1.25x curl per call (issue 10; resty 3.0: 23-30 ms, about 4x curl).`,
  '',
  '| Shell | curl -s (ms/call) | GET via daemon (ms/call) | ratio | direct mode (ms/call) | rounds rest/curl (ms) |',
  '|---|---:|---:|---:|---:|---|',
  ...rows.map((r) => `| ${r.shell} | ${fmt(r.curl)} | ${fmt(r.rest)} | ${r.ratio.toFixed(2)}x | ${r.direct.toFixed(1)} | ${r.rounds.rest.map((x, i) => `${fmt(x)}/${fmt(r.rounds.curl[i])}`).join(', ')} |`),
  '',
  rows.every((r) => r.ratio <= 1.25) ? 'Target (1.25x, issue 10) met in both shells.' : `Target (1.25x, issue 10) not met in: ${rows.filter((r) => r.ratio > 1.25).map((r) => r.shell).join(', ')}.`,
  '',
];
if (transfers) {
  const t = transfers;
  const mb = (kb) => (kb / 1024).toFixed(0);
  const row = (what, c, r) => {
    const ratio = t.best(r).ms / t.best(c).ms;
    return `| ${what} | ${(t.best(c).ms / 1000).toFixed(2)} | ${(t.best(r).ms / 1000).toFixed(2)} | ${ratio.toFixed(2)}x | ${mb(t.maxRss(c))} | ${mb(t.maxRss(r))} |`;
  };
  lines.push(
    `### ${MB} MB bodies through the verbs (bash, daemon)`,
    '',
    `\`GET /stream/bytes -q mb=${MB} > file\` and \`PUT /stream/upload < file\` (test/fixtures/routes/stream.mjs, 127.0.0.1) against \`curl -s URL > file\` and \`curl -s -T file URL\`, same run, best of 2 each. Peak RSS of the caller's side is the largest process of the tree (bash, its curl; /usr/bin/time %M); the daemon's peak is its VmHWM over all transfers.`,
    '',
    '| body | curl (s) | rest (s) | ratio | curl peak RSS (MB) | rest caller peak RSS (MB) |',
    '|---|---:|---:|---:|---:|---:|',
    row(`${MB} MB download`, t.curlGet, t.restGet),
    row(`${MB} MB upload`, t.curlPut, t.restPut),
    '',
    `Daemon: ${mb(t.baseline)} MB before the transfers, peak ${mb(t.daemonPeak)} MB, ${mb(t.daemonAfter)} MB after (targets: peak < 64 MB, after < 80 MB; times <= 1.1x curl).`,
    '',
  );
}
process.stdout.write(lines.join('\n'));
