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
//   < 5 ms): a new context per handler is the price of the isolation;
// - sending a .http file of N requests (default 300; HTTP_FILE_BENCH_REQUESTS) to the example API
//   (test/fixtures/server.mjs in its own process, 127.0.0.1): `sheet run x.http` against
//   `sheet run` of the same requests as a sheet (the anchor; whole command, process start
//   included), and in-process `HttpFileRunner.sendAll` against `Session.send` request after
//   request (the anchor: what `sheet run` does per request). Every 10th request is named and
//   checked by a handler, the next one uses its response. Target: within 1.2 x the anchor.
import { spawn } from 'node:child_process';
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
      "export { HttpFileRunner } from './engine/src/session/http-file-runner.ts';",
      "export { Session } from './engine/src/session/session.ts';",
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
const rHandler = await measure('handler', 200, 20, async () => {
  const r = await E.runHandlerScript('client.test("ok", () => client.assert(response.status === 200 && response.body.items.length === 100));', 3, res, new Map());
  if (!r.tests[0]?.passed) throw new Error('handler test failed');
});

// Sending: the example API in its own process, so the clients measured have their event loop to themselves.
const N = Number(process.env.HTTP_FILE_BENCH_REQUESTS ?? 300);
const load = os.loadavg()[0].toFixed(1);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'http-file-send-bench-'));
const portFile = path.join(work, 'port');
const server = spawn(process.execPath, [path.join(root, 'test/fixtures/server.mjs'), '--port', '0', '--port-file', portFile], { stdio: 'ignore' });
for (let i = 0; i < 200 && !(fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').trim()); i++) await new Promise((r) => setTimeout(r, 50));
const base = `http://127.0.0.1:${fs.readFileSync(portFile, 'utf8').trim()}`;
const sendFiles = () => {
  const h = [`@base = ${base}`, ''];
  const sh = [`:base = ${base}`, '#'];
  for (let i = 1; i <= N; i++) {
    if (i % 10 === 0) {
      h.push('###', '# @name cap', 'GET {{base}}/small', '', '> {% client.test("ok", () => client.assert(response.status === 200)); %}', '');
      sh.push('GET :base/small', '-> jq-set-var :name .name', '-> expect-status 200', '#');
    } else if (i % 10 === 1 && i > 1) {
      h.push('###', 'GET {{base}}/echo/{{cap.response.body.$.name}}', '');
      sh.push('GET :base/echo/:name', '#');
    } else {
      h.push('###', 'GET {{base}}/small', '');
      sh.push('GET :base/small', '#');
    }
  }
  return { h: h.join('\n') + '\n', sh: sh.join('\n') + '\n' };
};
const { h: httpText, sh: sheetText } = sendFiles();
const httpFile = path.join(work, 'bench.http');
const sheetFile = path.join(work, 'bench.sheet');
fs.writeFileSync(httpFile, httpText);
fs.writeFileSync(sheetFile, sheetText);
const wall = (args) => new Promise((resolve, reject) => {
  const t = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'engine/bin/sheet'), ...args], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
  child.on('close', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`sheet ${args.join(' ')} exited ${code}: ${err}`))));
});
const runnerAll = async () => {
  const rs = await new E.HttpFileRunner({ file: httpFile }).sendAll(httpText);
  if (rs.length !== N || rs.some((r) => r.exchange.response.status !== 200 || r.tests.some((t) => !t.passed))) throw new Error('HttpFileRunner: a request failed');
};
const sessionAll = async () => {
  const session = new E.Session();
  const sheet = session.parse(httpText, httpFile);
  for (const r of sheet.requests) {
    const out = await session.send({ text: httpText, line: r.line, path: httpFile });
    if (out.response.status !== 200 || out.hooks.assertions.some((a) => !a.passed)) throw new Error('Session.send: a request failed');
  }
};
const send = { cliHttp: [], cliSheet: [], runner: [], session: [] };
try {
  await runnerAll();
  await sessionAll();
  for (let i = 0; i < 5; i++) {
    process.stderr.write(`  sending ${N} requests: round ${i + 1}/5\n`);
    const order = [['cliHttp', () => wall(['run', httpFile])], ['cliSheet', () => wall(['run', sheetFile])], ['runner', async () => { const t = performance.now(); await runnerAll(); return performance.now() - t; }], ['session', async () => { const t = performance.now(); await sessionAll(); return performance.now() - t; }]];
    for (const [k, f] of i % 2 ? order.reverse() : order) send[k].push(await f());
  }
} finally {
  server.kill();
  fs.rmSync(work, { recursive: true, force: true });
}
const [rCliHttp, rCliSheet, rRunner, rSession] = [send.cliHttp, send.cliSheet, send.runner, send.session].map(stats);
process.stderr.write(`  sheet run .http ${rCliHttp.median.toFixed(0)} ms, .sheet ${rCliSheet.median.toFixed(0)} ms; HttpFileRunner ${rRunner.median.toFixed(0)} ms, Session.send ${rSession.median.toFixed(0)} ms\n`);

const row = (what, r, target, label = `< ${target} ms`) => `| ${what} | ${r.median.toFixed(1)} ms | ${r.min.toFixed(1)} / ${r.max.toFixed(1)} ms | ${r.runs} | ${target ? label : 'anchor'} | ${target ? (r.median < target ? 'met' : '**missed**') : ''} |`;
process.stdout.write([
  '## .http files: parse + resolve, response handlers, sending',
  '',
  'test/bench/http-file.bench.mjs; the functions of engine/src bundled by esbuild. First in-process without I/O, the anchor being the sheet parser on the same requests, in the same run:',
  '',
  '| What | Median | Min / max | Runs | Target | |',
  '|---|---|---|---|---|---|',
  row(`.http: parse + resolve the last request (5000 requests, ${lines} lines, 500 file variables)`, rHttp, 2 * rSheet.median, `< 2 x anchor (${(2 * rSheet.median).toFixed(1)} ms)`),
  row('anchor: the same requests as a sheet, parseSheet + resolveRequest', rSheet),
  row('one response handler with a client.test, in a fresh node:vm context', rHandler, 5),
  '',
  `Sending ${N} requests to the example API (its own process, 127.0.0.1, keep-alive); every 10th named and checked by a handler (\`client.test\`; in the sheet \`jq-set-var\` + \`expect-status\`), the next one using its response. \`sheet run\`: whole command, process start included; the others in-process. Median of 5 interleaved rounds; load average ${load} at the start (2 cores shared).`,
  '',
  '| What | Median | Min / max | Runs | Target | |',
  '|---|---|---|---|---|---|',
  row(`\`sheet run\` on the .http file (${N} requests)`, rCliHttp, 1.2 * rCliSheet.median, `< 1.2 x anchor (${(1.2 * rCliSheet.median).toFixed(0)} ms)`),
  row('anchor: `sheet run` on the same requests as a sheet', rCliSheet),
  row(`\`HttpFileRunner.sendAll\` on the .http file (${N} requests)`, rRunner, 1.2 * rSession.median, `< 1.2 x anchor (${(1.2 * rSession.median).toFixed(0)} ms)`),
  row('anchor: `Session.send` on each request of the .http file', rSession),
  '',
].join('\n'));
