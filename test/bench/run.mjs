#!/usr/bin/env node
// Runs every benchmark (test/bench/*.bench.mjs, each a script that prints one Markdown section
// on stdout and its progress on stderr) and writes docs/benchmarks.md with the machine noted.
// A benchmark that exits non-zero is reported in the file and makes this exit 1.
//
//   node test/bench/run.mjs [name ...]     e.g. `node test/bench/run.mjs engine`
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const only = process.argv.slice(2);
const files = fs.readdirSync(here).filter((f) => f.endsWith('.bench.mjs')).sort()
  .filter((f) => !only.length || only.includes(f.replace(/\.bench\.mjs$/, '')));

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const machine = [
  `- Date: ${new Date().toISOString()}`,
  `- Machine: ${os.cpus().length} x ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()} ${os.arch()}`,
  `- Node ${process.version}`,
  `- Emacs: ${spawnSync('emacs', ['--version'], { encoding: 'utf8' }).stdout?.split('\n')[0] || 'not installed'}`,
];
const sections = [];
let failed = 0;
for (const f of files) {
  process.stderr.write(`bench: ${f}\n`);
  const r = spawnSync(process.execPath, [path.join(here, f)], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    failed++;
    sections.push(`## ${f}\n\nFAILED (exit ${r.status}).\n\n${r.stdout || ''}`);
  } else sections.push(r.stdout.trim() + '\n');
}
const doc = `# Benchmarks\n\nWritten by \`make bench\` (test/bench/run.mjs). Medians; each section says what was measured and the target.\n\n${machine.join('\n')}\n\n${sections.join('\n')}`;
fs.writeFileSync(path.join(root, 'docs/benchmarks.md.tmp'), doc);
fs.renameSync(path.join(root, 'docs/benchmarks.md.tmp'), path.join(root, 'docs/benchmarks.md'));
process.stdout.write(doc);
process.exit(failed ? 1 : 0);
