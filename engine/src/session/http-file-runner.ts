/**
 * Send `.http` requests through the shared pipeline (DESIGN.md "Data flow"): the shared
 * `resolveRequest` (which hands `.http` sheets to resolve/resolve-http.ts), the session's one
 * exchange path (exchange.ts), then the JetBrains response handlers. An {@link HttpFileRunner}
 * keeps what carries from one request of a file to the next: named requests (`# @name` ->
 * `{{name.response...}}`), `client.global` values, the cookie jar. A library API (tests, and
 * programs that drive `.http` files); the front ends use `Session`.
 */
import path from 'node:path';
import type { CookieJar } from 'tough-cookie';
import type { RequestNode, Sheet } from '../sheet/ast.js';
import { requestAt } from '../sheet/parse.js';
import { resolveRequest } from '../resolve/resolve.js';
import { promptsOf, requestMeta, type HttpRequestMeta } from '../resolve/resolve-http.js';
import type { HttpVarContext, RequestRecord } from '../resolve/http-vars.js';
import { runPreRequest } from '../http-file/pre-request.js';
import { requestAfter } from '../http-file/request-api.js';
import { exchange as sendExchange } from './exchange.js';
import { connectionSend } from './connection.js';
import { DEFAULT_SETTINGS } from './settings.js';
import type { ExchangeJar } from './jar.js';
import { newJar } from '../http/cookies.js';
import { bodyText, rememberRequest } from '../http-file/named.js';
import { EngineError } from '../errors.js';
import { headerValue, type Exchange, type Request } from '../model.js';
import { runHandlers, HANDLER_TIMEOUT_MS, type HandlerTestResult } from '../http-file/handlers.js';
import type { Environment } from '../http-file/environment.js';
import { parseForFile } from '../http-file/index.js';

export interface HttpRunnerOptions {
  /** The `.http` file's path: bodies, handler files and `.env` are relative to its directory. */
  file?: string;
  /** The chosen environment (from `loadEnvironment`). */
  env?: Environment;
  /** Cookie jar shared by the requests (default: a new in-memory jar). */
  jar?: CookieJar;
  /** Limit of each exchange, in ms (0: none). */
  timeoutMs?: number;
  /** Answers `# @prompt name description`; without it a prompt must be answered by an override. */
  prompt?: (name: string, description: string, line: number) => Promise<string>;
  /** Time limit of each response handler, in ms (default 2000). */
  handlerTimeoutMs?: number;
}

export interface HttpSendResult {
  request: Request;
  exchange: Exchange;
  meta: HttpRequestMeta;
  /** `client.test` results and failed `client.assert`s, as assertion results. */
  tests: HandlerTestResult[];
  /** `client.log` lines. */
  logs: string[];
}

export class HttpFileRunner {
  /** `client.global` values; they win over file variables (as overrides do). */
  readonly globals = new Map<string, string>();
  /** Named requests sent so far. */
  readonly requests = new Map<string, RequestRecord>();
  readonly jar: CookieJar;

  /** The jar as the exchange uses it: in memory, nothing to read or save around a request. */
  private readonly exchangeJar: ExchangeJar;

  constructor(readonly opts: HttpRunnerOptions = {}) {
    const jar = (this.jar = opts.jar ?? newJar());
    this.exchangeJar = { jar, beforeSend: async () => null, afterSend: async () => null };
  }

  private get baseDir(): string {
    return this.opts.file ? path.dirname(path.resolve(this.opts.file)) : process.cwd();
  }

  /**
   * Resolve, send and run the handlers of `req` (a request of the `.http` `sheet`).
   * @param signal aborts the exchange.
   * @throws EngineError: resolve codes (`unknown-variable`, `invalid-url`, ...), HTTP codes
   *   (`connection-refused`, `timeout`, ...), `file-unreadable` for a handler file,
   *   `bad-argument` for a `# @prompt` nobody can answer. Handler failures are test results.
   */
  async send(sheet: Sheet, req: RequestNode, signal?: AbortSignal): Promise<HttpSendResult> {
    const prompts = new Map<string, string>();
    for (const p of promptsOf(req)) {
      if (this.globals.has(p.name)) continue;
      if (!this.opts.prompt) {
        throw new EngineError('bad-argument', `# @prompt ${p.name} needs an answer and this client cannot ask`, {
          line: p.line,
          hint: `Give ${p.name} a value beforehand (a file variable or an override), or send the request from an interactive client.`,
        });
      }
      prompts.set(p.name, await this.opts.prompt(p.name, p.description, p.line));
    }
    const env = this.opts.env;
    const timeout = this.opts.handlerTimeoutMs ?? HANDLER_TIMEOUT_MS;
    let http: HttpVarContext = { env: env?.variables, jetbrainsEnv: env?.jetbrains, dotenv: env?.dotenv, requests: this.requests, prompts, globals: this.globals };
    let tests: HandlerTestResult[] = [];
    let logs: string[] = [];
    if (req.preScripts?.length) {
      const pre = await runPreRequest(sheet, req, http, this.globals, this.baseDir, timeout);
      this.keep(pre.globals);
      http = { ...http, requestVars: pre.variables };
      tests = pre.tests;
      logs = pre.logs;
    }
    const resolved = await resolveRequest(sheet, req, { baseDir: this.baseDir, signal, http });
    const meta = requestMeta(req);
    // The session's one exchange path (exchange.ts), with this runner's in-memory jar.
    const { exchange } = await sendExchange(resolved.request, {
      jar: this.exchangeJar,
      sendCookies: !meta.noCookieJar,
      // The request's connection directives (`# @proxy`, `# @cacert`, ...) over the defaults (connection.ts).
      send: { signal, timeoutMs: this.opts.timeoutMs, followRedirects: !meta.noRedirect, ...connectionSend({ settings: DEFAULT_SETTINGS, node: req, baseDir: this.baseDir, envCertificates: env?.clientCertificates }) },
    });
    const rq = resolved.request;
    const rs = exchange.response;
    const text = bodyText(rs.body, headerValue(rs.headers, 'content-type')) ?? '';
    if (meta.name) rememberRequest(this.requests, meta.name, rq, rs, text);
    if (req.handlers?.length) {
      const r = await runHandlers(req.handlers, { status: rs.status, headers: rs.headers, body: text }, this.globals, this.baseDir, timeout, requestAfter(req, rq, env?.variables, http.requestVars));
      this.keep(r.globals);
      tests = [...tests, ...r.tests];
      logs = [...logs, ...r.logs];
    }
    return { request: exchange.request, exchange, meta, tests, logs };
  }

  /** Keep the `client.global` values scripts left. */
  private keep(globals: ReadonlyMap<string, string>): void {
    this.globals.clear();
    for (const [k, v] of globals) this.globals.set(k, v);
  }

  /** Send the request at 1-based `line` of `text` (parsed with `parseForFile`). */
  async sendAt(text: string, line: number, signal?: AbortSignal): Promise<HttpSendResult> {
    const sheet = parseForFile(text, this.opts.file ?? 'untitled.http');
    return this.send(sheet, requestAt(sheet, line), signal);
  }

  /**
   * Send every request of `text` in order (what `sheet run x.http` and `httpyac send --all` do).
   * @throws EngineError the first error-severity diagnostic of the file before anything is sent
   *   (an unsupported construct is never skipped silently); then the first request that fails
   *   to resolve or send ends the run with its error.
   */
  async sendAll(text: string, signal?: AbortSignal): Promise<HttpSendResult[]> {
    const sheet = parseForFile(text, this.opts.file ?? 'untitled.http');
    const bad = sheet.diagnostics.find((d) => d.severity === 'error');
    if (bad) throw new EngineError(bad.code, bad.message, { line: bad.line, hint: bad.hint });
    const out: HttpSendResult[] = [];
    for (const req of sheet.requests) out.push(await this.send(sheet, req, signal));
    return out;
  }
}
