#!/usr/bin/env node
// Benchmark of the shell verbs (shell/rest): 200 sequential `GET /small` from one shell to the
// keep-alive example API on 127.0.0.1, in ms per call, against 200 plain `curl -s` calls from
// the same shell in the same run (the floor). Target: at most 2x curl per call. Also the
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
} finally {
  await api.close();
  fs.rmSync(home, { recursive: true, force: true });
}

const fmt = (x) => x.toFixed(2);
const lines = [
  '## Shell verbs: sequential GET /small (shell/rest)',
  '',
  `${N} sequential \`GET /small\` calls from one shell to the example API (keep-alive, 127.0.0.1), against ${N} plain \`curl -s\` calls from the same shell in the same run; median of ${ROUNDS} alternating rounds. The verbs reach the per-user engine daemon with one \`curl --unix-socket\` each; the daemon sends with undici over a kept-alive connection. "Direct" is the fallback without the daemon (one engine start per call, ${DIRECT_N} calls). Target: at most 2x curl per call (resty 3.0: 23-30 ms, about 4x curl).`,
  '',
  '| Shell | curl -s (ms/call) | GET via daemon (ms/call) | ratio | direct mode (ms/call) | rounds rest/curl (ms) |',
  '|---|---:|---:|---:|---:|---|',
  ...rows.map((r) => `| ${r.shell} | ${fmt(r.curl)} | ${fmt(r.rest)} | ${r.ratio.toFixed(2)}x | ${r.direct.toFixed(1)} | ${r.rounds.rest.map((x, i) => `${fmt(x)}/${fmt(r.rounds.curl[i])}`).join(', ')} |`),
  '',
  rows.every((r) => r.ratio <= 2) ? 'Target met in both shells.' : `Target (2x) not met in: ${rows.filter((r) => r.ratio > 2).map((r) => r.shell).join(', ')}.`,
  '',
];
process.stdout.write(lines.join('\n'));
