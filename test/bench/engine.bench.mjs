#!/usr/bin/env node
// Engine benchmarks (make bench; `node test/bench/run.mjs engine`). Prints one Markdown
// section on stdout, progress on stderr. Builds the engine functions it measures from
// engine/src with esbuild's JS API into a temporary directory, so it needs no prior build.
//
// Measured (medians over several runs after a warm-up, wall time of the call):
// - parse + resolve the last request of a sheet with 5,000 requests, 20,000 lines and 500
//   variables (target < 20 ms): parseSheet + requestAt + resolveRequest, no cache;
// - present (decode + pretty-print) a 5 MB JSON body (target < 150 ms) and a 1 MB XML body
//   (target < 100 ms), the example API's /big.json and /big.xml documents, from the bytes as
//   received, as the engine does for a response (XML: xml-formatter, fed in batches).
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bigJson, bigXml } from '../fixtures/routes/core.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-bench-'));
const out = path.join(tmp, 'engine-bench.mjs');
await build({
  stdin: {
    contents: [
      "export { parseSheet, requestAt } from './engine/src/sheet/parse.ts';",
      "export { resolveRequest } from './engine/src/resolve/resolve.ts';",
      "export { present, prettyJson, prettyXml } from './engine/src/present/present.ts';",
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
  // CommonJS dependencies bundled into ESM need a require.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const E = await import(pathToFileURL(out).href);

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
  process.stderr.write(`  ${name}: median ${median(times).toFixed(1)} ms (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}, ${runs} runs)\n`);
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), runs };
}

// A sheet of 5,000 requests in 20,000 lines with 500 variables: each request is 4 lines
// (`#` line, a declaration or a comment, the request line, a header).
function bigSheet() {
  const lines = [];
  for (let i = 0; i < 5000; i++) {
    lines.push(`# request ${i}`);
    if (i === 0) lines.push(':base = http://127.0.0.1:8080/api');
    else if (i === 1) lines.push(':token = secret-token');
    // chains of references up to 5 deep, within the default 10 passes
    else if (i < 500) lines.push(i % 5 === 0 || i === 2 ? `:v${i} = value-${i}` : `:v${i} = value-${i}/:v${i - 1}`);
    else lines.push(`# notes for request ${i}`);
    lines.push(i % 2 ? `GET :base/items/:v${(i % 495) + 5}?page=${i}` : `POST :base/items?n=${i}`);
    lines.push('Authorization: Bearer :token');
  }
  return lines.join('\n') + '\n';
}

const text = bigSheet();
const lineCount = text.split('\n').length - 1;
const vars = (text.match(/^:[^ ]+ = /gm) || []).length;
const requests = (text.match(/^(GET|POST) /gm) || []).length;
process.stderr.write(`sheet: ${requests} requests, ${lineCount} lines, ${vars} variables\n`);
let lastUrl = '';
const parse = await measure('parse+resolve', 40, 10, async () => {
  const sheet = E.parseSheet(text);
  const node = E.requestAt(sheet, lineCount);
  const r = await E.resolveRequest(sheet, node, {});
  lastUrl = r.request.url;
});
process.stderr.write(`last URL: ${lastUrl}\n`);
if (lastUrl !== 'http://127.0.0.1:8080/api/items/value-54/value-53/value-52/value-51/value-50?page=4999') throw new Error(`unexpected resolution: ${lastUrl}`);

const response = (type, text) => ({ httpVersion: '1.1', status: 200, statusText: 'OK', headers: [['Content-Type', type]], body: Buffer.from(text, 'utf8') });
const json = bigJson(5 * 1024 * 1024);
const jsonResponse = response('application/json', json);
if (E.present(jsonResponse).text !== JSON.stringify(JSON.parse(json), null, 2)) throw new Error('present (JSON) disagrees with JSON.stringify');
const j = await measure('json', 15, 5, () => E.present(jsonResponse));

const xml = bigXml(1024 * 1024);
const xmlResponse = response('application/xml', xml);
const xmlText = E.present(xmlResponse).text;
if (!xmlText || !xmlText.startsWith('<?xml') || !xmlText.includes('\n  <user id="0">')) throw new Error('the XML body was not pretty-printed');
const x = await measure('xml', 15, 5, () => E.present(xmlResponse));
fs.rmSync(tmp, { recursive: true, force: true });

const row = (what, r, target) => `| ${what} | ${r.median.toFixed(1)} ms | ${r.min.toFixed(1)} / ${r.max.toFixed(1)} ms | ${r.runs} | < ${target} ms | ${r.median < target ? 'met' : '**missed**'} |`;
process.stdout.write(
  [
    '## Engine: sheet parse + resolve, JSON and XML pretty print',
    '',
    'test/bench/engine.bench.mjs; the functions of engine/src bundled by esbuild, called in-process (no I/O). JSON and XML: `present()` of the response body bytes (decode + pretty-print), as for a response.',
    '',
    '| What | Median | Min / max | Runs | Target | |',
    '|---|---|---|---|---|---|',
    row(`Parse + resolve the last request (${requests} requests, ${lineCount} lines, ${vars} variables)`, parse, 20),
    row(`Present JSON, ${(json.length / 2 ** 20).toFixed(1)} MiB (token-level re-indenter on the UTF-8 bytes)`, j, 150),
    row(`Present XML, ${(xml.length / 2 ** 20).toFixed(1)} MiB (xml-formatter, fed in batches)`, x, 100),
    '',
  ].join('\n'),
);
