/**
 * `sheet`: the engine's command line (engine/bin/sheet). `sheet run FILE...` runs sheets as
 * test suites (docs/sheet-run.md); `sheet convert`, `sheet import-curl` (import-curl-cli.ts),
 * `sheet engine --stdio` (engine-cli.ts), `sheet shell-path` (shell-path.ts); `sheet --help`,
 * `sheet --version` / `-V`.
 * Exit status: 0 every assertion passed, 1 an assertion failed, 2 a usage or sheet error
 * (located by line), 3 a transport failure (connection refused, timeout, TLS, ...). When
 * several happen, the highest in the order 2, 3, 1 wins.
 */
import { createRequire } from 'node:module';
import { grpcStatusName } from '../grpc/status.js';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { VERSION } from '../version.js';
import { closeConnections } from '../http/send.js';
import { batchEmacsFor } from './lisp-batch.js';
import { runFile, type FileResult, type RequestResult, type RunOptions } from './runner.js';
import { failures, requestName } from './report.js';
import { parseShard, shardFiles } from './shard.js';
import { reportCommand } from './merge.js';
import { exitStatus, parseReport, prepareReportPaths, summarize, writeReports, type Report } from './report-write.js';
import { parsedFile, runSteps } from './runner.js';
import fs from 'node:fs';
import { checkHttpFile, convertCommand } from './convert-cli.js';
import { exportPostmanCommand, isPostmanExport } from './export-postman-cli.js';
import { importCurlCommand } from './import-curl-cli.js';
import { clientCertSetting } from '../session/tls-settings.js';
import { exportCommand } from './export-cli.js';
import { authCommand } from './auth-cli.js';
import { grpcCommand } from './grpc-cli.js';
import { engineCommand } from './engine-cli.js';
import { shellPathCommand } from './shell-path.js';
import { elispPathCommand } from './elisp-path.js';
import { readAnswers, type Ask } from './prompts.js';
import { annotationsOn, fileAnnotation, requestAnnotations } from './annotations.js';

import { HELP } from './help.js';

export type { Io } from './io.js';
import type { Io } from './io.js';

const USAGE = 2;

function usage(io: Io, msg: string): number {
  io.err(`sheet: ${msg}\nTry 'sheet --help'.\n`);
  return USAGE;
}

/**
 * `sheet import` from its own bundle, engine/dist/convert.cjs beside this one (`make build`):
 * its libraries (postman-collection, swagger-parser, yaml, ...) double the size of sheet.cjs,
 * and every `sheet` command would pay to load them. From the sources (tests), import-cli.ts.
 */
async function importViaBundle(args: string[], io: Io): Promise<number> {
  const here = typeof __dirname === 'string' ? __dirname : undefined;
  const bundle = here ? path.join(here, 'convert.cjs') : undefined;
  type ImportModule = { importCommand: (a: string[], o: Io) => Promise<number> };
  if (bundle && fs.existsSync(bundle)) return (createRequire(bundle)(bundle) as ImportModule).importCommand(args, io);
  if (here) return usage(io, `cannot load ${bundle} (run make build)`);
  const source = './import-cli.js';
  return ((await import(source)) as ImportModule).importCommand(args, io);
}

/**
 * Run the command line `argv` (without node and the script).
 * @returns the exit status (see the file comment).
 */
export async function main(argv: string[], io: Io): Promise<number> {
  // Commands with arguments of their own (a curl command line is not sheet's options).
  const rest = argv.slice(1);
  if (argv[0] === 'import-curl') return importCurlCommand(rest, { ...io, stdin: io.stdin ?? (async () => '') });
  if (argv[0] === 'export') return isPostmanExport(rest) ? exportPostmanCommand(rest, io) : exportCommand(rest, io);
  if (argv[0] === 'import') return importViaBundle(rest, io);
  if (argv[0] === 'engine') return engineCommand(rest, io);
  if (argv[0] === 'shell-path') return shellPathCommand(rest, io);
  if (argv[0] === 'elisp-path') return elispPathCommand(rest, io);
  if (argv[0] === 'report') return reportCommand(rest, io);
  if (argv[0] === 'auth') return authCommand(rest, io);
  if (argv[0] === 'grpc') return grpcCommand(rest, io);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        var: { type: 'string', multiple: true },
        env: { type: 'string' },
        'prompts-from': { type: 'string' },
        output: { type: 'string', short: 'o' },
        to: { type: 'string' },
        line: { type: 'string' },
        grep: { type: 'string' },
        report: { type: 'string', multiple: true },
        jobs: { type: 'string' },
        shard: { type: 'string' },
        retry: { type: 'string' },
        'retry-delay': { type: 'string' },
        repeat: { type: 'string' },
        'fail-fast': { type: 'boolean' },
        bail: { type: 'boolean' },
        timeout: { type: 'string' },
        insecure: { type: 'boolean', short: 'k' },
        proxy: { type: 'string', short: 'x' },
        noproxy: { type: 'string' },
        cacert: { type: 'string' },
        cert: { type: 'string', short: 'E' },
        key: { type: 'string' },
        pass: { type: 'string' },
        http2: { type: 'boolean' },
        'unix-socket': { type: 'string' },
        netrc: { type: 'boolean', short: 'n' },
        'netrc-file': { type: 'string' },
        'cookie-jar': { type: 'string' },
        untrusted: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
    });
  } catch (e) {
    return usage(io, (e as Error).message.split('\n')[0]!);
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    io.out(HELP);
    return 0;
  }
  if (v.version) {
    io.out(`sheet ${VERSION}\n`);
    return 0;
  }
  const [command, ...given] = positionals;
  let files = given;
  if (!command) return usage(io, 'a command is needed: sheet run FILE..., convert, import-curl, export, engine, shell-path or elisp-path');
  if (command === 'convert') return convertCommand(files, { output: v.output, to: v.to }, io);
  if (command !== 'run') return usage(io, `unknown command ${command}`);
  if (v.output !== undefined || v.to !== undefined) return usage(io, `${v.output !== undefined ? '-o' : '--to'} belongs to sheet convert`);
  if (!files.length) return usage(io, 'sheet run needs at least one FILE');
  const vars: [string, string][] = [];
  const bare: string[] = [];
  for (const s of v.var ?? []) {
    // The colon is optional: `.http` users write `--var name=value` (their `{{name}}`).
    const m = /^(:?[^\s=:]+)=([\s\S]*)$/.exec(s);
    if (!m) return usage(io, `--var ${s}: use --var :name=value`);
    if (!m[1]!.startsWith(':')) bare.push(s);
    vars.push([m[1]!.startsWith(':') ? m[1]! : `:${m[1]!}`, m[2]!]);
  }
  if (v.line !== undefined && v.grep !== undefined) return usage(io, '--line and --grep cannot be used together');
  const line = v.line === undefined ? undefined : Number(v.line);
  if (line !== undefined && !(Number.isInteger(line) && line >= 1)) return usage(io, `--line ${v.line}: a line number (1, 2, ...)`);
  let grep: RegExp | undefined;
  try {
    grep = v.grep === undefined ? undefined : new RegExp(v.grep);
  } catch (e) {
    return usage(io, `--grep ${v.grep}: ${(e as Error).message}`);
  }
  const jobs = v.jobs === undefined ? 1 : Number(v.jobs);
  if (!(Number.isInteger(jobs) && jobs >= 1)) return usage(io, `--jobs ${v.jobs}: a number of files, 1 or more`);
  const retry = v.retry === undefined ? 0 : Number(v.retry);
  if (!(Number.isInteger(retry) && retry >= 0)) return usage(io, `--retry ${v.retry}: a number of retries, 0 or more`);
  const retryDelay = v['retry-delay'] === undefined ? 1000 : Number(v['retry-delay']);
  if (!(Number.isInteger(retryDelay) && retryDelay >= 0)) return usage(io, `--retry-delay ${v['retry-delay']}: milliseconds, 0 or more`);
  const repeat = v.repeat === undefined ? 1 : Number(v.repeat);
  if (!(Number.isInteger(repeat) && repeat >= 1)) return usage(io, `--repeat ${v.repeat}: a number of runs, 1 or more`);
  const timeout = v.timeout === undefined ? 0 : Number(v.timeout);
  if (!(Number.isFinite(timeout) && timeout >= 0)) return usage(io, `--timeout ${v.timeout}: seconds, e.g. 5 or 0.5`);
  let clientCert;
  try {
    clientCert = clientCertSetting(v, process.cwd()) ?? null;
  } catch (e) {
    return usage(io, (e as Error).message);
  }
  const reports: Report[] = [];
  for (const s of v.report ?? []) {
    const r = parseReport(s);
    if (typeof r === 'string') return usage(io, r);
    reports.push(r);
  }
  for (const f of files) {
    try {
      fs.accessSync(f, fs.constants.R_OK);
      if (fs.statSync(f).isDirectory()) return usage(io, `${f} is a directory; give the sheet files`);
    } catch {
      return usage(io, `cannot read ${f}`);
    }
  }
  // Before the first request: a report that cannot be written would be found only after every
  // request of the suite, POSTs included, was sent (issue 36 item 4).
  const unwritable = prepareReportPaths(reports);
  if (unwritable) return usage(io, unwritable);
  if (v.shard !== undefined) {
    const shard = parseShard(v.shard);
    if (typeof shard === 'string') return usage(io, shard);
    files = shardFiles(files, shard, process.cwd());
    if (!files.length) io.err(`sheet: shard ${v.shard} holds none of the ${given.length} files given; nothing to run\n`);
  }
  // --repeat N: the whole list N times over, in order (a soak).
  files = Array.from({ length: repeat }, () => files).flat();
  let answers: Map<string, string> | undefined;
  if (v['prompts-from'] !== undefined) {
    const a = await readAnswers(v['prompts-from'], io.stdin ?? (async () => ''));
    if (typeof a === 'string') return usage(io, a);
    answers = a;
  }
  // Standard input read for the answers cannot also be the terminal's.
  const ask = v['prompts-from'] === '-' ? undefined : io.ask;
  const tapToStdout = reports.some((r) => !r.path); // a report on stdout: progress goes to stderr
  // With TAP on stdout, the progress lines go to stderr.
  const say = tapToStdout ? io.err : io.out;
  const color = io.isTTY && !v['no-color'] && !io.env.NO_COLOR;
  const paint = (code: string, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);

  // Count the selected requests up front, for the progress count; check `.http` files'
  // environment and prompts before anything is sent.
  let total = 0;
  for (const f of files) {
    let text: string;
    let selected;
    const sheet = parsedFile((text = fs.readFileSync(f, 'utf8')), f);
    if (bare.length && sheet.syntax !== 'http') return usage(io, `--var ${bare[0]}: use --var :name=value (name=value is for .http files; ${f} is a sheet)`);
    try {
      const steps = runSteps(sheet, text, { line, grep });
      total += steps.length;
      selected = steps.filter((n) => 'method' in n);
    } catch {
      continue; // reported by the run
    }
    if (sheet.syntax !== 'http') continue;
    const problem = checkHttpFile(f, selected, v.env, vars, { answers, canAsk: !!ask });
    if (problem) return usage(io, problem);
  }

  // No Emacs at all for --untrusted: nothing of the files is evaluated.
  const lisp = batchEmacsFor(io.env, !!v.untrusted);
  let done = 0;
  let stopped = false;
  // `--bail`: httpyac's and Newman's name for it.
  const failFast = !!(v['fail-fast'] || v.bail);
  const started = Date.now();
  // GitHub reads workflow commands from the step's output (annotations.ts).
  const annotate = annotationsOn(io.env);
  const onResult = (r: RequestResult) => {
    done++;
    const mark = r.outcome === 'passed' ? paint('32', '✓') : paint('31', '✗');
    // A gRPC call's status by name (`OK`, `NOT_FOUND`), as grpcurl prints it.
    const status = r.status !== undefined ? (r.method === 'GRPC' ? grpcStatusName(r.status) : String(r.status)) : r.outcome === 'transport' ? '---' : 'ERR';
    const name = requestName(r);
    const ms = r.durationMs !== undefined ? ` ${Math.round(r.durationMs)} ms` : '';
    const flaky = r.attempts ? ` (${r.flaky ? 'flaky: passed' : 'failed'} on attempt ${r.attempts})` : '';
    say(`${mark} ${status} ${name}${ms}${flaky}  [${done}/${total}]\n`);
    for (const m of failures(r)) say(`    ${paint('31', m)}\n`);
    // What to do, as a file's own error prints it (below): a request's error has it too.
    if (r.error?.hint) say(`    hint: ${r.error.hint}\n`);
    for (const w of r.warnings) say(`    warning: ${w.message}\n`);
    if (r.stream) say(`    ${r.stream.summary}\n`);
    for (const l of r.logs ?? []) say(`    log: ${l}\n`);
    for (const f of r.saved ?? []) say(`    saved: ${path.relative(process.cwd(), f.file)}\n`);
    if (annotate) for (const a of requestAnnotations(r, io.env)) say(a);
    if (failFast && r.outcome !== 'passed') stopped = true;
  };
  const opts: RunOptions = {
    vars,
    env: v.env,
    line,
    grep,
    timeoutMs: Math.round(timeout * 1000),
    insecure: !!v.insecure,
    ...(v.proxy !== undefined || v.noproxy !== undefined ? { proxy: { ...(v.proxy !== undefined ? { all: v.proxy } : {}), ...(v.noproxy !== undefined ? { noProxy: v.noproxy } : {}) } } : {}),
    ...(v.cacert !== undefined ? { caFile: path.resolve(v.cacert) } : {}),
    connection: { clientCert, http2: !!v.http2, unixSocket: v['unix-socket'] !== undefined ? path.resolve(v['unix-socket']) : null },
    ...(v['netrc-file'] !== undefined ? { netrc: path.resolve(v['netrc-file']) } : v.netrc ? { netrc: '~/.netrc' } : {}),
    cookieJar: v['cookie-jar'],
    retry,
    retryDelayMs: retryDelay,
    untrusted: !!v.untrusted,
    lisp,
    onResult,
    stop: () => stopped,
    answers,
    ask,
    // One worker: one request at a time in the whole run (call-scope.ts `alone`).
    alone: Math.min(jobs, files.length) === 1,
  };
  const results: FileResult[] = new Array(files.length);
  // What ran so far, for reports written on Ctrl-C: each started file's results as they came.
  const live: FileResult[] = new Array(files.length);
  io.onInterrupt?.(async () => {
    stopped = true;
    const sofar = files.map((_, i) => results[i] ?? live[i]).filter((f): f is FileResult => !!f);
    const summary = summarize(sofar, { files: files.length, selected: total, durationMs: Date.now() - started });
    say(`interrupted: ${summary.requests} of ${total} requests ran; writing the reports\n`);
    const problem = await writeReports(reports.filter((r) => r.path), sofar, summary, io.out);
    if (problem) io.err(`sheet: ${problem}\n`);
  });
  let next = 0;
  const worker = async () => {
    while (next < files.length && !stopped) {
      const i = next++;
      const file = files[i]!;
      live[i] = { file, results: [] };
      const r = await runFile(file, { ...opts, onResult: (x) => (live[i]!.results.push(x), onResult(x)) });
      if (r.error) {
        say(`${paint('31', '✗')} ${r.error.message}\n${r.error.hint ? `    hint: ${r.error.hint}\n` : ''}`);
        if (annotate) say(fileAnnotation(file, r.error, io.env));
        if (failFast) stopped = true;
      }
      results[i] = r;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  } finally {
    lisp?.close();
    await closeConnections();
  }
  const ran = results.filter(Boolean);
  const summary = summarize(ran, { files: files.length, selected: total, durationMs: Date.now() - started });
  const parts = [`${summary.requests} of ${total} requests`, `${summary.assertions.passed + summary.assertions.failed} assertions`, `${summary.assertions.failed} failed`];
  if (summary.errors) parts.push(`${summary.errors} sheet errors`);
  if (summary.transportErrors) parts.push(`${summary.transportErrors} transport errors`);
  if (summary.flaky) parts.push(`${summary.flaky} flaky`);
  say(`${parts.join(', ')} (${(summary.durationMs / 1000).toFixed(2)} s)\n`);

  const problem = await writeReports(reports, ran, summary, io.out);
  if (problem) return usage(io, problem);
  return exitStatus(summary);
}
