#!/usr/bin/env node
// .http file benchmarks (make bench; `node test/bench/run.mjs http-file`). Prints one Markdown
// section on stdout, progress on stderr. Builds the functions it measures from engine/src with
// esbuild's JS API into a temporary directory, as engine.bench.mjs does.
//
// Measured (medians after a warm-up, wall time of the call), with the anchor in the same run:
// - parse + resolve the last request of a .http file with 5,000 requests, ~20,000 lines and 500
//   file variables, against the same requests as a sheet (parseSheet + resolveRequest), the
//   anchor; target: at most 2 x the anchor in the same run (the .http grammar tests more per line:
//   separators, directives, handlers, multipart parts; the sheet's own absolute target,
//   < 20 ms, is engine.bench.mjs's; on a loaded machine both move together);
// - a response handler (`> {% client.test(...) %}`) in its node:vm sandbox, per call (target
//   < 5 ms): a new context per handler is the price of the isolation.
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'http-file-bench-'));
const out = path.join(tmp, 'http-file-bench.mjs');
await build({
  stdin: {
    contents: [
      "export { parseSheet, requestAt } from './engine/src/sheet/parse.ts';",
      "export { parseHttpFile } from './engine/src/http-file/parse.ts';",
      "export { resolveRequest } from './engine/src/resolve/resolve.ts';",
      "export { runHandlerScript } from './engine/src/http-file/handlers.ts';",
    ].join('\n'),
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outfile: out,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const E = await import(pathToFileURL(out).href);
fs.rmSync(tmp, { recursive: true, force: true });

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function measure(name, runs, warmup, fn) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  process.stderr.write(`  ${name}: median ${median(times).toFixed(1)} ms\n`);
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), runs };
}

/** The same 5,000 requests and 500 variables in both syntaxes. */
function files() {
  const http = [];
  const sheet = [];
  for (let v = 0; v < 500; v++) {
    http.push(`@v${v} = value-${v}`);
    sheet.push(`:v${v} = value-${v}`);
  }
  for (let i = 0; i < 5000; i++) {
    const v = i % 500;
    http.push(`### r${i}`, `POST http://127.0.0.1:1/items/{{v${v}}}`, 'Content-Type: application/json', '', `{"n": ${i}, "v": "{{v${v}}}"}`);
    sheet.push('#', `POST http://127.0.0.1:1/items/:v${v}`, 'Content-Type: application/json', '', `{"n": ${i}, "v": ":v${v}"}`);
  }
  return { http: http.join('\n') + '\n', sheet: sheet.join('\n') + '\n' };
}

const { http, sheet } = files();
const lines = http.split('\n').length - 1;
const last = (s) => s.requests[s.requests.length - 1];
// Interleaved, so both meet the same load and the same garbage collector.
const httpRun = async () => {
  const s = E.parseHttpFile(http);
  await E.resolveRequest(s, last(s));
};
const sheetRun = async () => {
  const s = E.parseSheet(sheet);
  await E.resolveRequest(s, last(s));
};
const tHttp = [];
const tSheet = [];
for (let i = 0; i < 45; i++) {
  for (const [fn, times] of i % 2 ? [[httpRun, tHttp], [sheetRun, tSheet]] : [[sheetRun, tSheet], [httpRun, tHttp]]) {
    const t = performance.now();
    await fn();
    if (i >= 5) times.push(performance.now() - t);
  }
}
const stats = (times) => ({ median: median(times), min: Math.min(...times), max: Math.max(...times), runs: times.length });
const rHttp = stats(tHttp);
const rSheet = stats(tSheet);
process.stderr.write(`  http ${rHttp.median.toFixed(1)} ms, sheet ${rSheet.median.toFixed(1)} ms\n`);
const res = { status: 200, headers: [['Content-Type', 'application/json']], body: JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ id: i })) }) };
const rHandler = await measure('handler', 200, 20, () => {
  const r = E.runHandlerScript('client.test("ok", () => client.assert(response.status === 200 && response.body.items.length === 100));', 3, res, new Map());
  if (!r.tests[0]?.passed) throw new Error('handler test failed');
});

const row = (what, r, target, label = `< ${target} ms`) => `| ${what} | ${r.median.toFixed(1)} ms | ${r.min.toFixed(1)} / ${r.max.toFixed(1)} ms | ${r.runs} | ${target ? label : 'anchor'} | ${target ? (r.median < target ? 'met' : '**missed**') : ''} |`;
process.stdout.write([
  '## .http files: parse + resolve, response handlers',
  '',
  'test/bench/http-file.bench.mjs; the functions of engine/src bundled by esbuild, called in-process (no I/O). The anchor is the sheet parser on the same requests, in the same run.',
  '',
  '| What | Median | Min / max | Runs | Target | |',
  '|---|---|---|---|---|---|',
  row(`.http: parse + resolve the last request (5000 requests, ${lines} lines, 500 file variables)`, rHttp, 2 * rSheet.median, `< 2 x anchor (${(2 * rSheet.median).toFixed(1)} ms)`),
  row('anchor: the same requests as a sheet, parseSheet + resolveRequest', rSheet),
  row('one response handler with a client.test, in a fresh node:vm context', rHandler, 5),
  '',
].join('\n'));
