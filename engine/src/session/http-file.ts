/**
 * What a Session adds for `.http` files (docs/http-files.md): the `{{...}}` sources of a
 * request (environment, `.env`, named requests, overrides, `# @prompt` values) and, after the
 * exchange, the named request's record and the JetBrains response handlers, whose `client.test`
 * results become assertions and whose `client.global` values become overrides (`:name`), so
 * `C-c C-c` and `sheet run` share one home for these rules.
 */
import path from 'node:path';
import { loadEnvironment, type Environment } from '../http-file/environment.js';
import { openHandlers, runHandlers, HANDLER_TIMEOUT_MS, type HandlerResult, type StreamItem } from '../http-file/handlers.js';
import { runPreRequest } from '../http-file/pre-request.js';
import { requestAfter } from '../http-file/request-api.js';
import { bodyText, rememberRequest } from '../http-file/named.js';
import { promptsOf, requestMeta } from '../resolve/resolve-http.js';
import { substituteHttp, type FailedRequest, type HttpVarContext, type RequestRecord } from '../resolve/http-vars.js';
import { EngineError, isEngineError } from '../errors.js';
import type { RequestNode, Sheet } from '../sheet/ast.js';
import { headerValue, type Header, type Request } from '../model.js';
import type { Assertion, ScriptOutcome, VariablesOutput } from './types.js';

/**
 * The `{{...}}` sources of a `.http` request (docs/http-files.md "Environments"): the
 * environment `env` found above `file` (`loadEnvironment`; or `env` itself when a program
 * loaded it, http-file-runner.ts), the `.env` beside it, the
 * named requests sent before in this session, and the overrides under their names without the
 * colon: those a handler set (`client.global.set`, kept in `state.globals`) as JetBrains
 * globals, the others (`sheet/setVar`, `--var`) as the client's (ranks: docs/http-files.md
 * "Which value wins").
 * `answers` are the client's answers to the request's `# @prompt name` lines (sheet-mode asks
 * in the minibuffer; `prompts` in docs/protocol.md): they come first in `{{name}}` lookup.
 * @throws EngineError `bad-environment` (unknown name, bad JSON), `bad-argument` for a
 *   `# @prompt name` that has no value (no answer, no override: set one with `sheet/setVar` /
 *   `--var name=value`).
 */
export function httpContext(node: RequestNode | undefined, file: string | undefined, envName: string | Environment | undefined, sessionOverrides: ReadonlyMap<string, string>, state: HttpSessionState, answers?: Readonly<Record<string, unknown>>): HttpVarContext {
  const env = typeof envName === 'object' ? envName : loadEnvironment(file ?? path.join(process.cwd(), 'untitled.http'), envName || undefined);
  // A `client.global.set` value ranks as a JetBrains global (below the JetBrains environment);
  // a value the client set (sheet/setVar, --var) ranks above everything but prompt answers.
  const { overrides, globals } = splitOverrides(sessionOverrides, state);
  const prompts = new Map<string, string>();
  for (const pr of node ? promptsOf(node) : []) {
    const answer = answers && Object.prototype.hasOwnProperty.call(answers, pr.name) ? answers[pr.name] : undefined;
    if (answer !== undefined && answer !== null) prompts.set(pr.name, String(answer));
    else if (!overrides.has(pr.name) && !globals.has(pr.name)) {
      throw new EngineError('bad-argument', `# @prompt ${pr.name} needs a value${pr.description ? ` (${pr.description})` : ''}`, {
        line: pr.line,
        hint: `Give ${pr.name} a value first: sheet run --var ${pr.name}=VALUE, or sheet-set-var :${pr.name} in Emacs.`,
        details: { variable: pr.name },
      });
    }
  }
  const failed = state.failed;
  return { env: env.variables, jetbrainsEnv: env.jetbrains, dotenv: env.dotenv, requests: state.requests, overrides, globals, ...(prompts.size ? { prompts } : {}), ...(failed.size ? { failed } : {}), ...(Object.keys(env.clientCertificates).length ? { clientCertificates: env.clientCertificates } : {}), authEnvironment: { auth: env.auth ?? {}, ...(env.name !== undefined ? { environment: env.name } : {}), files: env.files } };
}

/** The session's overrides as the client's and as `client.global` values (`state.globals`), by name without the colon. */
function splitOverrides(sessionOverrides: ReadonlyMap<string, string>, state: HttpSessionState): { overrides: Map<string, string>; globals: Map<string, string> } {
  const overrides = new Map<string, string>();
  const globals = new Map<string, string>();
  for (const [k, v] of sessionOverrides) {
    const name = k.replace(/^:/, '');
    (state.globals.get(name) === v ? globals : overrides).set(name, v);
  }
  return { overrides, globals };
}

/** What a Session keeps of the `.http` requests it sent. */
export interface HttpSessionState {
  /** Named requests sent so far (`# @name login` -> `{{login.response...}}`). */
  requests: Map<string, RequestRecord>;
  /** Requests that failed, for the errors of the requests that need their values. */
  failed: Map<string, FailedRequest>;
  /** The values response handlers set with `client.global.set`, by name. */
  globals: Map<string, string>;
}

export const newHttpState = (): HttpSessionState => ({ requests: new Map(), failed: new Map(), globals: new Map() });

/** The key of `node` in the map of failed requests: its `# @name`, else its line. */
const failureKey = (node: RequestNode) => node.name ?? `line ${node.line}`;

/**
 * Note that `.http` request `node` failed with `error` (`sheet run` goes on with the next
 * request, as httpyac and JetBrains do): a later `{{name.response...}}` of it, or a name its
 * handlers set with `client.global.set`, then fails naming this request (resolve/http-vars.ts).
 */
export function noteHttpFailure(failed: Map<string, FailedRequest>, node: RequestNode, error: unknown): void {
  const sets = new Set<string>();
  for (const h of [...(node.preScripts ?? []), ...(node.handlers ?? [])]) {
    if (h.kind !== 'inline') continue;
    for (const m of h.source.matchAll(/client\.global\.set\(\s*(["'`])([^"'`]+)\1/g)) sets.add(m[2]!);
  }
  const message = error instanceof Error ? error.message : String(error);
  failed.set(failureKey(node), { line: node.line, ...(node.name ? { name: node.name } : {}), sets: [...sets], message });
}

/**
 * After a `.http` exchange: remember a named request, run the JetBrains response handlers
 * (http-file/handlers.ts; `request` is the request as sent, with `ctx`'s environment and
 * per-request variables; each handler within `timeoutMs`) and keep their `client.global`
 * values as overrides (`:name`). `live`: the handlers already ran while the response arrived
 * (a stream's or a WebSocket's, {@link openStreamHandlers}); their result is taken.
 * @returns the handlers' tests (the session's assertions: {@link asAssertions}) and logs.
 */
export async function afterHttp(
node: RequestNode,
request: Request,
response: { status: number; headers: Header[]; body: Uint8Array },
file: string | undefined,
sessionOverrides: Map<string, string>,
state: HttpSessionState,
ctx?: HttpVarContext,
timeoutMs = HANDLER_TIMEOUT_MS,
  live?: LiveHandlers,
): Promise<ScriptOutcome> {
  const requests = state.requests;
  state.failed.delete(failureKey(node));
  const meta = requestMeta(node);
  // The body as text only where something reads it: a named request kept, handlers.
  if (!meta.name && !live && !node.handlers?.length) return { tests: [], logs: [] };
  // Decoded at its first read, once: a named request no reference reads is never decoded.
  let decoded: string | undefined;
  const body = () => (decoded ??= bodyText(response.body, headerValue(response.headers, 'content-type')) ?? '');
  if (meta.name) rememberRequest(requests, meta.name, request, response, body);
  if (live) {
    // A streamed response's handlers ran while it arrived (openStreamHandlers): their result now.
    const r = await live.close();
    keepGlobals(r, live.globals, sessionOverrides, state);
    return { tests: r.tests, logs: r.logs };
  }
  if (!node.handlers?.length) return { tests: [], logs: [] };
  const globals = handedGlobals(sessionOverrides);
  const req = requestAfter(node, request, ctx?.env, ctx?.requestVars);
  const r = await runHandlers(node.handlers, { status: response.status, headers: response.headers, body: body() }, globals, baseDirOf(file), timeoutMs, req);
  keepGlobals(r, globals, sessionOverrides, state);
  return { tests: r.tests, logs: r.logs };
}

/** The handlers of a streamed response, open while it arrives (`openStreamHandlers`). */
export interface LiveHandlers {
  /** Feed events; true: the handlers unsubscribed, end the request (handlers.ts, `openHandlers`). */
  feed(events: StreamItem[]): Promise<boolean>;
  close(): Promise<HandlerResult>;
  /** The `client.global` values they started with. */
  globals: Map<string, string>;
}

/**
 * When a `.http` request's response turns out to be a stream (its head: session/stream.ts), or a
 * WebSocket request's handshake succeeded (session/websocket.ts), its handlers run at once and
 * are fed the events or messages as they arrive (JetBrains' `onEachLine` / `onEachMessage`);
 * {@link afterHttp} then takes their result instead of running them again.
 * @param o.output a WebSocket's: sends what a handler's `output(text)` gives (handlers.ts `openHandlers`).
 * @returns undefined when the request has no handlers.
 */
export async function openStreamHandlers(node: RequestNode, request: Request, head: { status: number; headers: Header[] }, file: string | undefined, sessionOverrides: Map<string, string>, ctx?: HttpVarContext, timeoutMs = HANDLER_TIMEOUT_MS, o: { output?: (text: string) => void } = {}): Promise<LiveHandlers | undefined> {
  if (!node.handlers?.length) return undefined;
  const globals = handedGlobals(sessionOverrides);
  const h = await openHandlers(node.handlers, { status: head.status, headers: head.headers, body: '' }, globals, baseDirOf(file), timeoutMs, requestAfter(node, request, ctx?.env, ctx?.requestVars), o.output ? { websocket: true, output: o.output } : {});
  return { ...h, globals };
}

/**
 * Before a `.http` request is resolved: run its JetBrains pre-request scripts
 * (http-file/pre-request.ts; each within `timeoutMs`), keep their `client.global` values as
 * overrides, and add their per-request variables (`request.variables.set`) to the `{{...}}`
 * sources.
 * @returns the context to resolve with, and the scripts' tests (failures) and logs.
 */
export async function beforeHttp(sheet: Sheet, node: RequestNode, ctx: HttpVarContext, file: string | undefined, sessionOverrides: Map<string, string>, state: HttpSessionState, timeoutMs = HANDLER_TIMEOUT_MS): Promise<{ ctx: HttpVarContext; scripts: ScriptOutcome }> {
  if (!node.preScripts?.length) return { ctx, scripts: { tests: [], logs: [] } };
  const globals = handedGlobals(sessionOverrides);
  const r = await runPreRequest(sheet, node, ctx, globals, baseDirOf(file), timeoutMs);
  keepGlobals(r, globals, sessionOverrides, state);
  const { overrides, globals: g } = splitOverrides(sessionOverrides, state);
  return { ctx: { ...ctx, overrides, globals: g, requestVars: r.variables }, scripts: { tests: r.tests, logs: r.logs } };
}

const baseDirOf = (file: string | undefined) => (file ? path.dirname(path.resolve(file)) : process.cwd());

/** The values a script's `client.global` starts with: every override, by name without the colon. */
function handedGlobals(sessionOverrides: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...sessionOverrides].map(([k, v]) => [k.replace(/^:/, ''), v]));
}

/** Keep what scripts did to `client.global` (handed `handed`) as overrides `:name`. */
function keepGlobals(r: HandlerResult, handed: ReadonlyMap<string, string>, sessionOverrides: Map<string, string>, state: HttpSessionState): void {
  for (const n of r.cleared) {
    sessionOverrides.delete(`:${n}`);
    state.globals.delete(n);
  }
  for (const [k, v] of r.globals) {
    sessionOverrides.set(`:${k}`, v);
    // Only what a script set becomes a global; what it was handed keeps its rank.
    if (handed.get(k) !== v) state.globals.set(k, v);
  }
}

/** Handler and script results as assertions (`name` `client.test`, `args` the test name). */
export function asAssertions(tests: HandlerResult['tests']): Assertion[] {
  return tests.map((t) => ({
    line: t.line,
    name: 'client.test',
    args: t.name,
    passed: t.passed,
    message: `line ${t.line}: ${t.name}: ${t.passed ? 'ok' : `failed${t.message ? `: ${t.message}` : ''}`}`,
  }));
}


/**
 * `sheet/variables` for a `.http` file: its `@name` declarations (file-wide, the last one wins,
 * as VS Code REST Client) with their values after the `{{...}}` pass, in the context `ctx`
 * (httpContext without a request: no prompt check). A value that cannot be computed has
 * `error` (e.g. an environment name without `env`, a request not sent yet).
 */
export function httpVariables(sheet: Sheet, ctx: HttpVarContext, maxDepth: number): VariablesOutput['variables'] {
  const fileVars = new Map(sheet.vars.map((v) => [v.name, v.value]));
  const c: HttpVarContext = { ...ctx, fileVars, maxDepth };
  const latest = new Map(sheet.vars.map((v) => [v.name, v]));
  return [...latest.values()].map((d) => {
    const entry: VariablesOutput['variables'][number] = { name: d.name, kind: d.kind, line: d.line, raw: d.value };
    try {
      entry.value = substituteHttp(d.value, c, d.line);
    } catch (e) {
      entry.error = isEngineError(e) ? e.message : String(e);
    }
    return entry;
  });
}

/**
 * The variables of the environment `env` as `sheet/variables` lists them (`environment`): each
 * substituted in `ctx` (its file variables, overrides...), `secret` when a private file gives it.
 */
export function httpEnvironmentValues(env: Environment, ctx: HttpVarContext, maxDepth: number): NonNullable<VariablesOutput['environment']> {
  return Object.entries(env.variables).map(([name, raw]) => {
    const entry: NonNullable<VariablesOutput['environment']>[number] = { name, ...(env.secrets.has(name) ? { secret: true } : {}) };
    try {
      entry.value = substituteHttp(raw, { ...ctx, maxDepth }, 0);
    } catch (e) {
      entry.error = isEngineError(e) ? e.message : String(e);
    }
    return entry;
  });
}

/**
 * `e` told that no environment is chosen, when that may be why: an `unknown-variable` error
 * (`{{X}} is not defined`, not one of a failed request) of a `.http` request sent without an
 * environment while the environment files above `file` define some (issue 22 item 6). The
 * message lists them; the hint says how to choose one (C-c C-e in Emacs, `sheet run --env`).
 * Any other error comes back as it is, a named request's (`{{login.response...}}` before `login`
 * was sent: no environment supplies it) included.
 */
export function explainNoEnvironment(e: unknown, file: string | undefined, envName: string | undefined): unknown {
  if (envName || !isEngineError(e) || e.code !== 'unknown-variable' || e.details?.failedLine !== undefined || e.details?.request !== undefined) return e;
  let available: string[];
  try {
    available = loadEnvironment(file ?? path.join(process.cwd(), 'untitled.http')).available;
  } catch {
    return e;
  }
  if (!available.length) return e;
  return new EngineError(e.code, `${e.message.replace(/^line \d+: /, '')}, and no environment is chosen (${available.join(', ')})`, {
    line: e.line,
    hint: `Choose an environment (C-c C-e in Emacs, --env NAME for sheet run)${e.hint ? `, or: ${e.hint}` : '.'}`,
    details: { ...e.details, environments: available },
    cause: e,
  });
}
