/**
 * The session (issue 24): one place for the pipeline every front end shares. Its state: the
 * variable overrides, the cookie jar (jar.ts), the settings, what `.http` files carry from one
 * request to the next (http-file.ts). Its operations on a sheet: parse -> resolve -> exchange
 * (exchange.ts: the jar, send, the body to a sink) -> present -> hooks, as in DESIGN.md's data
 * flow (present and hooks: send-answer.ts), and the look-ups an editor asks (outline,
 * variables, curl, environments). Inputs and outputs are the session's own types (types.ts);
 * it knows nothing of JSON-RPC, the shell or the `sheet` command, which are adapters over it
 * (emacs/, shell-verbs/, sheet-command/).
 */
import path from 'node:path';
import { AUTH_TAG, requestAt } from '../sheet/parse.js';
import { parseForFile, syntaxChoice, withSyntaxHint } from '../http-file/index.js';
import type { Sheet } from '../sheet/ast.js';
import { IncrementalSheetParser } from '../sheet/incremental.js';
import { expandPath, resolveRequest, type EvalLisp, type LispDecl } from '../resolve/resolve.js';
import { fetchWith, MAX_BUFFERED_BODY } from '../http/send.js';
import type { SinkHead } from './exchange.js';
import { FileJar } from './jar.js';
import { wantsHttp2 } from './tls-settings.js';
import { connectionCurl, connectionSend, type ConnectionInput } from './connection.js';
import { SPILL_MIN_BYTES, SpillSink, spillBytes } from './spill.js';
import { grpcurlCommand, grpcurlOnly } from './grpc.js';
import { StreamChoice, streamRequestOf } from './stream.js';
import { exchangeOf } from './transports.js';
import { answerOf } from './send-answer.js';

import { HOOK_TYPES } from '../hooks/run.js';
import { toCurl } from '../curl/to-curl.js';
import { toCode } from '../snippet/to-code.js';
import { loadEnvironment } from '../http-file/environment.js';
import { warmHandlers } from '../http-file/handlers.js';
import { requestMeta } from '../resolve/resolve-http.js';
import { outlineOf } from './outline.js';
import { withUserAgent } from './user-agent.js';
import { sheetVariables } from './variables.js';
import { openStreamHandlers, beforeHttp, explainNoEnvironment, httpContext, httpEnvironmentValues, httpVariables, newHttpState, noteHttpFailure } from './http-file.js';
import type { RequestRecord } from '../resolve/http-vars.js';
import { SessionAuth } from './auth.js';
import { websocketOpen, type OpenWebSocket } from './websocket.js';
import type { WsClose, WsMessage } from '../ws/connect.js';
import { EngineError } from '../errors.js';
import type { Request } from '../model.js';
import type { CookieJar } from 'tough-cookie';
import type {
  CodeInput,
  CodeOutput,
  CurlInput,
  CurlOutput,
  EnvironmentsInput,
  EnvironmentsOutput,
  Outline,
  RequestContext,
  SendDetail,
  SendInput,
  SendLocal,
  SendOutput,
  Settings,
  VariablesInput,
  VariablesOutput,
} from './types.js';
import { DEFAULT_SETTINGS } from './settings.js';

export { DEFAULT_SETTINGS } from './settings.js';

/**
 * How the session has `:=` forms evaluated: an {@link EvalLisp} that also gets the `context`
 * of the request being served, to pass on to the client.
 */
export type SessionEvalLisp = (
  form: string,
  decl: LispDecl,
  signal?: AbortSignal,
  context?: RequestContext,
) => Promise<string>;

/**
 * One engine session (one Emacs connection, one `sheet run` file, or one test): the variable
 * overrides, the cookie jar and the settings, and the operations on a sheet (docs/protocol.md
 * names each, `sheet/send` for {@link Session.send}). Errors are thrown as EngineError with a
 * stable code (docs/errors.md); each front end reports them its own way.
 */
export class Session {
  readonly overrides = new Map<string, string>();
  settings: Required<Settings> = { ...DEFAULT_SETTINGS };
  /**
   * Spill every body past {@link SPILL_MIN_BYTES} to a private file as it arrives, whatever
   * the threshold and `bodyFileMin` say: `sheet run` keeps no body, so its memory stays
   * bounded (issue 30); the caller removes the file (`presentation.file`).
   */
  spillBigBodies = false;
  /** The cookie jar, and its file once one is set (jar.ts). */
  private readonly jar: FileJar;
  /** The cookie file could not be read: said once, with the next send's warnings. */
  private jarReadWarning: string | null = null;
  /** Settles when the settings given so far (and their cookie jar) are in place. */
  private ready: Promise<void> = Promise.resolve();
  /** `.http` files: named requests, failed requests and `client.global` values so far. */
  private http = newHttpState();
  /** `{{$auth.token("id")}}`: the tokens, the secrets to mask, whether a person can sign in (auth.ts). */
  readonly auth = new SessionAuth();
  /** Settings `:=` forms changed while a request was resolved (`lisp/eval`'s `settings`), by its context. */
  private lispSettings = new Map<RequestContext, Settings>();
  /** Last parse, reused while the text is the same (navigation asks often). */
  private cache: { text: string; fileName?: string; sheet: Sheet } | undefined;
  /** Sheets re-parsed after an edit chunk by chunk (an editor types in one place at a time). */
  private sheetParser = new IncrementalSheetParser();

  /**
   * @param evalLisp how `:=` forms are evaluated (asks the client); undefined on clients without
   *   Lisp, whose requests then fail with `lisp-unavailable` only when they use a `:=` variable.
   * The syntax of a sheet is chosen by its file name (`path` of each call; http-file/index.ts).
   * @param opts.cookieJar the jar to start with (a program's own, http-file-runner.ts); default
   *   an empty one. A `cookieJarFile` setting replaces it.
   */
  constructor(public evalLisp?: SessionEvalLisp, opts: { cookieJar?: CookieJar } = {}) {
    this.jar = new FileJar(opts.cookieJar);
  }

  /** The cookie jar in memory (tough-cookie), the cookie file's once one is set. */
  get cookieJar(): CookieJar {
    return this.jar.jar;
  }

  /** The `.http` requests named with `# @name` sent so far, by name (`{{name.response...}}`). */
  get namedRequests(): ReadonlyMap<string, RequestRecord> {
    return this.http.requests;
  }

  /** The evaluator for one request: `evalLisp` with that request's context, or undefined. */
  private lispFor(context: RequestContext | undefined): EvalLisp | undefined {
    const evalLisp = this.evalLisp;
    return evalLisp && ((form, decl, signal) => evalLisp(form, decl, signal, context));
  }

  /**
   * Apply settings; a new cookie jar file is loaded (missing file: empty jar). Settings are
   * applied one call after the other, and the sheet operations wait for the ones given before
   * them, so a request that follows a jar change always uses the new jar.
   * A cookie file that exists but cannot be read (a directory, no permission) is not an
   * error: the session uses an empty jar that is not saved, and the next send carries a
   * `cookie-jar-unreadable` warning once (docs/errors.md).
   */
  configure(s: Settings | undefined): Promise<void> {
    const run = this.ready.then(() => this.apply(s));
    this.ready = run.catch(() => undefined);
    return run;
  }

  private async apply(s: Settings | undefined): Promise<void> {
    if (!s) return;
    for (const [k, v] of Object.entries(s)) if (v !== undefined) (this.settings as Record<string, unknown>)[k] = v;
    const file = this.settings.cookieJarFile ? expandPath(this.settings.cookieJarFile, process.cwd()) : null;
    if (file !== this.jar.file) {
      // An unreadable cookie file (a directory, no permission) does not stop requests: they go
      // out without its cookies, nothing is saved there, and the next send says so once.
      this.jarReadWarning = await this.jar.use(file);
    }
  }

  /**
   * Parse `text` (pure), reusing the last result while the text and file name are the same.
   * @param fileName picks the syntax (`.http`/`.rest`: VS Code / JetBrains; see
   *   engine/src/http-file/index.ts), default the sheet syntax.
   */
  parse(text: string, fileName?: string): Sheet {
    if (this.cache?.text === text && this.cache.fileName === fileName) return this.cache.sheet;
    const sheet = parseForFile(text, fileName, (t) => this.sheetParser.parse(t));
    this.cache = { text, fileName, sheet };
    return sheet;
  }

  /**
   * Take `sheet`, the caller's parse of `text` (`fileName` picks the syntax, as {@link parse}):
   * the next operations on the same text use it rather than parse again (`sheet run` parses a
   * file before it sends its requests). It must be `parseForFile(text, fileName)`'s result.
   */
  adoptParse(text: string, fileName: string | undefined, sheet: Sheet): void {
    this.cache = { text, fileName, sheet };
  }

  private merged(s: Settings | undefined): Required<Settings> {
    return { ...this.settings, ...Object.fromEntries(Object.entries(s ?? {}).filter(([, v]) => v !== undefined)) };
  }

  private async resolveAt(p: { text: string; line: number; path?: string; env?: string; context?: RequestContext; prompts?: Record<string, string>; lookup?: boolean }, s: Required<Settings>, signal?: AbortSignal, local: SendLocal = {}) {
    const sheet = this.parse(p.text, p.path);
    const node = requestAt(sheet, p.line);
    const file = p.path;
    const prompts = p.prompts && typeof p.prompts === 'object' ? p.prompts : undefined;
    // `.http`: JetBrains pre-request scripts run first; their per-request variables join the context.
    const lookup = p.lookup === true;
    const ctx = sheet.syntax === 'http' ? httpContext(node, file, local.environment ?? p.env, this.overrides, this.http, prompts) : undefined;
    // A look-up (Eldoc) runs no pre-request script and evaluates no `:=` form.
    const pre = ctx && !lookup ? await beforeHttp(sheet, node, ctx, file, this.overrides, this.http, local.handlerTimeoutMs) : undefined;
    // `{{$auth.token("id")}}`: the tokens are obtained before the pass (auth.ts); a look-up obtains none.
    // The token requests connect as the request will: its directives over the settings (connection.ts).
    const connect = (directives: ConnectionInput['node']['directives']) => fetchWith(connectionSend(this.connection(p, s, { node, directives, http: pre!.ctx })));
    const auth = pre ? await this.auth.prepare(sheet, node, pre.ctx, file, signal, connect) : undefined;
    const http = auth?.ctx ?? ctx;
    const resolved = await resolveRequest(sheet, node, {
      overrides: http ? undefined : this.overrides,
      evalLisp: lookup ? undefined : this.lispFor(p.context),
      signal,
      maxPasses: s.maxPasses,
      baseDir: file ? path.dirname(path.resolve(file)) : process.cwd(),
      ...(http ? { http } : {}),
    });
    // A sheet's `# @auth ID` (parse.ts AUTH_TAG): a Bearer token unless the request writes its own Authorization.
    const tag = sheet.syntax === 'http' || lookup ? undefined : node.directives?.find((d) => d.name === AUTH_TAG);
    const bearer = tag ? await this.auth.sheetToken(tag, file, local.environment ?? p.env, signal) : undefined;
    const request = bearer && !resolved.request.headers.some(([n]) => /^authorization$/i.test(n)) ? { ...resolved.request, headers: [...resolved.request.headers, ['Authorization', `Bearer ${bearer.token}`] as [string, string]] } : resolved.request;
    return Object.assign({}, resolved, { request, node, sheet, http, pre: pre?.scripts ?? { tests: [], logs: [] }, secrets: [...(auth?.secrets ?? []), ...(bearer?.secrets ?? [])], authWarnings: [...(auth?.warnings ?? []), ...(bearer?.warnings ?? [])] });
  }

  /**
   * Note settings a `:=` form changed (`lisp/eval`'s `settings`): they apply to the request
   * being served under `context`, from its exchange on (docs/protocol.md, `lisp/eval`).
   */
  noteLispSettings(context: RequestContext | undefined, s: Settings): void {
    if (context !== undefined) this.lispSettings.set(context, { ...this.lispSettings.get(context), ...s });
  }

  /**
   * The environment names defined for the `.http` file at `path`
   * (http-client.env.json, its private file, VS Code's rest-client.environmentVariables;
   * docs/http-files.md "Environments") and the files they come from.
   * @throws EngineError `bad-environment` when a file is not valid JSON, `file-unreadable`.
   */
  environments(p: EnvironmentsInput): EnvironmentsOutput {
    const env = loadEnvironment(p.path ?? path.join(process.cwd(), 'untitled.http'));
    return { names: env.available, files: env.files };
  }

  /**
   * The request at point, resolved, sent; the response presented; hooks run (`sheet/send`, each request of `sheet run`).
   * The cookie jar is saved to the session's cookie file after the exchange when it changed.
   * @param signal aborts the exchange (`$/cancelRequest`).
   * @throws EngineError with a parse, resolve or HTTP code (docs/errors.md); an HTTP error
   *   status is a result, not an error.
   */
  async send(p: SendInput, signal?: AbortSignal): Promise<SendOutput> {
    return (await this.sendDetailed(p, signal)).output;
  }

  /**
   * {@link send} for programs (the library's `HttpFileRunner`): the same pipeline, with inputs
   * no protocol carries (`local`: a loaded `.http` environment, the scripts' time limit), and
   * what the answer leaves out: the exchange with its body bytes, the scripts' tests as they are.
   * @throws EngineError as {@link send}.
   */
  async sendDetailed(p: SendInput, signal?: AbortSignal, local: SendLocal = {}): Promise<SendDetail> {
    return this.sendOnce(p, signal, local).catch((e: unknown) => {
      const sheet = this.parse(p.text, p.path);
      const at = sheet.requests.find((r) => r.startLine <= p.line && p.line <= r.endLine);
      const node = sheet.syntax === 'http' ? at : undefined;
      if (node) noteHttpFailure(this.http.failed, node, e);
      // Every error names the line; in a file whose syntax was guessed it says how to pin it.
      const told = sheet.syntax === 'http' ? explainNoEnvironment(e, p.path, local.environment?.name ?? p.env) : e;
      throw withSyntaxHint(told, syntaxChoice(p.text, p.path), at?.line);
    });
  }

  private async sendOnce(p: SendInput, signal: AbortSignal | undefined, local: SendLocal): Promise<SendDetail> {
    await this.ready;
    let s = this.merged(p.settings);
    let resolved;
    try {
      resolved = await this.resolveAt(p, s, signal, local);
    } finally {
      const changed = p.context !== undefined ? this.lispSettings.get(p.context) : undefined;
      if (changed) {
        this.lispSettings.delete(p.context!);
        s = this.merged({ ...p.settings, ...changed });
      }
    }
    // `.http` directives `# @no-cookie-jar` and `# @no-redirect` (docs/http-files.md).
    const meta = resolved.http ? requestMeta(resolved.node) : undefined;
    // A client that takes files gets a big body in one, written as it arrives (spill.ts).
    const spillAt = this.spillBigBodies ? SPILL_MIN_BYTES : spillBytes(s.threshold, p.bodyFileMin);
    let sink: SpillSink | undefined;
    // A body that arrives over time (SSE, NDJSON, `# @accept chunked`) is cut into events as it comes (stream.ts).
    const streamReq = streamRequestOf(resolved.node, resolved.request.headers);
    const live = resolved.http && resolved.node.handlers?.length ? (head: SinkHead, sent: Request) => openStreamHandlers(resolved.node, sent, head, p.path, this.overrides, resolved.http, local.handlerTimeoutMs) : undefined;
    // The handlers' sandbox starts while the request is in flight, not when its head comes: a
    // stream's first events would wait for the worker's start (docs/benchmarks.md, "Streams").
    if (live) warmHandlers();
    // A gRPC stream's messages are NDJSON events (grpc.ts).
    const choice = new StreamChoice(resolved.node.grpc ? { acceptChunked: false, forced: 'ndjson' } : streamReq.stream, spillAt !== undefined ? (head: SinkHead) => (sink = new SpillSink(spillAt, MAX_BUFFERED_BODY, head.url, { headers: head.headers, raw: p.raw })) : undefined, local.onStream, live, signal);
    // The transport (transports.ts): a gRPC call, a WebSocket, or HTTP.
    const jar = s.inhibitCookies ? undefined : this.jar;
    const transport = await exchangeOf(resolved, { settings: s, meta, jar, connection: this.connection(p, s, resolved), choice, streamHeaders: streamReq.headers, signal, path: p.path, local, overrides: this.overrides });
    // present -> hooks -> the answer (send-answer.ts).
    return answerOf({ p, s, local, resolved, transport, choice, sink, overrides: this.overrides, http: this.http, spillBigBodies: this.spillBigBodies, takeJarReadWarning: () => this.takeJarReadWarning() });
  }

  /** The cookie file's read failure (configure), said once: the next answer takes it. */
  private takeJarReadWarning(): string | null {
    const w = this.jarReadWarning;
    this.jarReadWarning = null;
    return w;
  }

  /**
   * Open the WebSocket request at point for an editor's session buffer (`ws/open`; websocket.ts
   * `websocketOpen`): resolved and connected as {@link send} does, its messages sent, left open.
   * @throws EngineError `bad-argument` when the request at point is not a WebSocket request, and as {@link send}.
   */
  async openWebSocket(p: SendInput, on: { onAny: (m: WsMessage) => void; onClose: (c: WsClose) => void }): Promise<OpenWebSocket> {
    await this.ready;
    const s = this.merged(p.settings);
    const resolved = await this.resolveAt(p, s);
    const line = resolved.node.line;
    if (!resolved.request.websocket) throw new EngineError('bad-argument', `line ${line}: not a WebSocket request`, { line, hint: 'Start the request line with WEBSOCKET, WS or WSS.' });
    const meta = resolved.http ? requestMeta(resolved.node) : undefined;
    const body = resolved.node.body;
    return websocketOpen(withUserAgent(resolved.request, s.userAgent), { ...(s.inhibitCookies ? {} : { jar: this.jar }), sendCookies: !meta?.noCookieJar, send: connectionSend(this.connection(p, s, resolved)), ...(body && 'line' in body ? { bodyLine: body.line } : {}), baseDir: p.path ? path.dirname(path.resolve(p.path)) : process.cwd(), ...on });
  }

  /** Requests (refused ones too) and variable declarations with their lines (`sheet/outline`; outline.ts). */
  outline(text: string, fileName?: string): Outline {
    return outlineOf(this.parse(text, fileName), text);
  }

  /** The overrides and the variables visible at a line, resolved (`sheet/variables`). */
  async variables(p: VariablesInput): Promise<VariablesOutput> {
    await this.ready;
    const s = this.merged(p.settings);
    const sheet = this.parse(p.text, p.path);
    if (sheet.syntax === 'http') {
      const env = loadEnvironment(p.path ?? path.join(process.cwd(), 'untitled.http'), p.env || undefined);
      const ctx = httpContext(undefined, p.path, env, this.overrides, this.http);
      return {
        overrides: [...this.overrides].map(([name, value]) => ({ name, value })),
        variables: httpVariables(sheet, ctx, s.maxPasses),
        environment: httpEnvironmentValues(env, { ...ctx, fileVars: new Map(sheet.vars.map((v) => [v.name, v.value])) }, s.maxPasses),
        hookTypes: HOOK_TYPES,
      };
    }
    const variables = await sheetVariables(sheet, p.line, { overrides: this.overrides, evalLisp: p.lookup === true ? undefined : this.lispFor(p.context), maxPasses: s.maxPasses });
    return {
      overrides: [...this.overrides].map(([name, value]) => ({ name, value })),
      variables,
      hookTypes: HOOK_TYPES,
    };
  }

  /** The request at point as a curl command line (`sheet/curl`). */
  async curl(p: CurlInput): Promise<CurlOutput> {
    const { request, curlArgs, grpcurl } = await this.exported(p);
    // A gRPC call's command is grpcurl's (grpc.ts).
    if (grpcurl) return { command: grpcurl, url: request.url };
    return { command: toCurl(request, { alwaysMethod: true, extraArgs: curlArgs }), url: request.url };
  }

  /** The request at point as code for `p.target` (`sheet/code`, `sheet export`; ../snippet/to-code.ts). */
  async code(p: CodeInput): Promise<CodeOutput> {
    const { request, curlArgs, grpcurl } = await this.exported(p);
    if (grpcurl || p.target === 'grpcurl') return { code: `${grpcurlOnly(grpcurl, p.target, request.line)}\n`, url: request.url };
    // curl is C-c C-u's command, with the options that connect as the engine would.
    if (p.target === 'curl') return { code: `${toCurl(request, { alwaysMethod: true, extraArgs: curlArgs })}\n`, url: request.url };
    return { code: toCode(request, p.target), url: request.url };
  }

  /** The resolved request at point that the exports (curl, code) write. */
  private async exported(p: CurlInput): Promise<{ request: Request; curlArgs: string[]; grpcurl?: string }> {
    await this.ready;
    const s = this.merged(p.settings);
    const resolved = await this.resolveAt(p, s).catch((e: unknown) => {
      throw this.parse(p.text, p.path).syntax === 'http' ? explainNoEnvironment(e, p.path, p.env) : e;
    });
    const baseDir = p.path ? path.dirname(path.resolve(p.path)) : process.cwd();
    if (resolved.node.grpc) return { request: resolved.request, curlArgs: [], grpcurl: grpcurlCommand(resolved.request, resolved.node, baseDir, connectionSend(this.connection(p, s, resolved)), s.timeoutMs) };
    // The options curl needs to connect as the engine would (connection.ts).
    return { request: resolved.request, curlArgs: connectionCurl(resolved.request.url, this.connection(p, s, resolved), wantsHttp2(s, resolved.node)) };
  }

  /** What the request at point connects with: the settings, its directives (values substituted), its sheet's directory. */
  private connection(p: { path?: string }, s: Required<Settings>, resolved: { node: ConnectionInput['node']; directives: ConnectionInput['node']['directives']; http?: { clientCertificates?: ConnectionInput['envCertificates'] } }): ConnectionInput {
    return { settings: s, node: Object.assign({}, resolved.node, { directives: resolved.directives }), baseDir: p.path ? path.dirname(path.resolve(p.path)) : process.cwd(), envCertificates: resolved.http?.clientCertificates };
  }
}
