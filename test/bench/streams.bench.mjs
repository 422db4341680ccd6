#!/usr/bin/env node
// Live streams (issue 40): Server-Sent Events from test/fixtures/streams.mjs on 127.0.0.1.
//   (a) event latency: the time from the server's write of an event to its text in sheet-mode's
//       response buffer (batch Emacs, the real engine; test/bench/streams-bench.el), beside
//       `curl -N` on the same stream in the same run (write -> curl's output read by this process)
//       and through the shell's GET and `sheet run`'s onEachMessage handler (streams-latency.mjs).
//       curl and the front ends take turns, ROUNDS rounds of COUNT/ROUNDS events each, so a
//       machine whose load changes (other jobs on the 2 cores) weighs on all of them alike.
//       STREAMS_BENCH_B=DIR (another checkout, its bundles built) adds its GET and `sheet run`
//       rows to the same rounds: an A/B of two engines in the same minutes.
//   (b) 10,000 events at full speed into Emacs: the longest time Emacs was busy at once (a 5 ms
//       timer that could not run), and the whole time to the loaded hook
// Quick settings with BENCH_QUICK=1. Prints one Markdown section on stdout.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStreams } from '../fixtures/streams.mjs';
import { pct, readLatency, sheetRunHandler, shellGet } from './streams-latency.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (...a) => process.stderr.write(a.join(' ') + '\n');
const quick = !!process.env.BENCH_QUICK;
const COUNT = quick ? 40 : 200;
const ROUNDS = quick ? 2 : 4;
const EVERY = 25;
const FAST = 10000;
const B = process.env.STREAMS_BENCH_B ? path.resolve(process.env.STREAMS_BENCH_B) : undefined;

const load = os.loadavg()[0];
const srv = await startStreams();
log(`streams bench: server on ${srv.url}`);

const per = COUNT / ROUNDS;
const builds = [{ name: '', root }, ...(B ? [{ name: ' (B)', root: B }] : [])];
const rows = new Map();
const add = (key, xs) => rows.set(key, [...(rows.get(key) ?? []), ...xs]);
const first = new Map();
let wholeMs = false;
const shells = builds.map((b) => ({ ...b, get: shellGet(b.root, srv.url, per, EVERY) }));
for (let r = 0; r < ROUNDS; r++) {
  add('curl', await readLatency('curl', ['-N', '-s', `${srv.url}/sse/timed?n=${per}&every=${EVERY}`]));
  add('floor', await readLatency(process.execPath, [path.join(root, 'test/bench/floor-stream.cjs'), `${srv.url}/sse/timed?n=${per}&every=${EVERY}`]));
  for (const b of shells) {
    add(`socket${b.name}`, await b.get.socket());
    add(`pipe${b.name}`, await b.get.pipe());
    add(`direct${b.name}`, await b.get.direct());
    const h = await sheetRunHandler(b.root, srv.url, per, EVERY);
    first.set(b.name, [...(first.get(b.name) ?? []), h.lat[0] ?? NaN]);
    if (b.name !== '' && h.wholeMs) wholeMs = true;
    add(`run${b.name}`, h.lat);
    add(`whole${b.name}`, h.whole);
  }
  log(`streams bench: round ${r + 1}/${ROUNDS}: ${[...rows].map(([k, v]) => `${k} ${v.length}`).join(', ')}`);
}
for (const b of shells) b.get.stop();

let out = '';
const code = await new Promise((resolve) => {
  const child = spawn('emacs', ['--batch', '-Q', '-L', path.join(root, 'elisp'), '-l', path.join(root, 'test/bench/streams-bench.el'), srv.url, String(COUNT), String(EVERY), String(FAST)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', () => {});
  child.on('error', (e) => { log(String(e)); resolve(127); });
  child.on('close', (c) => resolve(c ?? 1));
});
await srv.close();
const lat = /^LATENCY (\S*)$/m.exec(out)?.[1]?.split(',').filter(Boolean).map(Number) ?? [];
const busy = /^BUSY (\S+) (\S+) (\S+)$/m.exec(out);
const gc = /^GC (\d+) (\S+)$/m.exec(out);
if (code !== 0 || !lat.length || !busy) {
  process.stdout.write(`## Streams (issue 40)\n\nFAILED: batch Emacs exited ${code}.\n\n\`\`\`\n${out}\n\`\`\`\n`);
  process.exit(1);
}
const f = (x) => x.toFixed(1);
const curl = rows.get('curl');
const [c50, c95] = [pct(curl, 50), pct(curl, 95)];
const row = (label, xs, target = 'within 1.5x curl\'s') => {
  if (!xs?.length) return `| ${label} | 0 | not measured | | | | ${target} |`;
  const [m, p] = [pct(xs, 50), pct(xs, 95)];
  return `| ${label} | ${xs.length} | ${f(m)} ms | ${f(p)} ms | ${f(Math.max(...xs))} ms | ${(m / c50).toFixed(1)}x / ${(p / c95).toFixed(1)}x | ${target} |`;
};
const frontEnds = (name) => [
  row(`the shell's \`GET\` through the daemon${name} (bash, stdout a socket: Node's piped stdio; the shell's curl relays)`, rows.get(`socket${name}`)),
  row(`the shell's \`GET\` through the daemon${name} (bash, stdout a pipe: the daemon writes it)`, rows.get(`pipe${name}`)),
  row(`\`sheet run\`'s handler${name}, \`response.body.onEachMessage\` (taken in the handler${name && wholeMs ? ' with `Date.now()`: whole milliseconds, up to 1 ms low' : ' with `performance.now()`'})`, rows.get(`run${name}`)),
  row(`the shell's \`GET\`, direct${name} (\`REST_NO_DAEMON=1\`)`, rows.get(`direct${name}`)),
];
process.stdout.write(`## Streams (issue 40)

Server-Sent Events from test/fixtures/streams.mjs on 127.0.0.1, one event each ${EVERY} ms, each carrying the time the server wrote it (\`performance.timeOrigin + performance.now()\`, read again where the event is shown); \`curl -N\` and each front end take turns, ${ROUNDS} rounds of ${per} events each (${COUNT} events each in all)${quick ? ' (quick settings)' : ''}${B ? `; the rows marked (B) are another engine's (\`STREAMS_BENCH_B\`: ${B}) in the same rounds` : ''}; load average ${load.toFixed(1)} when it started, ${os.loadavg()[0].toFixed(1)} at the end of the rounds. ${B ? `\`sheet run\`'s handler with \`Date.now()\` in both engines (whole milliseconds, up to 1 ms low; the same events): median ${f(pct(rows.get('whole'), 50))} ms, p95 ${f(pct(rows.get('whole'), 95))} ms; (B) median ${f(pct(rows.get('whole (B)'), 50))} ms, p95 ${f(pct(rows.get('whole (B)'), 95))} ms. ` : ''}The first event of each \`sheet run\` round (in its row): ${[...first].map(([n, xs]) => `${xs.map((x) => `${f(x)} ms`).join(', ')}${n}`).join('; ')}.

| from the server's write to ... | events | median | p95 | max | x curl (median / p95) | target |
|---|---|---|---|---|---|---|
| sheet-mode's response buffer (batch Emacs, engine, \`sheet/streamEvents\`) | ${lat.length} | ${f(pct(lat, 50))} ms | ${f(pct(lat, 95))} ms | ${f(Math.max(...lat))} ms | | median < 20 ms, p95 < 50 ms |
| \`curl -N\` on the same stream (its output read by the bench) | ${curl.length} | ${f(c50)} ms | ${f(c95)} ms | ${f(Math.max(...curl))} ms | 1.0x | (reference) |
${row('Node\'s floor: undici\'s dispatch writing each chunk to stdout (test/bench/floor-stream.cjs)', rows.get('floor'), '(anchor: any Node front end)')}
${frontEnds('').join('\n')}
${B ? frontEnds(' (B)').join('\n') + '\n' : ''}
${FAST.toLocaleString('en')} events at full speed (\`/sse/fast\`) into sheet-mode: the longest time Emacs was busy at once was **${f(Number(busy[1]))} ms** (target < 100 ms; a 5 ms timer that could not run), ${(Number(busy[2]) / 1000).toFixed(2)} s from C-c C-c to the loaded hook, ${busy[3]} events in the trailer; ${gc ? `${gc[1]} garbage collection${gc[1] === '1' ? '' : 's'} meanwhile (${f(Number(gc[2]))} ms in all)` : 'garbage collections not counted'}. While a stream is shown sheet-mode raises \`gc-cons-threshold\` (\`sheet-stream-gc-cons-threshold\`, 64 MiB) and collects once idle after it: before that, at load 17-18, the same run took 2 collections of 200-270 ms each and its longest busy stretch was 150-340 ms.
`);
