/**
 * `HttpFileRunner`: the library API that sends a `.http` file's requests in order (tests, and
 * programs that drive `.http` files; docs/http-files.md "Sending"). A thin adapter over one
 * {@link Session}: every request goes through `Session.sendDetailed`, the pipeline of `C-c C-c`
 * and `sheet run` (the `{{...}}` pass and pre-request scripts, the request, the exchange with its
 * settings and cookie jar, the response handlers, named requests), so a rule of that pipeline
 * applies to a `.http` request however it is sent. What the runner adds is the client's part:
 * asking `# @prompt` answers through a callback, refusing a file with an error before sending
 * any of it, and the exchange itself in each result.
 */
import path from 'node:path';
import type { CookieJar } from 'tough-cookie';
import { requestAt } from '../sheet/parse.js';
import { promptsOf, requestMeta, type HttpRequestMeta } from '../resolve/resolve-http.js';
import type { RequestRecord } from '../resolve/http-vars.js';
import { EngineError, isEngineError } from '../errors.js';
import type { Exchange, Request } from '../model.js';
import type { HandlerTestResult } from '../http-file/handlers.js';
import type { Environment } from '../http-file/environment.js';
import { Session } from './session.js';
import { checkSettings } from './settings.js';
import type { SendOutput, Settings } from './types.js';

export interface HttpRunnerOptions {
  /** The `.http` file's path: bodies, handler files, environments and `.env` are found from its directory (default `untitled.http` in the working directory). */
  file?: string;
  /** The chosen environment (from `loadEnvironment`); default: the `$shared` variables and `.env` found from `file`, as `Session.send` without `env`. */
  env?: Environment;
  /** Cookie jar shared by the requests (default: a new in-memory jar); a `settings.cookieJarFile` replaces it. */
  jar?: CookieJar;
  /** Limit of each exchange, in ms (0: none); over `settings.timeoutMs`. */
  timeoutMs?: number;
  /** Answers `# @prompt name description`; without it a prompt must be answered by a `client.global` value or an override (`session.overrides`). */
  prompt?: (name: string, description: string, line: number) => Promise<string>;
  /** Time limit of each pre-request script and response handler, in ms (default 2000). */
  handlerTimeoutMs?: number;
  /** The session's settings (session/types.ts `Settings`: `proxy`, `caFile`, `insecure`, `cookieJarFile`, `clientCert`, `netrc`, ...), as `sheet run`'s options and sheet-mode's give them. */
  settings?: Settings;
}

export interface HttpSendResult {
  /** The request as sent (its Cookie header included). */
  request: Request;
  exchange: Exchange;
  meta: HttpRequestMeta;
  /** `client.test` results and failed `client.assert`s, as assertion results. */
  tests: HandlerTestResult[];
  /** `client.log` lines. */
  logs: string[];
  /** The answer as `Session.send` gives it (presentation, hooks' results, warnings). */
  output: SendOutput;
}

export class HttpFileRunner {
  /** The session every request goes through: its overrides, settings and cookie jar. */
  readonly session: Session;
  private readonly file: string;
  /** Settles when `opts.settings` are in place (a cookie file loaded); its failure is the first send's. */
  private readonly configured: Promise<void>;

  /** @throws EngineError `bad-argument` naming a setting (or `timeoutMs`) of the wrong shape. */
  constructor(readonly opts: HttpRunnerOptions = {}) {
    this.session = new Session(undefined, { cookieJar: opts.jar });
    // Without a file the request is still `.http` syntax, relative to the working directory.
    this.file = opts.file ?? path.join(process.cwd(), 'untitled.http');
    // A program in plain JavaScript may pass anything: the settings' shape is checked as the
    // JSON-RPC server checks Emacs's (settings.ts).
    const settings = { ...checkSettings(opts.settings, 'HttpFileRunner settings'), ...checkSettings(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : undefined, 'HttpFileRunner options') };
    this.configured = this.session.configure(settings);
    this.configured.catch(() => undefined);
  }

  /** The cookie jar the requests share. */
  get jar(): CookieJar {
    return this.session.cookieJar;
  }

  /** Named requests sent so far (`# @name login` -> `{{login.response...}}`). */
  get requests(): ReadonlyMap<string, RequestRecord> {
    return this.session.namedRequests;
  }

  /** `client.global` values (the session's overrides, by name without the colon). */
  get globals(): ReadonlyMap<string, string> {
    return new Map([...this.session.overrides].map(([k, v]) => [k.replace(/^:/, ''), v]));
  }

  /**
   * Send the request at 1-based `line` of `text` (parsed as `file`, `parseForFile`): its
   * `# @prompt` lines asked first (`opts.prompt`) unless a value is set, then `Session.sendDetailed`.
   * @param signal aborts the exchange.
   * @throws EngineError: resolve codes (`unknown-variable`, `invalid-url`, `unsupported-construct`,
   *   ...), HTTP codes (`connection-refused`, `timeout`, ...), `file-unreadable` for a body or
   *   handler file, `bad-argument` for a `# @prompt` nobody answers, a settings error
   *   (`bad-argument`). Handler failures are test results.
   */
  async sendAt(text: string, line: number, signal?: AbortSignal): Promise<HttpSendResult> {
    await this.configured;
    const node = requestAt(this.session.parse(text, this.file), line);
    const prompts: Record<string, string> = {};
    for (const p of promptsOf(node)) {
      if (this.opts.prompt && !this.session.overrides.has(`:${p.name}`)) prompts[p.name] = await this.opts.prompt(p.name, p.description, p.line);
    }
    const env = this.opts.env;
    const d = await this.session
      .sendDetailed(
        { text, line, path: this.file, ...(env?.name ? { env: env.name } : {}), ...(Object.keys(prompts).length ? { prompts } : {}) },
        signal,
        { ...(env ? { environment: env } : {}), ...(this.opts.handlerTimeoutMs !== undefined ? { handlerTimeoutMs: this.opts.handlerTimeoutMs } : {}) },
      )
      .catch((e: unknown) => {
        throw unansweredPrompt(e);
      });
    return { request: d.exchange.request, exchange: d.exchange, meta: requestMeta(node), tests: d.scripts.tests, logs: d.scripts.logs, output: d.output };
  }

  /**
   * Send every request of `text` in order (what `httpyac send --all` does).
   * @throws EngineError the first error-severity diagnostic of the file before anything is sent
   *   (an unsupported construct is never skipped silently); then the first request that fails
   *   to resolve or send ends the run with its error (`sheet run` reports it and goes on).
   */
  async sendAll(text: string, signal?: AbortSignal): Promise<HttpSendResult[]> {
    const sheet = this.session.parse(text, this.file);
    const bad = sheet.diagnostics.find((d) => d.severity === 'error');
    if (bad) throw new EngineError(bad.code, bad.message, { line: bad.line, hint: bad.hint });
    const out: HttpSendResult[] = [];
    for (const req of sheet.requests) out.push(await this.sendAt(text, req.line, signal));
    return out;
  }
}

/** The session's error for a `# @prompt` without a value, with a hint for a program (the session's names `sheet run` and Emacs). */
function unansweredPrompt(e: unknown): unknown {
  if (!isEngineError(e) || e.code !== 'bad-argument') return e;
  const name = e.details?.variable;
  if (typeof name !== 'string' || !e.message.includes(`# @prompt ${name} needs a value`)) return e;
  return new EngineError(e.code, e.message.replace(/^line \d+: /, ''), {
    line: e.line,
    hint: `Give the HttpFileRunner a prompt callback, or a value first: runner.session.overrides.set(':${name}', VALUE).`,
    details: e.details,
    cause: e,
  });
}
