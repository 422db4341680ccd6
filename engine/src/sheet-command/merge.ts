/**
 * `sheet report merge A.json B.json... --report FORMAT:PATH...` (issue 26 item 3): the JSON
 * reports of a sharded run (`sheet run --shard I/N --report json:PATH` on each CI job) as one
 * run, written in any report format (HTML, JUnit, TAP, JSON). The files keep the order of
 * the reports given; the counts are recomputed from the results, and the total time is the
 * longest shard's (shards run side by side). Exit status as `sheet run`'s for the merged run
 * (so the merging job fails when a shard failed); 2 on a usage error (an unreadable report,
 * one that is not a `sheet run` JSON report).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { FileResult } from './runner.js';
import type { RunSummary } from './report-html.js';
import { exitStatus, parseReport, summarize, writeReports, type Report } from './report-write.js';

interface MergeIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

const HELP = `Usage: sheet report merge REPORT.json... --report FORMAT:PATH...

Merge the JSON reports of sheet run --shard I/N jobs into one run and write it as
tap, tap:PATH, junit:PATH, json:PATH or html:PATH (repeatable). Exit status as sheet run's.
`;

function usage(io: MergeIo, msg: string): number {
  io.err(`sheet report: ${msg}\nTry 'sheet report --help'.\n`);
  return 2;
}

/** `sheet report ARGS` (ARGS after `report`). */
export async function reportCommand(argv: string[], io: MergeIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { report: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    return usage(io, (e as Error).message.split('\n')[0]!);
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    io.out(HELP);
    return 0;
  }
  const [sub, ...inputs] = positionals;
  if (sub !== 'merge') return usage(io, sub ? `unknown command report ${sub}; use report merge` : 'use sheet report merge A.json B.json --report FORMAT:PATH');
  if (!inputs.length) return usage(io, 'report merge needs the JSON reports to merge');
  const reports: Report[] = [];
  for (const s of v.report ?? []) {
    const r = parseReport(s);
    if (typeof r === 'string') return usage(io, r);
    reports.push(r);
  }
  if (!reports.length) return usage(io, 'report merge needs --report FORMAT:PATH (what to write)');
  const files: FileResult[] = [];
  let count = 0;
  let selected = 0;
  let durationMs = 0;
  for (const f of inputs) {
    let doc: { tool?: string; summary?: RunSummary; files?: FileResult[] };
    try {
      doc = JSON.parse(fs.readFileSync(f, 'utf8'));
    } catch (e) {
      return usage(io, `cannot read ${f}: ${(e as Error).message}`);
    }
    if (doc?.tool !== 'sheet run' || !Array.isArray(doc.files) || !doc.summary) return usage(io, `${f} is not a JSON report of sheet run (--report json:PATH)`);
    files.push(...doc.files);
    count += doc.summary.files;
    selected += doc.summary.selected;
    durationMs = Math.max(durationMs, doc.summary.durationMs);
  }
  const summary = summarize(files, { files: count, selected, durationMs });
  const problem = await writeReports(reports, files, summary, io.out);
  if (problem) return usage(io, problem);
  io.err(`${inputs.length} reports merged: ${summary.requests} requests, ${summary.assertions.failed} failed assertions, ${summary.errors} sheet errors, ${summary.transportErrors} transport errors\n`);
  return exitStatus(summary);
}
