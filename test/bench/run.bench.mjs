#!/usr/bin/env node
// Benchmark of `sheet run` (engine/bin/sheet): a 1,000-request sheet against the example API on
// 127.0.0.1 (every 10th request captures a value with jq-set-var, used by the next one), against
// httpyac (`httpyac send --all`) on the equivalent .http file and against 1,000 sequential
// `curl -s` calls from one bash loop, in the same run. Targets: at least 3x faster than httpyac,
// within 2x of curl. Wall time of each whole command (process start included), median of 3.
// Prints one Markdown section on stdout; progress on stderr. Run: node test/bench/run.mjs run
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../fixtures/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const N = Number(process.env.SHEET_RUN_BENCH_REQUESTS ?? 1000);
const ROUNDS = 3;

function time(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd: root, ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code === 0) resolve(ms);
      else reject(new Error(`${cmd} ${args.join(' ').slice(0, 80)} exited ${code}: ${err}`));
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const api = await startServer();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-run-bench-'));
try {
  const sheet = [`:base = ${api.url}`, '#'];
  const http = [`@base = ${api.url}`, ''];
  for (let i = 1; i <= N; i++) {
    if (i % 10 === 0) {
      sheet.push(`GET :base/small`, `-> jq-set-var :name .name`, `-> expect-status 200`, '#');
      http.push('###', '# @name cap', `GET {{base}}/small`, '');
    } else if (i % 10 === 1 && i > 1) {
      sheet.push(`GET :base/echo/:name`, '#');
      http.push('###', `GET {{base}}/echo/{{cap.name}}`, '');
    } else {
      sheet.push(`GET :base/small`, '#');
      http.push('###', `GET {{base}}/small`, '');
    }
  }
  fs.writeFileSync(path.join(dir, 'bench.sheet'), sheet.join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'bench.http'), http.join('\n') + '\n');
  const curlLoop = `i=0; while [ $i -lt ${N} ]; do curl -s "${api.url}/small" >/dev/null || exit 1; i=$((i+1)); done`;
  const r = { sheet: [], httpyac: [], curl: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    process.stderr.write(`run bench: round ${round}/${ROUNDS}\n`);
    r.curl.push(await time('bash', ['-c', curlLoop]));
    r.sheet.push(await time(process.execPath, [path.join(root, 'engine/bin/sheet'), 'run', path.join(dir, 'bench.sheet')]));
    r.httpyac.push(await time(path.join(root, 'node_modules/.bin/httpyac'), ['send', 'bench.http', '--all', '-o', 'none', '--no-color'], { cwd: dir }));
  }
  const m = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, median(v)]));
  const vsHttpyac = m.httpyac / m.sheet;
  const vsCurl = m.sheet / m.curl;
  const ok = (b) => (b ? 'met' : '**not met**');
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  process.stdout.write(`## run

\`sheet run\` on a ${N}-request sheet against the example API (127.0.0.1, keep-alive), every 10th
request capturing a value with \`jq-set-var\` that the next one uses; the same requests as a
\`.http\` file through \`httpyac send --all\` (named-response capture); and ${N} sequential
\`curl -s\` calls from one bash loop. Whole command wall time (process start included), median of ${ROUNDS}.

| command | time | per request |
| --- | ---: | ---: |
| \`sheet run\` | ${s(m.sheet)} | ${(m.sheet / N).toFixed(2)} ms |
| \`httpyac send --all\` | ${s(m.httpyac)} | ${(m.httpyac / N).toFixed(2)} ms |
| ${N} x \`curl -s\` | ${s(m.curl)} | ${(m.curl / N).toFixed(2)} ms |

- Target: at least 3x faster than httpyac: ${vsHttpyac.toFixed(1)}x, ${ok(vsHttpyac >= 3)}.
- Target: within 2x of sequential curl: ${vsCurl.toFixed(2)}x curl's time, ${ok(vsCurl <= 2)}.
`);
} finally {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
