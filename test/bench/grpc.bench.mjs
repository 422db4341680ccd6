#!/usr/bin/env node
// gRPC benchmark (issue 41; make bench; `node test/bench/run.mjs grpc`). Prints one Markdown
// section on stdout, progress on stderr. The gRPC fixture (test/fixtures/grpc-server.mjs) in its
// own process on 127.0.0.1; measured, interleaved, whole commands (process start included):
// - `sheet run` of a .http file of 1,000 unary calls of demo.Echo/Say (one proto line for the
//   file) against
// - the floor: the same 1,000 calls from a plain @grpc/grpc-js script in one process
//   (test/bench/floor-grpc.cjs).
// Also, not under the target: the same calls naming no proto (server reflection, kept per
// channel: grpc/reflection-cache.ts), so asking the server on every call again shows here.
// Target: sheet run within 1.5 x the floor. What a run pays beyond the floor, and the cuts
// that brought it there (branches grpc2, grpcbench, grpc3: environment files once per file,
// reflection kept per channel, one parse per file, no AsyncLocalStorage with one worker, an
// ASCII bundle), with the numbers of each: docs/benchmarks.md, "grpc".
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'grpc-bench-'));
const N = 1000;
const RUNS = 5;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const portFile = path.join(work, 'port');
const server = spawn(process.execPath, [path.join(root, 'test/fixtures/grpc-server.mjs'), '--port-file', portFile], { stdio: 'ignore' });
for (let i = 0; i < 400 && !(fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').trim()); i++) await new Promise((r) => setTimeout(r, 50));
const address = `127.0.0.1:${fs.readFileSync(portFile, 'utf8').trim()}`;

const protos = path.join(root, 'test/fixtures/grpc');
const file = path.join(work, 'calls.http');
const calls = Array.from({ length: N }, (_, i) => `### ${i}\nGRPC ${address}/demo.Echo/Say\n\n{"name": "n${i}"}\n`);
fs.writeFileSync(file, `proto < ${protos}/demo.proto\nincludeDirs: ["${protos}/include"]\n\n${calls.join('\n')}`);
// The same calls naming no proto: the service from server reflection (kept per channel).
const reflected = path.join(work, 'reflected.http');
fs.writeFileSync(reflected, calls.join('\n'));

const timed = (args) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: work, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}\n${r.stderr}\n${r.stdout.slice(-2000)}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const sheet = [];
const floor = [];
const refl = [];
try {
  for (let k = 0; k < RUNS; k++) {
    floor.push(timed([path.join(root, 'test/bench/floor-grpc.cjs'), address, String(N)]));
    sheet.push(timed([path.join(root, 'engine/bin/sheet'), 'run', file]));
    refl.push(timed([path.join(root, 'engine/bin/sheet'), 'run', reflected]));
    process.stderr.write(`grpc bench: run ${k + 1}/${RUNS}: sheet ${sheet[k].toFixed(0)} ms, by reflection ${refl[k].toFixed(0)} ms, floor ${floor[k].toFixed(0)} ms\n`);
  }
} finally {
  server.kill();
  fs.rmSync(work, { recursive: true, force: true });
}
const s = median(sheet);
const f = median(floor);
const r = median(refl);
const ratio = s / f;
process.stdout.write(`## grpc

${N} unary calls of demo.Echo/Say to the gRPC fixture on 127.0.0.1 (plain text), whole commands,
${RUNS} interleaved runs, medians:

| | ms | per call |
|---|---|---|
| \`sheet run\` of a .http file of ${N} GRPC requests | ${s.toFixed(0)} | ${(s / N).toFixed(2)} ms |
| floor: a plain @grpc/grpc-js script, one process | ${f.toFixed(0)} | ${(f / N).toFixed(2)} ms |
| \`sheet run\` of the same requests naming no proto (server reflection) | ${r.toFixed(0)} | ${(r / N).toFixed(2)} ms |

Ratio ${ratio.toFixed(2)} x (target within 1.5 x): ${ratio <= 1.5 ? 'met' : 'not met'}. Naming no proto: ${(r / f).toFixed(2)} x the floor (no target; reflection is asked once per channel).
`);
