/**
 * `sheet run --report`: the run's results as TAP (version 14, testanything.org), JUnit XML
 * (the Jenkins/Ant schema, written by junit-report-builder) or JSON (request as sent, status,
 * timings, each assertion). One test point / test case per request; its assertions are the
 * diagnostics. Reports are written to a temporary file and renamed, never half-written.
 */
import { targetAsWritten } from '../url/as-written.js';
import path from 'node:path';
import type { Builder } from 'junit-report-builder';
import type { FileResult, RequestResult } from './runner.js';
import { VERSION } from '../version.js';

/**
 * junit-report-builder, loaded for the first JUnit report only: a run without one (and every
 * other `sheet` command) does not pay for loading it (about 10 ms of each start).
 */
let junitLoaded: Promise<Builder> | undefined;
function junitBuilder(): Promise<Builder> {
  // The package is CommonJS (`module.exports = builder`) with types that declare a default export.
  return (junitLoaded ??= import('junit-report-builder').then((m) => ((m as unknown as { default?: Builder }).default ?? m) as unknown as Builder));
}

/** A request's name in reports: `GET /users (demo.sheet:11)`. */
export function requestName(r: RequestResult): string {
  // The request target as sent (url/as-written.ts keeps a URL sent as written unencoded); a
  // template that did not resolve is shown as written.
  const where = targetAsWritten(r.url) ?? r.url;
  return `${r.method} ${where} (${path.basename(r.file)}:${r.line})`;
}

/**
 * The stable test names of a file's results, in order (issue 36 item 6): each result's `name`
 * (runner.ts: the `.http` request's name, else the request line as written), without file or
 * line (those are the JUnit attributes `file` and `line`); a name that repeats in the file gets
 * ` #2`, ` #3`, ... by its order of appearance. A result from an older JSON report without a
 * name (`sheet report merge`) is named by its method and URL.
 */
export function testNames(results: RequestResult[]): string[] {
  const seen = new Map<string, number>();
  return results.map((r) => {
    const base = r.name ?? `${r.method} ${r.url}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n > 1 ? `${base} #${n}` : base;
  });
}

/**
 * A failed request as text for JUnit's `<failure>` body (GitLab shows it, Jenkins shows it as
 * the trace): per failed assertion its place, the expectation and what came back, on lines
 * `expected:` and `actual:` when the message has the `...: failed, got ...` form.
 */
export function failureText(r: RequestResult): string {
  if (r.error) return r.error.message;
  return r.assertions
    .filter((a) => !a.passed)
    .map((a) => {
      const where = `${path.basename(r.file)}:${a.line}`;
      const m = /^line \d+: (.*?): failed, got ([\s\S]*)$/.exec(a.message);
      if (m) return `${where}: ${m[1]}\n  expected: ${m[1]}\n  actual: ${m[2]}`;
      return `${where}: ${a.message.replace(/^line \d+: /, '')}`;
    })
    .join('\n');
}

/** The failure lines of a request: its error, or its failed assertions' messages. */
export function failures(r: RequestResult): string[] {
  if (r.error) return [r.error.message];
  return r.assertions.filter((a) => !a.passed).map((a) => `${path.basename(r.file)}:${a.message.replace(/^line /, '')}`);
}

/** YAML's double-quoted scalar is JSON's string syntax. */
const yamlString = (s: string) => JSON.stringify(s);

/**
 * The run as TAP 14: `ok N - name`, failures with a YAML diagnostic block; a request sent more
 * than once (`--retry`) has `attempts` there, and a pass on a retry `flaky: true`.
 */
export function tap(files: FileResult[]): string {
  const points: string[] = [];
  let n = 0;
  for (const f of files) {
    if (f.error) {
      n++;
      points.push(`not ok ${n} - ${f.file}\n  ---\n  message: ${yamlString(f.error.message)}\n  code: ${f.error.code}\n  ...`);
    }
    const names = testNames(f.results);
    for (const [k, r] of f.results.entries()) {
      n++;
      const ok = r.outcome === 'passed';
      let line = `${ok ? 'ok' : 'not ok'} ${n} - ${names[k]!.replace(/#/g, '\\#')}`;
      if (!ok) {
        const diag = [`  message: ${yamlString(failures(r).join('; '))}`, `  at: ${yamlString(`${f.file}:${r.line}`)}`, `  outcome: ${r.outcome}`];
        if (r.status !== undefined) diag.push(`  status: ${r.status}`);
        if (r.durationMs !== undefined) diag.push(`  duration_ms: ${Math.round(r.durationMs)}`);
        if (r.attempts) diag.push(`  attempts: ${r.attempts}`);
        if (r.assertions.length) diag.push('  assertions:', ...r.assertions.map((a) => `    - ${yamlString(a.message)}`));
        line += `\n  ---\n${diag.join('\n')}\n  ...`;
      } else if (r.flaky) line += `\n  ---\n  flaky: true\n  attempts: ${r.attempts}\n  ...`;
      points.push(line);
    }
  }
  return `TAP version 14\n1..${n}\n${points.join('\n')}${points.length ? '\n' : ''}`;
}

/**
 * A test case's `line` attribute, beside `file` (the attributes pytest writes and GitLab's test
 * report reads; the Jenkins/Ant schema allows extra attributes). junit-report-builder has
 * `file()` but no `line()`, so it is set on the attributes its `build()` writes.
 */
function lineOf<T extends object>(tc: T, line: number | undefined): T {
  if (line !== undefined) (tc as unknown as { _attributes: Record<string, unknown> })._attributes.line = line;
  return tc;
}

/** The run as JUnit XML: a test suite per file, a test case per request. */
export async function junitXml(files: FileResult[]): Promise<string> {
  const builder = (await junitBuilder()).newBuilder();
  for (const f of files) {
    const suite = builder.testSuite().name(f.file);
    if (f.error) lineOf(suite.testCase().className(f.file).name(f.file).file(f.file), f.error.line).error(f.error.message, f.error.code);
    const names = testNames(f.results);
    for (const [k, r] of f.results.entries()) {
      const tc = lineOf(suite.testCase().className(f.file).name(names[k]!).file(f.file), r.line);
      if (r.durationMs !== undefined) tc.time(r.durationMs / 1000);
      if (r.attempts) tc.property('attempts', String(r.attempts));
      if (r.flaky) tc.property('flaky', 'true');
      const msgs = failures(r);
      // The message attribute and the same with expected/actual as the element's text.
      if (r.outcome === 'failed') tc.failure(msgs.join('\n'), 'assertion').stacktrace(failureText(r));
      else if (r.error) tc.error(r.error.message, r.error.code).stacktrace(failureText(r));
      const passed = r.assertions.filter((a) => a.passed).map((a) => a.message);
      if (passed.length) tc.standardOutput(passed.join('\n'));
    }
  }
  return builder.build();
}

/** The run as JSON: every result whole (request as sent, status, timings, assertions). */
export function json(files: FileResult[], summary: object): string {
  return JSON.stringify({ tool: 'sheet run', version: VERSION, summary, files }, null, 2) + '\n';
}

export { writeReport } from './write-whole.js';
