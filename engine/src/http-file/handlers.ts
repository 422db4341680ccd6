/**
 * JetBrains HTTP Client response handlers (`> {% script %}`, `> ./handler.js`; JetBrains' "HTTP
 * Response handling API reference") run in a `node:vm` context with a time limit and a memory
 * limit (handler-sandbox.ts: a worker thread with a capped heap).
 *
 * The script sees only objects made inside its own context (`client`, `response`, plain JSON
 * data): no `require`, no `process`, no timers, no outer-realm object whose constructor could
 * reach them, and no code generation from strings. Results come out as JSON. The API:
 * `client.global.set/get/clear/clearAll/isEmpty`, `client.test(name, fn)`,
 * `client.assert(cond, message)`, `client.log(...)`, `client.exit()`, `response.status`, `response.body` (parsed
 * when the content type is JSON), `response.headers.valueOf(name)` / `valuesOf(name)`,
 * `response.contentType.mimeType` / `.charset`.
 */
import { STREAM_BODY_PRELUDE } from './stream-handler-api.js';
import fs from 'node:fs/promises';
import { openInSandbox, runInSandbox, warmSandbox, type OpenScript, type SandboxResult } from './handler-sandbox.js';
import type { ResponseHandler } from '../sheet/ast.js';
import { EngineError } from '../errors.js';
import { expandPath } from '../resolve/resolve.js';
import type { Header } from '../model.js';
import { REQUEST_PRELUDE, type HandlerRequest } from './request-api.js';

/** One `client.test` (or a failed `client.assert` outside a test, or a script error). */
export interface HandlerTestResult {
  name: string;
  passed: boolean;
  message?: string;
  /** Line of the handler in the `.http` file. */
  line: number;
}

export interface HandlerResult {
  tests: HandlerTestResult[];
  /** Per-request variables after the scripts ran (`request.variables.set`). */
  variables: Map<string, string>;
  /** Globals after the handlers ran (`client.global`), name -> value as a string. */
  globals: Map<string, string>;
  /** Names removed with `client.global.clear` / `clearAll`. */
  cleared: string[];
  logs: string[];
}

export interface HandlerResponse {
  status: number;
  headers: Header[];
  /** The body decoded as text. */
  body: string;
}

/**
 * One event or message for the handlers of a stream: `line` is what `onEachLine` gets;
 * `onEachMessage` gets it parsed (inside the sandbox) when `json` is true and it parses, else
 * `line` itself (a malformed event, a binary WebSocket message).
 */
export interface StreamItem {
  line: string;
  json: boolean;
}

/**
 * Start the handlers' sandbox (a worker thread) now, with this file's prelude compiled, for a
 * request whose handlers will run soon (handler-sandbox.ts, `warmSandbox`).
 */
export function warmHandlers(): void {
  warmSandbox(PRELUDE);
}

/** Default time limit of one handler, in ms. */
export const HANDLER_TIMEOUT_MS = 2000;

// The same text for every script (compiled once in the worker); its input is the context's `__input`.
const PRELUDE = `
'use strict';
const __out = { tests: [], globals: {}, cleared: [], logs: [], variables: {} };
const __data = JSON.parse(__input);
Object.assign(__out.globals, __data.globals);
const __str = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
const client = Object.freeze({
  global: Object.freeze({
    set(name, value) { __out.globals[String(name)] = __str(value); },
    get(name) { return Object.prototype.hasOwnProperty.call(__out.globals, name) ? __out.globals[name] : null; },
    isEmpty() { return Object.keys(__out.globals).length === 0; },
    clear(name) { delete __out.globals[name]; __out.cleared.push(String(name)); },
    clearAll() { for (const k of Object.keys(__out.globals)) { delete __out.globals[k]; __out.cleared.push(k); } },
  }),
  test(name, fn) {
    try { fn(); __out.tests.push({ name: String(name), passed: true }); }
    catch (e) { __out.tests.push({ name: String(name), passed: false, message: String(e && e.message || e) }); }
  },
  assert(cond, message) { if (!cond) throw new Error(message === undefined ? 'assertion failed' : String(message)); },
  log(...args) { __out.logs.push(args.map(__str).join(' ')); },
  exit() { throw __exit; },
});
const __exit = Object.freeze({ exit: true });
const __headers = __data.response ? __data.response.headers : [];
// A streamed response or a WebSocket's messages (openHandlers): JetBrains' streaming API.
${STREAM_BODY_PRELUDE}
const response = __data.response === undefined ? undefined : Object.freeze({
  status: __data.response.status,
  body: __data.response.stream ? __streamBody : __data.response.json !== undefined ? __data.response.json : __data.response.body,
  headers: Object.freeze({
    valueOf(name) { const h = __headers.find(([n]) => n.toLowerCase() === String(name).toLowerCase()); return h ? h[1] : null; },
    valuesOf(name) { return __headers.filter(([n]) => n.toLowerCase() === String(name).toLowerCase()).map(([, v]) => v); },
  }),
  contentType: Object.freeze({ mimeType: __data.response.mimeType, charset: __data.response.charset }),
});
${REQUEST_PRELUDE}`;

function inputJson(res: HandlerResponse | undefined, globals: ReadonlyMap<string, string>, req: HandlerRequest | undefined, stream?: 'stream' | 'websocket'): string {
  const base = { globals: Object.fromEntries(globals), ...(req ? { request: req } : {}) };
  if (!res) return JSON.stringify(base);
  const ct = res.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const [mimeType = '', ...params] = ct.split(';').map((s) => s.trim());
  const charset = params.find((p) => /^charset=/i.test(p))?.slice(8) ?? 'utf-8';
  let json: unknown;
  if (/[/+]json$/i.test(mimeType)) {
    try {
      json = JSON.parse(res.body);
    } catch {
      // not JSON after all: the script gets the text
    }
  }
  return JSON.stringify({ ...base, response: { status: res.status, headers: res.headers, body: res.body, json, mimeType, charset, ...(stream ? { stream: true } : {}), ...(stream === 'websocket' ? { websocket: true } : {}) } });
}

/**
 * Run one handler's (or pre-request script's) script.
 * @param source the script text.
 * @param res the response; undefined for a pre-request script (`response` is then undefined).
 * @param globals the `client.global` values before it runs.
 * @param timeoutMs time limit (synchronous code and its promise jobs), default 2000 ms.
 * @param req the `request` object's data (request-api.ts); undefined: no `request`.
 * @param what how a failure is named: `response handler` or `pre-request script`.
 * @returns its tests (a script error or timeout is a failed test named after the script).
 */
export async function runHandlerScript(source: string, line: number, res: HandlerResponse | undefined, globals: ReadonlyMap<string, string>, timeoutMs = HANDLER_TIMEOUT_MS, req?: HandlerRequest, what = 'response handler'): Promise<HandlerResult> {
  // A sandbox object without prototype (handler-sandbox.ts): `this.constructor` must not lead to
  // the outer realm's Function (and from there to `process`). The input travels as a string
  // literal. The user's script runs in its own function so its declarations do not clash with
  // the prelude, and a `return` ends it (kulala.nvim's scripts write `if (!x) { return; }`).
  const out: HandlerResult = { tests: [], variables: new Map(Object.entries(req?.variables ?? {})), globals: new Map(globals), cleared: [], logs: [] };
  const ran = await runInSandbox(PRELUDE, source, { input: inputJson(res, globals, req), timeoutMs, filename: `handler@line${line}.js`, lineOffset: line - 2 });
  return resultOf(ran, out, line, timeoutMs, what);
}

/**
 * The text of a handler: inline, or its file's (relative to `baseDir`).
 * @throws EngineError `file-unreadable` naming the handler's line.
 */
export async function handlerSource(h: ResponseHandler, baseDir: string, what = 'response handler'): Promise<string> {
  if (h.kind === 'inline') return h.source;
  const file = expandPath(h.path, baseDir);
  try {
    return await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new EngineError('file-unreadable', `cannot read ${what} ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`, {
      line: h.line,
      hint: 'Check the path; it is relative to the .http file\'s directory.',
      details: { path: file },
    });
  }
}

/** A script's run as a {@link HandlerResult}: its `__out` over `out`, a failure as a failed test. */
export function resultOf(ran: SandboxResult, out: HandlerResult, line: number, timeoutMs: number, what: string): HandlerResult {
  if (ran.error && !ran.error.exited) {
    const msg = ran.error.message;
    out.tests.push({ name: `${what} (line ${line})`, passed: false, message: /timed out/i.test(msg) ? `the handler ran longer than ${timeoutMs} ms` : msg, line });
  }
  let r: { tests: HandlerTestResult[]; globals: Record<string, string>; cleared: string[]; logs: string[]; variables: Record<string, string> };
  try {
    r = JSON.parse(ran.out!);
  } catch {
    return out;
  }
  out.tests.unshift(...r.tests.map((t) => ({ ...t, line })));
  out.globals = new Map(Object.entries(r.globals));
  out.cleared = r.cleared;
  out.logs = r.logs;
  out.variables = new Map(Object.entries(r.variables));
  return out;
}

/**
 * Run the handlers (or pre-request scripts) of a request in order, each seeing the globals and
 * request variables the previous one left.
 * @param res the response; undefined for pre-request scripts.
 * @param baseDir directory `> ./file.js` paths are relative to (the `.http` file's).
 * @param req the `request` object's data (request-api.ts).
 * @throws EngineError `file-unreadable` when a handler file cannot be read.
 */
export async function runHandlers(handlers: ResponseHandler[], res: HandlerResponse | undefined, globals: ReadonlyMap<string, string>, baseDir: string, timeoutMs = HANDLER_TIMEOUT_MS, req?: HandlerRequest): Promise<HandlerResult> {
  const what = res ? 'response handler' : 'pre-request script';
  const total: HandlerResult = { tests: [], variables: new Map(Object.entries(req?.variables ?? {})), globals: new Map(globals), cleared: [], logs: [] };
  for (const h of handlers) {
    const source = await handlerSource(h, baseDir, what);
    const r = await runHandlerScript(source, h.line, res, total.globals, timeoutMs, req && { ...req, variables: Object.fromEntries(total.variables) }, what);
    total.tests.push(...r.tests);
    total.variables = r.variables;
    total.globals = r.globals;
    total.cleared.push(...r.cleared);
    total.logs.push(...r.logs);
  }
  return total;
}

/**
 * The handlers of a streamed response or a WebSocket request, kept open while it arrives (issue
 * 40): each script runs once when the head comes (the 101 for a WebSocket), with
 * `response.body` as JetBrains' streaming API (stream-handler-api.ts: `onEachLine`,
 * `onEachMessage`; `message` is the event's data or the WebSocket message parsed when it is
 * JSON), and is fed the events as they come (`feed`). `feed` resolves to true once a script has
 * called `unsubscribe()` and none still listens (a script without a subscription, or one that
 * failed, neither holds nor ends the stream): the caller then ends the request early. What a
 * WebSocket handler's `output(text)` sends goes to `o.output` in order, right after the feed
 * that sent it. `close` runs the `onFinish` callbacks and gives the handlers' result as
 * `runHandlers` does; the scripts' `client.global` values are merged in order (each started
 * from the same values).
 * @param o.websocket the messages are a WebSocket's: `output` sends (to `o.output`) instead of logging.
 * @throws EngineError `file-unreadable` when a handler file cannot be read.
 */
export async function openHandlers(handlers: ResponseHandler[], res: HandlerResponse, globals: ReadonlyMap<string, string>, baseDir: string, timeoutMs = HANDLER_TIMEOUT_MS, req?: HandlerRequest, o: { websocket?: boolean; output?: (text: string) => void } = {}): Promise<{ feed(events: StreamItem[]): Promise<boolean>; close(): Promise<HandlerResult> }> {
  const open: { script: OpenScript; line: number; state: string }[] = [];
  for (const h of handlers) {
    const source = await handlerSource(h, baseDir);
    const { failed, script } = await openInSandbox(PRELUDE, source, { input: inputJson(res, globals, req, o.websocket ? 'websocket' : 'stream'), timeoutMs, filename: `handler@line${h.line}.js`, lineOffset: h.line - 2 });
    open.push({ script, line: h.line, state: failed ? 'failed' : (await script.feed('[]')).state });
  }
  return {
    async feed(events) {
      // One JSON text for every script: the items are parsed inside each context, not here.
      let items: string | undefined;
      for (const s of open) {
        if (s.state !== 'subscribed') continue;
        items ??= JSON.stringify(events);
        const r = await s.script.feed(items);
        s.state = r.state;
        for (const text of r.sends) o.output?.(text);
      }
      return open.some((s) => s.state === 'unsubscribed') && !open.some((s) => s.state === 'subscribed');
    },
    async close() {
      const total: HandlerResult = { tests: [], variables: new Map(Object.entries(req?.variables ?? {})), globals: new Map(globals), cleared: [], logs: [] };
      for (const s of open) {
        const r = resultOf(await s.script.close(), { tests: [], variables: new Map(total.variables), globals: new Map(total.globals), cleared: [], logs: [] }, s.line, timeoutMs, 'response handler');
        total.tests.push(...r.tests);
        total.variables = r.variables;
        for (const [k, v] of r.globals) total.globals.set(k, v);
        total.cleared.push(...r.cleared);
        total.logs.push(...r.logs);
      }
      return total;
    },
  };
}
