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
import { parseForFile } from '../http-file/index.js';
import { runSteps } from './runner.js';
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

export const HELP = `Usage: sheet run FILE... [options]
       sheet report merge A.json B.json... --report FORMAT:PATH...
       sheet convert FILE [-o OUT] [--to sheet|http]
       sheet import-curl 'curl ...' | -
       sheet import FILE_OR_DIR... [-o OUTDIR] [--to http|sheet] [--force]
       sheet export --to python|javascript|go|httpie|powershell|... FILE:LINE
       sheet export --to postman FILE [-o OUT.json] [--env NAME]
       sheet engine --stdio
       sheet shell-path
       sheet elisp-path
       sheet auth list|login ID|logout [ID] [--env NAME] [FILE|DIR]
       sheet grpc list|describe ADDRESS [SERVICE] [-k] [--cacert FILE]
       sheet --help | --version

Run every request of each sheet in file order, as C-c C-c on each in turn would:
variables, file bodies and the values hooks capture carry on to the requests below.
Assertion hooks check the responses:
  -> expect-status 200 | 2xx          -> expect-header Content-Type json
  -> expect-jq '.items | length > 0'  -> expect-body "name": "Ada"
  -> expect-time < 500                (ms)
  -> expect-events >= 3               -> expect-event '.type == "done"'   (streams: SSE, NDJSON)
  Any of them ending in the word retry (-> expect-status 200 retry) is retried under --retry.
  .http files: httpyac's ?? lines (?? status == 200, ?? header content-type includes json,
  ?? body id == 1, ?? duration < 500, ?? js EXPR) and client.test in handlers.

Options:
  --var :name=value     set a variable for every file (overrides the sheet's); repeatable
                        (.http files: --var name=value also answers a # @prompt name)
  --prompts-from FILE   .http files: answers to # @prompt lines, a JSON object
                        {"name": "value"} read from FILE, or from stdin with -; on a
                        terminal, a prompt nothing answers is asked (no echo for
                        password, passwd, token, secret)
  --env NAME            .http files: the environment (http-client.env.json, VS Code's
                        rest-client.environmentVariables, found above each file)
  --line N              run only the request whose block holds line N
  --grep REGEX          run only the requests whose request line or comments above match
  --report FORMAT       tap (to stdout), tap:PATH, junit:PATH, json:PATH or html:PATH
                        (one self-contained page); repeatable
  --jobs N              run N files in parallel (default 1; requests of a file are sequential)
  --shard I/N           run only the I-th of N slices of the files (by sorted relative path,
                        round-robin), for a CI matrix; merge the JSON reports with
                        sheet report merge A.json B.json --report html:PATH
  --fail-fast, --bail   stop at the first request that fails or errs (without it, a .http
                        file goes on after a failed request; a sheet stops at an error)
  --timeout S           per-request timeout in seconds (default none)
  --retry N             send a request again, up to N times, that failed by transport,
                        got 429/503 (after its Retry-After), or failed an assertion
                        marked retry (-> expect-status 200 retry; .http: # @retry);
                        never a POST/PATCH unless marked; a pass on a retry is flaky
  --retry-delay MS      wait between tries (default 1000)
  --repeat N            run the files N times over (a soak)
  --insecure, -k        accept any TLS certificate
  --proxy URL, -x URL   send through this proxy (curl's -x: over http_proxy, https_proxy,
                        ALL_PROXY; NO_PROXY still applies); see docs/networks.md
  --noproxy LIST        hosts that go direct (curl's --noproxy: over NO_PROXY)
  --cacert FILE         the authorities that verify servers (curl's --cacert: over
                        CURL_CA_BUNDLE and SSL_CERT_FILE)
  --cert, -E FILE[:PASS]  a client certificate, PEM (curl's --cert), for every host
  --key FILE            its private key (default: in the --cert file)
  --pass PASS           the key's passphrase
  --http2               offer HTTP/2 to https:// servers (curl's --http2)
  --unix-socket PATH    connect to this socket instead of the URL's host (the Docker API)
  --netrc, -n           send ~/.netrc's credentials (curl's -n; docs/networks.md)
  --netrc-file FILE     send FILE's credentials (curl's --netrc-file)
  --cookie-jar PATH     load and save cookies in PATH (Netscape format, as curl -b/-c)
  --untrusted           run no code from the files: a := Lisp variable, a run-hook or a
                        .http handler or pre-request script stops its file before anything
                        is sent (for files from pull requests; exit 2)
  --no-color            no colours (also when NO_COLOR is set or stdout is not a terminal)
  -h, --help            this help
  -V, --version         the version

:= variables and run-hook forms are evaluated by one emacs --batch per run ($EMACS or
emacs on PATH); without Emacs, a sheet using them stops before its first request.

Exit status: 0 all assertions passed, 1 an assertion failed, 2 usage or sheet error
(the message names the file and line), 3 transport failure (connection refused,
timeout, TLS, ...). See docs/sheet-run.md.

sheet convert FILE: a .sheet file to .http, or a .http/.rest file to .sheet (--to picks
the direction otherwise); to stdout, or to OUT with -o (written whole or not at all).
Whatever cannot be converted is named on stderr with its line; exit 1 then (the rest is
still written), 2 on a usage error. See docs/http-files.md ("Converting").

sheet import-curl 'curl ...': the sheet request of a curl command line on stdout (- reads the
command from stdin); what a sheet cannot say is named on stderr (exit 1). See
docs/sheet-run.md ("sheet import-curl").

sheet export --to TARGET FILE:LINE: the request at LINE as code (Python requests,
JavaScript fetch, Go, HTTPie, PowerShell, curl, ...; --list names the targets), as Emacs's
C-c C-S-u. See docs/sheet-run.md ("sheet export").

sheet import: Postman collections (v2.0, v2.1) and environments, OpenAPI 3 / Swagger 2
specs (JSON, YAML) and HAR files as .http files (or sheets with --to sheet) with
http-client.env.json and http-client.private.env.json; one warning per thing not carried.
Exit 0 all carried, 1 written with warnings, 2 nothing written. See docs/import.md.

sheet engine --stdio: the JSON-RPC server Emacs's sheet-mode starts (docs/protocol.md).

sheet shell-path: the path of the shell verbs' file, for: source "$(sheet shell-path)"

sheet elisp-path: the directory of sheet-mode's Emacs Lisp, for Emacs's load-path
sheet auth: the OAuth2 configurations of an environment ("Security": {"Auth": ...}) and the
tokens kept for {{$auth.token("id")}}: list them, ask for one now (login), forget them
(logout). See docs/http-files.md ("Authentication").
`;

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
    const sheet = parseForFile((text = fs.readFileSync(f, 'utf8')), f);
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
