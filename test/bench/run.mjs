#!/usr/bin/env node
// Runs every benchmark (test/bench/*.bench.mjs, each a script that prints one Markdown section
// on stdout and its progress on stderr) and writes docs/benchmarks.md with the machine noted.
// A section's `<!-- notes -->` ... `<!-- /notes -->` block (prose written by hand) is kept.
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
// Sections are kept between markers, so a partial run (`run.mjs engine`) replaces only its own
// section and keeps the others from the last full run.
const docPath = path.join(root, 'docs/benchmarks.md');
const previous = new Map();
if (fs.existsSync(docPath)) {
  const re = /<!-- bench:([\w-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g;
  for (const m of fs.readFileSync(docPath, 'utf8').matchAll(re)) previous.set(m[1], m[2]);
}
const sections = new Map(previous);
// Hand-written prose about a section's numbers (what a run showed, why) lives between
// `<!-- notes -->` and `<!-- /notes -->` inside the section: kept when the section is rewritten.
const notesOf = (text) => /<!-- notes -->\n[\s\S]*?<!-- \/notes -->\n/.exec(text ?? '')?.[0]?.concat('\n') ?? '';
let failed = 0;
for (const f of files) {
  const name = f.replace(/\.bench\.mjs$/, '');
  process.stderr.write(`bench: ${f}\n`);
  const r = spawnSync(process.execPath, [path.join(here, f)], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  const stamp = `_Measured ${new Date().toISOString()} on the machine above._\n`;
  // A bench whose switch is off (streams-endless without REST_BENCH_ENDLESS_S) prints nothing: its last section stays.
  if (r.status === 0 && !r.stdout.trim()) continue;
  if (r.status !== 0) {
    failed++;
    sections.set(name, `## ${name}\n\nFAILED (exit ${r.status}).\n\n${r.stdout || ''}\n`);
  } else sections.set(name, r.stdout.trim() + '\n\n' + notesOf(previous.get(name)) + stamp);
}
const body = [...sections].sort(([a], [b]) => a.localeCompare(b)).map(([n, t]) => `<!-- bench:${n} -->\n${t}<!-- /bench:${n} -->\n`).join('\n');
const doc = `# Benchmarks\n\nWritten by \`make bench\` (test/bench/run.mjs). Medians; each section says what was measured and the target.\n\n${machine.join('\n')}\n\n${body}`;
fs.writeFileSync(docPath + '.tmp', doc);
fs.renameSync(docPath + '.tmp', docPath);
process.stdout.write(doc);
process.exit(failed ? 1 : 0);
