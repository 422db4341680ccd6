#!/usr/bin/env node
// Benchmark of the `sheet` launcher's start (engine/bin/sheet, the npm package's bin): time to
// `sheet --version`'s output through the launcher against running its bundle directly
// (`node engine/dist/sheet.cjs --version`, the anchor) and against the ES module launcher it
// replaced (an `import()` of the bundle from a "type": "module" scope, rebuilt in a temporary
// folder); and time to the answer of `initialize` from `sheet engine --stdio` against
// `node engine/dist/engine.cjs --stdio`. Targets: the launcher adds at most 10% to its bundle's
// start; `sheet engine --stdio` starts within 10% of engine.cjs. Interleaved runs, median of 21.
// Prints one Markdown section on stdout; progress on stderr. Run: node test/bench/run.mjs sheet-cli
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ROUNDS = 21;
const dist = path.join(root, 'engine/dist');

/** Milliseconds from spawn to the first stdout bytes; the process is then let finish. */
function firstOutput(args, input) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
    let ms;
    child.stdout.once('data', () => {
      ms = Number(process.hrtime.bigint() - t0) / 1e6;
      child.stdin.end();
    });
    child.on('close', (code) => (ms !== undefined && code === 0 ? resolve(ms) : reject(new Error(`node ${args.join(' ')} exited ${code} without output`))));
    if (input) child.stdin.write(input);
    else child.stdin.end();
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const msg = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientName: 'bench', lisp: false } });
const frame = `Content-Length: ${Buffer.byteLength(msg)}\r\n\r\n${msg}`;

// The launcher as it was: an ES module (extensionless, in a "type": "module" scope) that import()s the bundle.
const old = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-cli-bench-'));
fs.writeFileSync(path.join(old, 'package.json'), '{"type":"module"}\n');
fs.writeFileSync(path.join(old, 'sheet'), `import(${JSON.stringify(path.join(dist, 'sheet.cjs'))});\n`);

const cases = {
  '`node engine/dist/sheet.cjs --version` (anchor)': [[path.join(dist, 'sheet.cjs'), '--version']],
  '`sheet --version` (bin/sheet: CommonJS, require)': [[path.join(root, 'engine/bin/sheet'), '--version']],
  '`sheet --version` (the ES module launcher before: import())': [[path.join(old, 'sheet'), '--version']],
  '`node engine/dist/engine.cjs --stdio` (anchor)': [[path.join(dist, 'engine.cjs'), '--stdio'], frame],
  '`sheet engine --stdio`': [[path.join(root, 'engine/bin/sheet'), 'engine', '--stdio'], frame],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
try {
  for (let i = 0; i < ROUNDS; i++) {
    process.stderr.write(`sheet-cli bench: round ${i + 1}/${ROUNDS}\n`);
    for (const [k, [args, input]] of Object.entries(cases)) times[k].push(await firstOutput(args, input));
  }
} finally {
  fs.rmSync(old, { recursive: true, force: true });
}
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
const keys = Object.keys(cases);
const ratio = (a, b) => m[keys[a]] / m[keys[b]];
const verdict = (r) => (r <= 1.1 ? 'met' : 'NOT met');
const rows = keys.map((k) => `| ${k} | ${m[k].toFixed(0)} ms |`);
process.stdout.write(`## sheet-cli

Start of the npm package's \`sheet\` command: milliseconds from spawning node to the first bytes
on stdout (\`--version\`'s line; the answer to \`initialize\` for the JSON-RPC server). Interleaved
runs, median of ${ROUNDS}.

| command | to first output |
| --- | ---: |
${rows.join('\n')}

- Target: the launcher adds at most 10% to its bundle's start: ${ratio(1, 0).toFixed(2)}x, ${verdict(ratio(1, 0))} (the ES module launcher it replaced: ${ratio(2, 0).toFixed(2)}x).
- Target: \`sheet engine --stdio\` starts within 10% of \`engine.cjs --stdio\`: ${ratio(4, 3).toFixed(2)}x, ${verdict(ratio(4, 3))}.
`);
