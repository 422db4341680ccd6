/**
 * The `--report` option of `sheet run` and `sheet report merge`: its parsing, the run's
 * summary and exit status, and writing each report (whole: report.ts `writeReport`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FileResult } from './runner.js';
import { json, junitXml, tap, writeReport } from './report.js';
import { htmlReport, type RunSummary } from './report-html.js';

/**
 * One `--report FORMAT[:PATH]`; no path means standard output: TAP without a path, or any
 * format with the path `-` (the usual Unix spelling, as curl's `-o -`).
 */
export interface Report {
  format: 'tap' | 'junit' | 'json' | 'html';
  path?: string;
}

/** `--report` argument -> a report, or the usage message. */
export function parseReport(s: string): Report | string {
  const m = /^(tap|junit|json|html)(?::(.+))?$/.exec(s);
  if (!m) return `--report ${s}: use tap, tap:PATH, junit:PATH, json:PATH or html:PATH`;
  if (m[1] !== 'tap' && !m[2]) return `--report ${m[1]} needs a file: --report ${m[1]}:PATH`;
  return { format: m[1] as Report['format'], path: m[2] === '-' ? undefined : m[2] };
}

/** The counts of a run (or of merged runs) from its file results. */
export function summarize(ran: FileResult[], o: { files: number; selected: number; durationMs: number }): RunSummary {
  const all = ran.flatMap((f) => f.results);
  const assertions = all.flatMap((r) => r.assertions);
  return {
    files: o.files,
    requests: all.length,
    selected: o.selected,
    passed: all.filter((r) => r.outcome === 'passed').length,
    failed: all.filter((r) => r.outcome === 'failed').length,
    errors: all.filter((r) => r.outcome === 'error').length + ran.filter((f) => f.error).length,
    transportErrors: all.filter((r) => r.outcome === 'transport').length,
    assertions: { passed: assertions.filter((a) => a.passed).length, failed: assertions.filter((a) => !a.passed).length },
    flaky: all.filter((r) => r.flaky).length,
    durationMs: o.durationMs,
  };
}

/** The exit status of a summary: 2 sheet errors, else 3 transport failures, else 1 failed assertions, else 0. */
export function exitStatus(s: RunSummary): number {
  if (s.errors) return 2;
  if (s.transportErrors) return 3;
  if (s.failed) return 1;
  return 0;
}

/**
 * Make sure every report with a path can be written, before the first request (issue 36 item
 * 4): its folder is created when missing (as hurl creates its report folders, `mkdir -p`), and
 * must be a writable folder; the path itself must not be a folder.
 * @returns undefined, or a message naming each report that cannot be written and why.
 */
export function prepareReportPaths(reports: Report[]): string | undefined {
  const problems: string[] = [];
  for (const r of reports) {
    if (!r.path) continue;
    const file = path.resolve(r.path);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.accessSync(path.dirname(file), fs.constants.W_OK);
      if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new Error('it is a folder; give a file name');
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === 'ENOTDIR' || (e as NodeJS.ErrnoException).code === 'EEXIST' ? 'a part of its folder is a file' : (e as Error).message;
      problems.push(`cannot write the report ${r.format}:${r.path}: ${why}`);
    }
  }
  return problems.length ? `${problems.join('; ')}; nothing was sent` : undefined;
}

/**
 * Write every report (stdout for TAP without a path); one that cannot be written does not keep
 * the others from being written.
 * @returns undefined, or the messages of the reports that could not be written.
 */
export async function writeReports(reports: Report[], ran: FileResult[], summary: RunSummary, out: (s: string) => void): Promise<string | undefined> {
  const problems: string[] = [];
  for (const r of reports) {
    const text = r.format === 'tap' ? tap(ran) : r.format === 'junit' ? await junitXml(ran) : r.format === 'html' ? htmlReport(ran, summary) : json(ran, summary);
    if (!r.path) out(text);
    else {
      try {
        await fs.promises.mkdir(path.dirname(path.resolve(r.path)), { recursive: true });
        await writeReport(path.resolve(r.path), text);
      } catch (e) {
        problems.push(`cannot write the report ${r.path}: ${(e as Error).message}`);
      }
    }
  }
  return problems.length ? problems.join('; ') : undefined;
}
