/**
 * The answer of one send once its exchange is done (DESIGN.md's data flow: ... -> exchange ->
 * present -> hooks): the `.http` response handlers run (http-file.ts), the body presented (a
 * stream's events, or a spilled body as its sink presented it), the hooks with every assertion
 * (the scripts' tests, a WebSocket's or gRPC status's failures, JetBrains' `>> file` saves), the
 * request's warnings, and the `SendOutput` with the exchange. `Session.send`'s last step
 * (session.ts); the exchange itself is transports.ts'.
 */
import path from 'node:path';
import type { RequestNode, Sheet } from '../sheet/ast.js';
import { visibleVars, type ResolvedRequest } from '../resolve/resolve.js';
import type { HttpVarContext } from '../resolve/http-vars.js';
import { present } from '../present/present.js';
import { runHooks } from '../hooks/run.js';
import { filterBody } from '../hooks/jq-filter.js';
import { headerValue } from '../model.js';
import { presentationOut, requestInfo, responseInfo } from './answer.js';
import { bodyNotRead, requestWarnings } from './warnings.js';
import { grpcStatusAssertion } from './grpc.js';
import { streamPresentation, type StreamChoice } from './stream.js';
import type { SpillSink } from './spill.js';
import type { TransportResult } from './transports.js';
import { websocketFailures } from './websocket.js';
import { saveResponses } from './save-response.js';
import { afterHttp, asAssertions, type HttpSessionState, type LiveHandlers } from './http-file.js';
import { maskSecrets } from './history.js';
import type { ScriptOutcome, SendDetail, SendInput, SendLocal, SendOutput, Settings } from './types.js';

/** The request at point as the session resolved it (session.ts `resolveAt`): what the answer reads of it. */
export interface ResolvedAt extends ResolvedRequest {
  node: RequestNode;
  sheet: Sheet;
  /** The `.http` context (undefined in a sheet). */
  http: HttpVarContext | undefined;
  /** The pre-request scripts' tests and logs. */
  pre: ScriptOutcome;
  /** `{{$auth.token}}` tokens and secrets, masked in the answer's request. */
  secrets: string[];
  /** The token step's warnings (a token cache that could not be written). */
  authWarnings: string[];
}

/** What {@link answerOf} needs: the send, its resolved request, the exchange and the session's state. */
export interface AnswerInput {
  p: SendInput;
  s: Required<Settings>;
  local: SendLocal;
  resolved: ResolvedAt;
  transport: TransportResult;
  choice: StreamChoice;
  /** The spill sink when the client takes big bodies in files (spill.ts); its file when one was written. */
  sink: SpillSink | undefined;
  /** The session's variable overrides, which hooks and `.http` handlers set. */
  overrides: Map<string, string>;
  http: HttpSessionState;
  /** `sheet run`'s spilling (Session.spillBigBodies): an unread spilled body is not a warning then. */
  spillBigBodies: boolean;
  /** The cookie file's read failure, said once: taken (and cleared) by this answer. */
  takeJarReadWarning: () => string | null;
}

/**
 * The answer of one send: its `SendOutput` (docs/protocol.md, `sheet/send`), the exchange and
 * the scripts' outcome.
 * @throws EngineError `jq-error` from `p.jq`; a hook's failure is an assertion, not an error.
 */
export async function answerOf(a: AnswerInput): Promise<SendDetail> {
  const { p, s, local, resolved, choice, sink } = a;
  const { sent, grpc, ws, wsLive, ended } = a.transport;
  if (choice.stream) await choice.stream.handled;
  // A gRPC stream's body stays the array of its messages (grpc.ts).
  const streamed = grpc ? { exchange: sent.exchange, info: choice.info(ended, 'message') } : choice.finish(sent.exchange, ended);
  let exchange = streamed.exchange;
  const jarWarning = sent.jarWarning;
  const spilled = sink?.file ? sink : undefined;
  if (sink && !spilled) exchange = { ...exchange, response: { ...exchange.response, body: sink.body() } };
  const before = resolved.http ? new Map(a.overrides) : undefined;
  const after = resolved.http ? await afterHttp(resolved.node, exchange.request, exchange.response, p.path, a.overrides, a.http, resolved.http, local.handlerTimeoutMs, wsLive ?? (choice.live as LiveHandlers | undefined)) : undefined;
  // What the `.http` handlers set (`client.global.set`) is reported with jq-set-var's, so a
  // client that keeps the session's overrides (sheet-mode) knows it too.
  const handlerSet = before ? [...a.overrides].filter(([n, v]) => before.get(n) !== v).map(([name, value]) => ({ name, value })) : [];
  // A spilled body was presented by its sink as it passed (re-indented or raw, in the file);
  // hooks do not read it.
  const pres = spilled ? undefined : streamed.info && !grpc ? streamPresentation(streamed.info, Buffer.from(exchange.response.body).toString('utf8'), headerValue(exchange.response.headers, 'content-type'), s.threshold) : present(exchange.response, { raw: p.raw, threshold: s.threshold });
  const hooks = await runHooks(resolved.hooks, pres?.kind === 'text' ? pres.text! : '', (n, v) => a.overrides.set(n, v), {
    status: exchange.response.status,
    statusText: exchange.response.statusText,
    headers: exchange.response.headers,
    durationMs: exchange.durationMs,
    ...(streamed.info ? { stream: { count: streamed.info.events, ended: streamed.info.ended, data: choice.stream!.kept.map((e) => e.data) } } : {}),
  });
  hooks.assertions.unshift(...asAssertions(resolved.pre.tests), ...(ws ? websocketFailures(ws.websocket, exchange.response, resolved.node.line) : []));
  // A gRPC status other than OK fails the request unless an assertion expects it (grpc.ts).
  const grpcFailure = grpc && grpcStatusAssertion(resolved.node, exchange.response, resolved.hooks, ended);
  if (grpcFailure) hooks.assertions.push(grpcFailure);
  if (after) hooks.assertions.push(...asAssertions(after.tests));
  // JetBrains' `>> file`: the body saved after the exchange; a failure is that line's failed assertion.
  const saves = resolved.node.saveResponse?.length ? await saveResponses(resolved.node.saveResponse, spilled ? { file: spilled.file! } : { bytes: exchange.response.body }, p.path ? path.dirname(path.resolve(p.path)) : process.cwd(), resolved.http) : undefined;
  if (saves) hooks.assertions.push(...saves.failures);
  hooks.setVars.unshift(...handlerSet);
  hooks.warnings.unshift(...requestWarnings(resolved.sheet, resolved.node, resolved.warnings));
  const line = resolved.request.line ?? p.line;
  if (jarWarning) hooks.warnings.push({ line, code: 'cookie-jar-unwritable', message: jarWarning });
  for (const message of resolved.authWarnings) hooks.warnings.push({ line, code: 'token-cache-unwritable', message });
  const unread = spilled && bodyNotRead(resolved.hooks, spilled.size, a.spillBigBodies);
  if (unread) hooks.warnings.push(unread);
  const jarRead = a.takeJarReadWarning();
  if (jarRead) hooks.warnings.push({ line, code: 'cookie-jar-unreadable', message: jarRead });
  const { request, response } = exchange;
  const scripts = after ? { tests: [...resolved.pre.tests, ...after.tests], logs: [...resolved.pre.logs, ...after.logs] } : resolved.pre;
  const output: SendOutput = {
    // The tokens and secrets of `{{$auth.token}}` are never shown (the exchange keeps them).
    request: maskSecrets(requestInfo(request), resolved.secrets),
    response: responseInfo(response, spilled ? spilled.size : response.body.length),
    presentation: !pres ? spilled!.presentation() : await presentationOut(pres, response.body, p),
    redirects: exchange.redirects,
    durationMs: exchange.durationMs,
    hooks,
    ...(streamed.info ? { stream: streamed.info } : {}),
    ...(exchange.proxy ? { proxy: `${exchange.proxy.origin} (from ${exchange.proxy.source})` } : {}),
    vars: visibleVars(resolved.variables, new Map(hooks.setVars.map((v) => [v.name, v.value])), s.maxPasses),
    ...(p.jq ? { jq: await filterBody(p.jq, pres?.kind === 'text' ? pres.text! : '') } : {}),
    ...(scripts.logs.length ? { logs: scripts.logs } : {}),
    ...(saves?.saved.length ? { saved: saves.saved } : {}),
    ...(ws ? { websocket: ws.websocket } : {}),
  };
  return { output, exchange, scripts };
}
