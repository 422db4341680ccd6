#!/usr/bin/env node
// `sheet import` benchmarks (make bench; `node test/bench/run.mjs import`; issue 42). Prints one
// Markdown section on stdout, progress on stderr. Measures the whole command as users type it
// (`sheet import FILE -o DIR --force`: node engine/bin/sheet, which loads engine/dist/convert.cjs;
// process start included), median of 5 runs
// after a warm-up, on generated inputs:
// - a 10 MB OpenAPI 3.0 JSON spec: operations over many paths, each with path and query
//   parameters, a request body whose schema is a local $ref to a component with nested objects,
//   and responses with $refs; target < 3 s;
// - a Postman v2.1 collection of 2,000 requests in 20 folders (collection Bearer auth inherited,
//   headers, a disabled query parameter, JSON bodies, a pm.test script); target < 1 s.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sheet = path.join(root, 'engine/bin/sheet');
// IMPORT_BENCH_DIR: write the inputs there and keep them (to profile one run by hand).
const keep = process.env.IMPORT_BENCH_DIR;
const tmp = keep ? (fs.mkdirSync(keep, { recursive: true }), keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'import-bench-'));

function openapi(targetBytes) {
  const schemas = {};
  const paths = {};
  let i = 0;
  let size = 0;
  while (size < targetBytes) {
    const props = {};
    for (let p = 0; p < 20; p++) props[`field${p}`] = p % 3 ? { type: 'string', description: `Field ${p} of thing ${i}, a description long enough to look like a real one.` } : { type: 'object', required: ['a'], properties: { a: { type: 'integer', example: p }, b: { type: 'array', items: { type: 'string' } } } };
    schemas[`Thing${i}`] = { type: 'object', required: ['field0', 'field1'], properties: props };
    const op = (method) => ({
      operationId: `${method}Thing${i}`,
      tags: [`group${i % 25}`],
      summary: `${method} thing ${i}`,
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'integer', example: 1 } },
        { name: 'limit', in: 'query', schema: { type: 'integer', default: 10 } },
        { name: 'X-Request-Id', in: 'header', schema: { type: 'string' } },
      ],
      ...(method === 'put' ? { requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/Thing${i}` } } } } } : {}),
      responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/Thing${i}` } } } } },
    });
    paths[`/things${i}/{id}`] = { get: op('get'), put: op('put'), delete: op('delete') };
    i++;
    if (i % 50 === 0) size = JSON.stringify({ paths, schemas }).length;
  }
  return { operations: i * 3, text: JSON.stringify({ openapi: '3.0.3', info: { title: 'Big', version: '1' }, servers: [{ url: 'https://api.example.com/v1' }], paths, components: { schemas } }) };
}

function postman(n) {
  const folders = [];
  for (let f = 0; f < 20; f++) {
    const item = [];
    for (let r = 0; r < n / 20; r++) {
      item.push({
        name: `Request ${f}.${r}`,
        event: [{ listen: 'test', script: { exec: ["pm.test('ok', function () {", '  pm.response.to.have.status(200);', '});'] } }],
        request: {
          method: r % 2 ? 'POST' : 'GET',
          header: [{ key: 'X-Folder', value: String(f) }, { key: 'Accept', value: 'application/json' }],
          url: { raw: `{{base}}/f${f}/r${r}?a=1&b=2`, host: ['{{base}}'], path: [`f${f}`, `r${r}`], query: [{ key: 'a', value: '1' }, { key: 'b', value: '2', disabled: true }] },
          ...(r % 2 ? { body: { mode: 'raw', raw: JSON.stringify({ folder: f, request: r, name: 'x'.repeat(40) }), options: { raw: { language: 'json' } } } } : {}),
        },
      });
    }
    folders.push({ name: `Folder ${f}`, item });
  }
  return JSON.stringify({ info: { name: 'Big', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] }, variable: [{ key: 'base', value: 'http://127.0.0.1:8080' }], item: folders });
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function time(file) {
  const runs = [];
  const cpus = [];
  for (let k = 0; k < 6; k++) {
    const t = process.hrtime.bigint();
    // /usr/bin/time gives the child's CPU time (user + system): on a shared, loaded machine the
    // wall time moves with the load, the CPU time much less.
    const r = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, sheet, 'import', file, '-o', path.join(tmp, 'out'), '--force'], { encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`sheet import ${file}: exit ${r.status}\n${r.stderr}`);
    const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(r.stderr);
    if (k) {
      runs.push(ms);
      cpus.push(cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN);
    }
  }
  return { ms: median(runs), runs, cpu: median(cpus) };
}

const spec = openapi(10 * 1024 * 1024);
fs.writeFileSync(path.join(tmp, 'big-openapi.json'), spec.text);
const postmanText = postman(2000);
const postmanBytes = postmanText.length;
fs.writeFileSync(path.join(tmp, 'big.postman_collection.json'), postmanText);
if (process.argv[2] === '--inputs-only') process.exit(0);
process.stderr.write('import bench: OpenAPI\n');
const a = time(path.join(tmp, 'big-openapi.json'));
process.stderr.write('import bench: Postman\n');
const b = time(path.join(tmp, 'big.postman_collection.json'));
const load = os.loadavg()[0].toFixed(1);
if (!keep) fs.rmSync(tmp, { recursive: true, force: true });
const row = (name, size, r, target) => `| ${name} | ${size} | ${r.ms.toFixed(0)} ms (${r.runs.map((x) => x.toFixed(0)).join(', ')}) | ${r.cpu.toFixed(0)} ms | < ${target} ms ${r.ms < target ? 'met' : 'NOT met'} (CPU time ${r.cpu < target ? 'within' : 'over'} it) |`;
process.stdout.write(`## sheet import (issue 42)

The whole command, \`sheet import FILE -o DIR --force\` (process start, parsing, \`$ref\`s, writing the files), median of 5 runs after a warm-up; generated inputs (test/bench/import.bench.mjs). Load average (1 min) at the end: ${load} on ${os.cpus().length} cores.

| Input | Size | Wall time (runs) | CPU time (median) | Target |
|---|---|---|---|---|
${row(`OpenAPI 3.0 JSON, ${spec.operations} operations, a $ref'd schema each`, `${(spec.text.length / 2 ** 20).toFixed(1)} MiB`, a, 3000)}
${row('Postman v2.1, 2,000 requests in 20 folders, inherited Bearer, pm.test scripts', `${(postmanBytes / 2 ** 20).toFixed(1)} MiB`, b, 1000)}
`);
