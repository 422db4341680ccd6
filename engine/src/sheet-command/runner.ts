/**
 * `sheet run` for one file: every request in file order, one at a time, through the same
 * Session (parse -> resolve -> send -> present -> hooks) as `C-c C-c` on each in turn, so
 * variables, multi-line and file bodies and the overrides set by hooks carry on to the
 * requests below. `:=` and `run-hook` Lisp goes to the run's batch Emacs (lisp-batch.ts).
 */
import { keptWebSocket, type WebSocketReport } from './report-websocket.js';
import { withCallScope } from '../call-scope.js';
import { removeBodyFile } from '../session/body-file.js';
import { firstCode } from './untrusted.js';
import fs from 'node:fs/promises';
import { Session } from '../session/session.js';
import { isEngineError, type ErrorCode } from '../errors.js';
import type { Assertion, HookResults, ProxySetting, RequestInfo, Settings, StreamInfo } from '../session/types.js';
import type { Block, RequestNode, Sheet } from '../sheet/ast.js';
import { requestAt } from '../sheet/parse.js';
import { parseForFile } from '../http-file/index.js';
import { warmHandlers } from '../http-file/handlers.js';
import { loadEnvironment, type Environment } from '../http-file/environment.js';
import { batchEvalLisp, noEmacsError, type BatchEmacs } from './lisp-batch.js';
import { answersFor, type Ask } from './prompts.js';
import { checkExpect, isExpectHook, isRetryable } from '../hooks/expect.js';
import { lintSheet } from '../lint/diagnostics.js';
import { maskedCredentials } from './masked.js';
import { IDEMPOTENT_METHODS, RETRY_STATUSES, retryAfterMs, withRetry } from './retry.js';
import { maskSecrets } from '../session/history.js';

/** Error codes that are transport failures (exit status 3); any other error is a sheet error (2). */
export const TRANSPORT_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'connection-refused',
  'unknown-host',
  'timeout',
  'tls-error',
  'network-error',
  'too-many-redirects',
  'cancelled',
]);

/** How much of a text response body a result keeps, in characters (the reports' copy; 64K). */
export const BODY_KEEP_CHARS = 65536;

/** An error as a run reports it. */
export interface RunError {
  code: string;
  message: string;
  line?: number;
  hint?: string;
}

/** One request's outcome: `passed` (every assertion), `failed` (one or more), `error`, `transport`. */
export interface RequestResult {
  file: string;
  /** The request line. */
  line: number;
  method: string;
  /** The URL as sent (after substitution), or the template when the request did not resolve. */
  url: string;
  /**
   * The test's name in JUnit and TAP (report.ts `testName`): a `.http` request's name (`###
   * name`, `# @name`), else the request line as written, unresolved (`GET {{host}}/users/{{id}}`),
   * so random values, captured ids and edits above do not change it (issue 36 item 6).
   */
  name?: string;
  outcome: 'passed' | 'failed' | 'error' | 'transport';
  request?: RequestInfo;
  status?: number;
  statusText?: string;
  /** The exchange's duration in ms. */
  durationMs?: number;
  /** Response body size in bytes. */
  bytes?: number;
  /** How many times it was sent, when `--retry` sent it more than once. */
  attempts?: number;
  /** It passed only on a retry (`--retry`: its transport, or its retryable assertions): flaky. */
  flaky?: boolean;
  /** When the exchange started (epoch ms): the HTML report's waterfall. */
  startedAt?: number;
  /** The response's headers and, for a text body, its text as presented (pretty-printed), cut at {@link BODY_KEEP_CHARS}. */
  response?: { headers: [string, string][]; body?: string; bodyCut?: boolean };
  assertions: Assertion[];
  warnings: HookResults['warnings'];
  /** `.http` files: the `client.log` lines of its scripts (`SendOutput.logs`); absent when none. */
  logs?: string[];
  /** A streamed response (SSE, NDJSON): how many events, how it ended (`SendOutput.stream`); its events are `response.body`. */
  stream?: StreamInfo;
  /** `.http` files: where its `>> file` lines saved the body (`SendOutput.saved`); absent when none. */
  saved?: { line: number; file: string }[];
  /** A WebSocket request: its messages both ways, the close, why it ended (report-websocket.ts); absent for HTTP. */
  websocket?: WebSocketReport;
  error?: RunError;
}

/** One file's run: its request results, or the sheet error that stopped it before its first request. */
export interface FileResult {
  file: string;
  results: RequestResult[];
  error?: RunError;
}

export interface RunOptions {
  /** `--var :name=value`: overrides, as if set by a hook before the first request. */
  vars: [string, string][];
  /** `--env NAME`: the environment of `.http` files (docs/http-files.md "Environments"). */
  env?: string;
  /** `--line N`: only the request whose block holds line N. */
  line?: number;
  /** `--grep REGEX`: only the requests whose request line or comment lines above it match. */
  grep?: RegExp;
  /** `--timeout S`, in ms; 0 = none. */
  timeoutMs: number;
  insecure: boolean;
  /** `--proxy URL` / `--noproxy LIST` (docs/networks.md); absent: the environment's proxy variables. */
  proxy?: ProxySetting;
  /** `--cacert FILE`, absolute (docs/networks.md); absent: CURL_CA_BUNDLE, SSL_CERT_FILE. */
  caFile?: string;
  /** `--cert`/`--key`/`--pass`, `--http2`, `--unix-socket` as settings (docs/networks.md). */
  connection?: Pick<Settings, 'clientCert' | 'http2' | 'unixSocket'>;
  /** `--netrc` (`~/.netrc`) / `--netrc-file FILE` (docs/networks.md, "Credentials"). */
  netrc?: string;
  /** `--retry N`: send again, up to N more times, a request that failed by transport or by a retryable assertion (retry.ts). */
  retry?: number;
  /** `--retry-delay MS`: the wait before each retry (default 1000, hurl's). */
  retryDelayMs?: number;
  /** `--cookie-jar PATH`: load and save cookies there (Netscape format, as curl). */
  cookieJar?: string;
  /** The run's batch Emacs; undefined when Emacs is not installed. */
  lisp?: BatchEmacs;
  /** Called as each request completes. */
  onResult?: (r: RequestResult) => void;
  /** Polled before each request: true stops the file (`--fail-fast` elsewhere). */
  stop?: () => boolean;
  /** `--prompts-from`: answers to `.http` files' `# @prompt name` lines, by name (prompts.ts). */
  answers?: ReadonlyMap<string, string>;
  /** Asks a `# @prompt` no answer or `--var` gives, on the terminal; undefined: no terminal. */
  ask?: Ask;
  /** `--untrusted`: refuse files that carry code (Lisp, run-hook, `.http` handlers); untrusted.ts. */
  untrusted?: boolean;
  /**
   * No other file runs meanwhile (one worker, `--jobs 1`): each request's call scope is the one
   * running, without `AsyncLocalStorage` (../call-scope.ts, `alone`).
   */
  alone?: boolean;
}

/** The last file parsed for a run, kept for its next reader (`parsedFile`). */
let lastParse: { text: string; file: string; sheet: Sheet } | undefined;

/**
 * The parse of a run's file (`parseForFile`), kept for one file: `sheet run` counts a file's
 * requests before the run (cli.ts) and then runs it, and its session looks the requests up in
 * the same text (issue 41's benchmark: three parses of a 1,000-request file were ~40 ms). The
 * same text and name give the same parse; one entry, so memory stays that of one file.
 */
export function parsedFile(text: string, file: string): Sheet {
  if (lastParse?.text === text && lastParse.file === file) return lastParse.sheet;
  const sheet = parseForFile(text, file);
  lastParse = { text, file, sheet };
  return sheet;
}

/** The requests of `sheet` the options select, in file order. */
export function selectRequests(sheet: Sheet, text: string, o: Pick<RunOptions, 'line' | 'grep'>): RequestNode[] {
  if (o.line !== undefined) return [requestAt(sheet, o.line)];
  if (!o.grep) return sheet.requests;
  const lines = text.split(/\r?\n/);
  return sheet.requests.filter((r) => {
    // The block's lines up to the request line, and the `#` comment lines just above the block.
    let from = r.startLine - 1;
    while (from > 0 && /^#/.test(lines[from - 1]!)) from--;
    return lines.slice(from, r.line).some((l) => o.grep!.test(l));
  });
}

/**
 * The requests a run goes through, in file order: the selected requests and, for a whole
 * `.http` file, the blocks a located error keeps from running (a `CONNECT` request, `>> file`),
 * each reported as that request's failure while the others run (as httpyac and JetBrains do).
 */
export function runSteps(sheet: Sheet, text: string, o: Pick<RunOptions, 'line' | 'grep'>): (RequestNode | Block)[] {
  const requests = selectRequests(sheet, text, o);
  if (sheet.syntax !== 'http' || o.line !== undefined || o.grep) return requests;
  return sheet.blocks.flatMap((b): (RequestNode | Block)[] => (b.request ? [b.request] : b.error ? [b] : []));
}

/** A file's sheet errors and its Lisp that cannot run without Emacs; the first one found, else undefined. */
export function preflight(file: string, sheet: Sheet, requests: RequestNode[], o: Pick<RunOptions, 'vars' | 'lisp' | 'untrusted'>): RunError | undefined {
  // A `.http` block's own error fails that request only (runSteps).
  const own = new Set(sheet.syntax === 'http' ? sheet.blocks.map((b) => b.error) : []);
  const e = sheet.diagnostics.find((d) => d.severity === 'error' && !own.has(d));
  if (e) return { code: e.code, message: `${file}:${e.line}: ${e.message}`, line: e.line, hint: e.hint };
  // A malformed assertion is the sheet's error, before anything is sent (issue 26).
  for (const h of requests.flatMap((r) => r.hooks).filter((h) => isExpectHook(h.name))) {
    const problem = checkExpect(h);
    if (problem) return { code: 'bad-argument', message: `${file}:${h.line}: ${problem}`, line: h.line, hint: h.name === '??' ? 'Fix the assertion (docs/http-files.md, "Assertions").' : 'Fix the assertion (docs/sheet-format.md, "Assertions").' };
  }
  const code = o.untrusted ? firstCode(sheet, requests) : undefined;
  if (code) {
    return {
      code: 'untrusted-code',
      message: `${file}:${code.line}: ${code.what} is code, and --untrusted runs none; nothing of this file was sent`,
      line: code.line,
      hint: 'Review the file, then run it without --untrusted; or remove the code from it.',
    };
  }
  if (o.lisp) return undefined;
  const given = new Set(o.vars.map(([n]) => n));
  const last = Math.max(0, ...requests.map((r) => r.endLine));
  const lispVar = sheet.vars.find((v) => v.kind === 'lisp' && v.line <= last && !given.has(v.name));
  const hook = requests.flatMap((r) => r.hooks).find((h) => h.name === 'run-hook');
  const first = [lispVar && { what: `the Lisp variable ${lispVar.name}`, line: lispVar.line }, hook && { what: 'the run-hook', line: hook.line }]
    .filter((x): x is { what: string; line: number } => !!x)
    .sort((a, b) => a.line - b.line)[0];
  if (!first) return undefined;
  const err = noEmacsError(file, first.what, first.line);
  return { code: err.code, message: `${file}:${first.line}: ${first.what} needs Emacs to evaluate its Lisp form, and no emacs is on PATH`, line: first.line, hint: err.hint };
}

/**
 * Whether an answer says "try again later" (429, 503: retry.ts `RETRY_STATUSES`) and the
 * request did not expect it: no assertion on the status passed with it (`-> expect-status 503`,
 * `?? status == 503` check the server's busy answer itself, which must not be sent again).
 */
function busy(status: number, assertions: Assertion[]): boolean {
  if (!RETRY_STATUSES.has(status)) return false;
  return !assertions.some((x) => x.passed && (x.name === 'expect-status' || (x.name === '??' && /^\s*status\b/i.test(x.args))));
}

/** The environment `env` of the `.http` file `file` (`loadEnvironment`), or undefined when its files do not load. */
function environmentOnce(file: string, env: string | undefined): Environment | undefined {
  try {
    return loadEnvironment(file, env || undefined);
  } catch {
    return undefined;
  }
}

function errorOf(e: unknown, file: string): RunError {
  if (isEngineError(e)) {
    const message = e.line !== undefined ? `${file}:${e.message.replace(/^line /, '')}` : `${file}: ${e.message}`;
    return { code: e.code, message, ...(e.line !== undefined ? { line: e.line } : {}), ...(e.hint ? { hint: e.hint } : {}) };
  }
  return { code: 'internal-error', message: `${file}: ${e instanceof Error ? e.message : String(e)}` };
}

/**
 * Run one file.
 * @returns its results; never throws for a sheet, transport or assertion problem: in a sheet
 *   a sheet or transport error ends the file (the requests below depend on the ones above); in
 *   a `.http` file it fails that request and the next one runs; a failed assertion does not
 *   stop the file. `o.stop` (`--fail-fast`, `--bail`) stops at the first failure.
 * @throws only when the file cannot be read (the caller reports it as a usage error).
 */
export async function runFile(file: string, o: RunOptions): Promise<FileResult> {
  const text = await fs.readFile(file, 'utf8');
  const sheet = parsedFile(text, file);
  const out: FileResult = { file, results: [] };
  let steps: (RequestNode | Block)[];
  try {
    steps = runSteps(sheet, text, o);
  } catch (e) {
    out.error = errorOf(e, file);
    return out;
  }
  const requests = steps.filter((n): n is RequestNode => 'method' in n);
  // A file with scripts: their sandbox (a worker thread, ~60 ms to start) starts now, beside
  // the run's own setup, rather than when the first script or stream needs it.
  if (requests.some((n) => n.handlers?.length || n.preScripts?.length)) warmHandlers();
  const pre = preflight(file, sheet, requests, o);
  if (pre) {
    out.error = pre;
    return out;
  }
  const lisp = o.lisp;
  const session: Session = new Session(lisp && batchEvalLisp(lisp));
  // Each request is looked up in this parse, not in one of its own.
  session.adoptParse(text, file, sheet);
  // Bodies past 16 MiB go to a private file as they arrive, removed after the request: the
  // run's memory stays bounded whatever the body (issue 30), as over JSON-RPC.
  session.spillBigBodies = true;
  // A terminal to ask on is a person to sign in (Authorization Code); never under CI (tokens/store.ts).
  session.auth.interactive = !!o.ask;
  if (o.ask) session.auth.notify = (line) => process.stderr.write(`${line}\n`);
  for (const [n, v] of o.vars) session.overrides.set(n, v);
  await session.configure({ timeoutMs: o.timeoutMs, insecure: o.insecure, cookieJarFile: o.cookieJar ?? null, threshold: null, proxy: o.proxy ?? null, caFile: o.caFile ?? null, netrc: o.netrc ?? null, ...o.connection });
  // The file's lines, for a block the parser refused (split at the first such block).
  let lines: string[] | undefined;
  // A `.http` file's environment files read once for the file, not once per request (issue 41's
  // benchmark: 1,000 requests were 1,000 look-ups up the directory tree). Files that do not load
  // are left to each request, whose error names them as before.
  const environment = sheet.syntax === 'http' ? environmentOnce(file, o.env) : undefined;
  // Sheets: `:name` references nothing defines, sent as written as restclient.el does; warned
  // as Flymake marks them (issue 36 item 10), unless a run-hook set them by the time they run.
  const undefinedRefs = sheet.syntax === 'http' ? [] : lintSheet(text, sheet, { overrides: o.vars.map(([n]) => n) }).filter((d) => d.code === 'unknown-variable');
  for (const step of steps) {
    if (o.stop?.()) break;
    if (!('method' in step)) {
      const d = step.error!;
      const [method = '', url = ''] = ((lines ??= text.split(/\r?\n/)).slice(step.startLine - 1, step.endLine).find((l) => /^[A-Za-z]+[ \t]+\S/.test(l)) ?? '').trim().split(/[ \t]+/);
      const r: RequestResult = { file, line: d.line, method, url, name: `${method} ${url}`.trim(), outcome: 'error', assertions: [], warnings: [], error: { code: d.code, message: `${file}:${d.line}: ${d.message}`, line: d.line, ...(d.hint ? { hint: d.hint } : {}) } };
      out.results.push(r);
      o.onResult?.(r);
      continue;
    }
    const node = step;
    /** What the run says of the request as written: undefined references, masked credentials. */
    const notes = (n: RequestNode): RequestResult['warnings'] => [
      ...undefinedRefs
        .filter((d) => d.line >= n.startLine && d.line <= n.endLine && !session.overrides.has(/^(:\S+)/.exec(d.message)?.[1] ?? ''))
        .map((d) => ({ line: d.line, code: d.code, message: `line ${d.line}: ${d.message}` })),
      ...maskedCredentials(n),
    ];
    // A WebSocket request is named by its line's word, not the handshake's GET (issue 40); so is
    // GraphQL over WebSocket (a GraphQL request to a ws:// URL), not GraphQL over HTTP's POST.
    const word = node.websocket ? 'WEBSOCKET' : node.graphql && /^wss?:\/\//i.test(node.url) ? 'GRAPHQL' : node.method;
    const r: RequestResult = { file, line: node.line, method: word, url: node.url, name: node.title ?? node.name ?? `${word} ${node.url}`, outcome: 'passed', assertions: [], warnings: [] };
    try {
      // Asked before the exchange: its duration does not include the user's typing.
      const prompts = sheet.syntax === 'http' ? await answersFor(node, file, o) : undefined;
      // An error a library throws outside our awaits fails this request alone (src/call-scope.ts).
      r.startedAt = Date.now();
      const send = () => withCallScope(async (signal) => (await session.sendDetailed({ text, line: node.line, path: file, ...(o.env ? { env: o.env } : {}), ...(prompts ? { prompts } : {}) }, signal, environment ? { environment } : {})).output, undefined, { alone: o.alone });
      // Assertions marked `retry` (hooks/expect.ts): sent again while one of them fails; the
      // mark is also the user's leave to send a method that is not idempotent again.
      const retryLines = new Set(node.hooks.filter(isRetryable).map((h) => h.line));
      // `# @retry [N]` (.http): every assertion of the request is retryable, N its own count.
      const marked = node.directives?.find((d) => d.name === 'retry');
      const s = await withRetry(
        send,
        {
          // What withRetry reads of the run's options (not a copy of them all: a spread and then more is slow in Node 20's V8).
          retry: marked?.value ? Number(marked.value) : o.retry,
          retryDelayMs: o.retryDelayMs,
          stop: o.stop,
          transport: TRANSPORT_CODES,
          resend: IDEMPOTENT_METHODS.has(node.method) || retryLines.size > 0 || !!marked,
          again: (a) => busy(a.response.status, a.hooks.assertions) || a.hooks.assertions.some((x) => !x.passed && (!!marked || retryLines.has(x.line))),
          delay: (a) => (busy(a.response.status, a.hooks.assertions) ? retryAfterMs(a.response.headers) : undefined),
          drop: async (a) => {
            if (a.presentation.file) await removeBodyFile(a.presentation.file);
          },
        },
        (n) => {
          if (n > 1) r.attempts = n;
        },
      );
      Object.assign(r, {
        request: s.request,
        url: s.request.url,
        status: s.response.status,
        statusText: s.response.statusText,
        durationMs: s.durationMs,
        bytes: s.response.bytes,
        response: {
          headers: s.response.headers,
          ...(s.presentation.text !== undefined ? { body: s.presentation.text.slice(0, BODY_KEEP_CHARS), ...(s.presentation.text.length > BODY_KEEP_CHARS ? { bodyCut: true } : {}) } : {}),
        },
        assertions: s.hooks.assertions,
        warnings: s.hooks.warnings,
        ...(s.logs ? { logs: s.logs } : {}),
        ...(s.saved ? { saved: s.saved } : {}),
        ...(s.stream ? { stream: s.stream } : {}),
        ...(s.websocket ? { websocket: keptWebSocket(s.websocket, BODY_KEEP_CHARS) } : {}),
      });
      r.warnings = [...r.warnings, ...notes(node)];
      // run-hook forms read the values the request used (`vars`), as in Emacs's response buffer.
      const hookVars = new Map(Object.entries(s.vars));
      for (const form of s.hooks.runHooks) {
        // run-hook: evaluated in a buffer holding the response body, as in Emacs's response buffer.
        try {
          const v = await lisp!.eval(form, s.presentation.text ?? '', hookVars);
          for (const [n, val] of v.setVars) {
            session.overrides.set(n, val);
            hookVars.set(n, val);
          }
        } catch (e) {
          r.warnings.push({ line: node.line, code: 'lisp-error', message: `line ${node.line}: run-hook ${form}: ${(e as Error).message}` });
        }
      }
      if (s.presentation.file) await removeBodyFile(s.presentation.file);
      if (r.assertions.some((a) => !a.passed)) r.outcome = 'failed';
      if (r.attempts && r.attempts > 1 && r.outcome === 'passed') r.flaky = true;
    } catch (e) {
      r.error = errorOf(e, file);
      r.outcome = isEngineError(e) && TRANSPORT_CODES.has(e.code) ? 'transport' : 'error';
      r.warnings = notes(node);
    }
    // `{{$auth.token}}`'s tokens and secrets stay out of every report (session/history.ts).
    if (session.auth.secrets.size) Object.assign(r, maskSecrets({ ...r }, session.auth.secrets));
    out.results.push(r);
    o.onResult?.(r);
    // A sheet's requests below depend on the ones above; a `.http` file goes on (httpyac,
    // JetBrains, Newman), and a request needing a failed one's value fails naming it.
    if (r.error && sheet.syntax !== 'http') break;
  }
  return out;
}
