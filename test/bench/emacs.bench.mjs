#!/usr/bin/env node
// sheet-mode in batch Emacs, with the real engine and the example API: the time from the
// C-c C-c key press to `sheet-response-loaded-hook` in the response buffer.
//   (a) 100 sequential small JSON requests (median ms per request)
//   (b) 1 MB and 5 MB JSON, 1 MB XML responses, pretty-printed by the engine (median of 5)
// The Emacs side is test/bench/emacs-bench.el. Prints one Markdown section on stdout.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../fixtures/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (...a) => process.stderr.write(a.join(' ') + '\n');
const SMALL = 100;
const REPEATS = 5;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const api = await startServer();
log(`emacs bench: API on ${api.url}`);
let out = '';
const code = await new Promise((resolve) => {
  const child = spawn('emacs', ['--batch', '-Q', '-L', path.join(root, 'elisp'), '-l', path.join(root, 'test/bench/emacs-bench.el'), api.url, String(SMALL), String(REPEATS)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => {
    for (const line of String(d).split('\n')) if (line.startsWith('bench:')) log(`emacs ${line}`);
  });
  child.on('error', (e) => { log(String(e)); resolve(127); });
  child.on('close', (c) => resolve(c ?? 1));
});
await api.close();

const results = new Map();
const anchors = new Map();
let memory;
let longest;
for (const line of out.split('\n')) {
  const m = /^RESULT (\S+) (\S+) (\S+) (\d+) (\S+)$/.exec(line);
  if (m) results.set(m[1], { times: m[2].split(',').map(Number), engine: m[3].split(',').map(Number), size: Number(m[4]), mode: m[5] });
  const a = /^ANCHOR (\S+) (\S+)$/.exec(line);
  if (a) anchors.set(a[1], a[2].split(',').map(Number));
  const blk = /^BLOCK (\S+) (\S+)$/.exec(line);
  if (blk) longest = Number(blk[2]);
  const mem = /^MEMORY (\S+) (\d+) (\d+) (\d+) (\d+)$/.exec(line);
  if (mem) memory = { before: Number(mem[2]), peak: Number(mem[3]), rss: Number(mem[4]), body: Number(mem[5]) };
}
const cases = [
  ['small-json', `${SMALL} sequential small JSON requests (/small), per request`, 4, 'about 6 ms'],
  ['json-1mb', `1 MB JSON (/big.json?kb=1024), median of ${REPEATS}`, null, '0.4-0.5 s'],
  ['json-5mb', `5 MB JSON (/big.json?kb=5120), median of ${REPEATS}`, 300, '1.6-3.4 s'],
  ['xml-1mb', `1 MB XML (/big.xml?kb=1024), median of ${REPEATS}`, 150, 'n/a'],
];
if (code !== 0 || cases.some(([k]) => !results.has(k)) || !results.has('small-json-2') || !results.has('json-50mb') || !anchors.has('small-json') || !memory || longest === undefined) {
  process.stdout.write(`## Emacs (sheet-mode)\n\nFAILED: batch Emacs exited ${code}.\n\n\`\`\`\n${out}\n\`\`\`\n`);
  process.exit(1);
}
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
const rows = cases.map(([k, what, target, restclient]) => {
  const r = results.get(k);
  const med = median(r.times);
  const verdict = target === null ? '' : med < target ? ` (met)` : ` (missed)`;
  return `| ${what} | ${fmt(med)} ms | ${fmt(median(r.engine))} ms | ${target === null ? '-' : `< ${target} ms${verdict}`} | ${restclient} | ${r.size >= 1e5 ? `${(r.size / 1e6).toFixed(2)} M ` : `${r.size} `}chars, ${r.mode} |`;
});
  // Small request against the anchor: what restclient.el does underneath (url-retrieve of the
// same URL, then json-pretty-print-buffer), same Emacs, same run; sheet-mode measured before
// and after the anchor, and the two runs pooled.
const sheetSmall = median([...results.get('small-json').times, ...results.get('small-json-2').times]);
const anchor = median(anchors.get('small-json'));
const ratio = sheetSmall / anchor;
const big = results.get('json-50mb');
const afterLastByte = big.times[0] - big.engine[0];
const peakGrowth = (memory.peak - memory.before) * 1024;
const memRatio = peakGrowth / memory.body;
process.stdout.write(`## Emacs (sheet-mode)

From the key press (the command bound to C-c C-c, called in batch Emacs) to
\`sheet-response-loaded-hook\` in the response buffer, with the real engine and the example API
on 127.0.0.1, after a warm-up (engine started, keep-alive connection open, modes loaded).
"Before first byte" is the part of it spent before the engine's first output reached Emacs
(engine: parse, HTTP, pretty-printing, writing the body file, JSON-RPC encoding); the rest is
Emacs reading and decoding the JSON-RPC message, then filling the buffer. Bodies of 65536
characters or more come in a temporary file (\`bodyFileMin\` in docs/protocol.md), inserted with
\`insert-file-contents\`, not inside the JSON-RPC message. Bodies above 10 x
\`sheet-response-size-threshold\` (default 100000) are shown in \`fundamental-mode\`, so big
bodies cost no font-lock or indentation in Emacs. restclient.el's figures are the ones given in
the brief, for comparison.

| case | median | before first byte | target | restclient.el | response buffer |
|---|---|---|---|---|---|
${rows.join('\n')}

### Small request against restclient.el's own path (issue 9)

The anchor is what restclient.el does underneath, in the same Emacs and the same run:
\`url-retrieve\` of the same URL (/small), then \`json-pretty-print-buffer\` on the body, ${SMALL}
times. sheet-mode's figure pools its two runs of ${SMALL} (before and after the anchor).

| | median per request | target |
|---|---|---|
| anchor: url-retrieve + json-pretty-print-buffer | ${fmt(anchor)} ms | |
| sheet-mode, C-c C-c to sheet-response-loaded-hook | ${fmt(sheetSmall)} ms | <= 0.5 x anchor (${fmt(anchor / 2)} ms): ${ratio <= 0.5 ? 'met' : 'missed'} (${ratio.toFixed(2)} x) |

### 50 MB JSON response (restclient #285)

/big.json?kb=51200 (${(memory.body / 1e6).toFixed(1)} MB), once, after the cases above.

| | measured | target |
|---|---|---|
| key press to loaded hook | ${fmt(big.times[0])} ms | |
| of which after the engine's answer arrived, the buffer filling chunk by chunk | ${fmt(afterLastByte)} ms | |
| longest time Emacs was busy at once after the answer (C-c C-c, C-g, C-c C-k and editing wait at most this) | ${fmt(longest)} ms | < 200 ms: ${longest < 200 ? 'met' : 'missed'} |
| Emacs peak memory growth (VmHWM) | ${(peakGrowth / 1e6).toFixed(1)} MB = ${memRatio.toFixed(2)} x the body | < 3 x: ${memRatio < 3 ? 'met' : 'missed'} |
| response buffer | ${(big.size / 1e6).toFixed(2)} M chars, ${big.mode} | bare mode |
`);
