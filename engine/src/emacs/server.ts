/**
 * The JSON-RPC server on stdin/stdout (vscode-jsonrpc, Content-Length framing). Nothing but
 * protocol goes to stdout; logs go to stderr. Engine errors travel as ResponseErrors with code
 * ENGINE_ERROR and `data` = { code, line, hint, details }. `$/cancelRequest` aborts a send.
 */
import { dirname, resolve } from 'node:path';
import { CancellationTokenSource, ResponseError, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc';
import { createMessageConnection, StreamMessageReader } from 'vscode-jsonrpc/node.js';
import { EngineError, isEngineError, toEngineError } from '../errors.js';
import { closeConnections } from '../http/send.js';
import { containStrayErrors, withCallScope } from '../call-scope.js';
import { curlToSheet } from '../curl/from-curl.js';
import { curlFileReader } from '../resolve/body-parts.js';
import { codeTargets } from '../snippet/to-code.js';
import { syntaxFor } from '../http-file/index.js';
import * as P from './protocol.js';
import { VERSION } from '../version.js';
import { Session, type SessionEvalLisp } from '../session/session.js';
import type { StreamBatch } from '../session/types.js';
import type { WsConnection } from '../ws/connect.js';
import { checkSettings } from '../session/settings.js';
import { answerBadFrames, FramedStreamWriter, strictJsonDecoder } from './framing.js';
import { FrameResync } from './resync.js';
import { completionsFor } from './completions.js';
import { grpcCatalog } from '../grpc/catalog.js';
import { diagnosticsOf } from './diagnostics.js';
import { Documents, type DocumentRef } from './documents.js';
import { serveAuth } from './auth-methods.js';
import { OutlineVersions } from './outline-diff.js';

export { FramedStreamWriter };


/** Turn anything thrown into the ResponseError the protocol promises. */
function toResponseError(e: unknown): ResponseError<P.EngineErrorData> {
  const err = toEngineError(e);
  if (err.code === 'internal-error') process.stderr.write(`engine: internal error: ${(err.cause as Error)?.stack ?? err.message}\n`);
  return new ResponseError(P.ENGINE_ERROR, err.message, err.toData());
}

function abortSignal(token: CancellationToken): AbortSignal {
  const ctrl = new AbortController();
  if (token.isCancellationRequested) ctrl.abort();
  else token.onCancellationRequested(() => ctrl.abort());
  return ctrl.signal;
}

/**
 * Check the shape of a sheet method's params (`text` a string, `line` a positive integer,
 * `context` absent, a string or a number, `prompts` absent or an object of strings, `settings`
 * as {@link checkSettings} says).
 * @throws EngineError `bad-argument`
 */
function checkSheetParams<T extends { text: string; line?: number; context?: unknown }>(p: T, needsLine: boolean): T {
  if (!p || typeof p !== 'object' || typeof p.text !== 'string') {
    throw new EngineError('bad-argument', 'params.text must be the sheet text (a string)', { hint: 'See docs/protocol.md.' });
  }
  if (p.context !== undefined && typeof p.context !== 'string' && !(typeof p.context === 'number' && Number.isFinite(p.context))) {
    throw new EngineError('bad-argument', `params.context must be a string or a number, not ${JSON.stringify(p.context)}`, { hint: 'See docs/protocol.md.' });
  }
  if (needsLine && !(Number.isInteger(p.line) && p.line! >= 1)) {
    throw new EngineError('bad-argument', `params.line must be a 1-based line number, not ${JSON.stringify(p.line)}`, { hint: 'See docs/protocol.md.' });
  }
  const prompts = (p as { prompts?: unknown }).prompts;
  if (prompts !== undefined && prompts !== null && (typeof prompts !== 'object' || Array.isArray(prompts) || Object.values(prompts).some((v) => typeof v !== 'string'))) {
    throw new EngineError('bad-argument', `params.prompts must map each # @prompt name to its answer (a string), not ${JSON.stringify(prompts)}`, { hint: 'See docs/protocol.md.' });
  }
  const settings = (p as { settings?: unknown }).settings;
  return settings === undefined ? p : { ...p, settings: checkSettings(settings, 'params.settings') };
}

/** Wire a Session to a connection. Exported for tests, which use in-memory streams too. */
export function serve(conn: MessageConnection, onExit: () => void = () => process.exit(0)): void {
  const evalLisp: SessionEvalLisp = async (form, decl, signal, context) => {
    // A cancelled sheet/send cancels the pending lisp/eval too ($/cancelRequest to the client)
    // and does not wait for its answer.
    const source = new CancellationTokenSource();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        source.cancel();
        reject(new EngineError('cancelled', `request cancelled while evaluating ${decl.name}`, { line: decl.line }));
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    try {
      const r = await Promise.race([conn.sendRequest(P.LispEval, { form, name: decl.name, line: decl.line, ...(decl.vars ? { vars: decl.vars } : {}), ...(context !== undefined ? { context } : {}) }, source.token), aborted]);
      // Settings the form changed apply to the request it is evaluated for.
      const changed = checkSettings(r.settings, 'lisp/eval result.settings');
      if (changed) session.noteLispSettings(context, changed);
      return r.value;
      // A failure of the form is made a `lisp-error` in one place: resolve.ts's variableValues.
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  };
  // Until `initialize` says the client has Lisp, `:=` variables are unavailable.
  const session = new Session(undefined);
  // An Emacs user is there: an Authorization Code sign-in may open the browser (BROWSER).
  session.auth.interactive = true;
  // Texts kept in step by their changes (documents.ts): completion and diagnostics.
  const docs = new Documents();
  const outlines = new OutlineVersions();
  const withDoc = <T extends { text: string; doc?: DocumentRef }>(p: T): T => (p && typeof p === 'object' && p.doc !== undefined ? { ...p, text: docs.text(p.doc) } : p);
  const guard =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R> | R) =>
    async (...a: A): Promise<R | ResponseError<P.EngineErrorData>> => {
      try {
        return await fn(...a);
      } catch (e) {
        return toResponseError(e);
      }
    };

  conn.onRequest(P.Initialize, guard(async (p: P.InitializeParams) => {
    session.evalLisp = p?.lisp ? evalLisp : undefined;
    await session.configure(checkSettings(p?.settings, 'params.settings'));
    return { serverName: 'sheet-engine', version: VERSION };
  }));
  conn.onRequest(P.SetSettings, guard(async (s: P.Settings) => {
    await session.configure(checkSettings(s, 'params'));
    return null;
  }));
  conn.onRequest(P.SheetSend, guard((p: P.SendParams, token: CancellationToken) => {
    p = checkSheetParams(p, true);
    if (p.bodyFileMin !== undefined && p.bodyFileMin !== null && !(Number.isInteger(p.bodyFileMin) && p.bodyFileMin >= 0)) {
      throw new EngineError('bad-argument', `params.bodyFileMin must be a number of characters, not ${JSON.stringify(p.bodyFileMin)}`, { hint: 'See docs/protocol.md.' });
    }
    const jq = p.jq as unknown as { filter?: unknown; args?: unknown } | undefined | null;
    if (jq != null && (typeof jq.filter !== 'string' || (jq.args != null && (!Array.isArray(jq.args) || jq.args.some((a) => typeof a !== 'string'))))) {
      throw new EngineError('bad-argument', `params.jq must be { filter: string, args?: string[] }, not ${JSON.stringify(jq)}`, { hint: 'See docs/protocol.md.' });
    }
    // An error a library throws outside our awaits ends this send alone (src/call-scope.ts).
    const q = { ...p, bodyFileMin: p.bodyFileMin ?? undefined, jq: p.jq ?? undefined };
    // A streamed body's events go to Emacs as they arrive (`sheet/streamEvents`), the answer after the stream.
    const context = q.context;
    const onStream = context === undefined ? undefined : (b: StreamBatch) => void conn.sendNotification(P.StreamEvents, { context, ...(b.head ? { head: b.head } : {}), text: b.events.map((e) => `${e.text}\n\n`).join(''), events: b.events.length, count: b.count, elapsedMs: b.elapsedMs });
    return withCallScope(async (signal) => (await session.sendDetailed(q, signal, onStream ? { onStream } : {})).output, abortSignal(token));
  }));
  // Open WebSocket sessions (`ws/open`), by id; each ends itself on close.
  const sockets = new Map<number, WsConnection>();
  let nextSocket = 1;
  conn.onRequest(P.WsOpen, guard(async (p: P.SendParams): Promise<P.WsOpenResult> => {
    const id = nextSocket++;
    const o = await session.openWebSocket(checkSheetParams(p, true), {
      onAny: (m) => void conn.sendNotification(P.WsMessageNotification, { id, ...m }),
      onClose: (c) => {
        sockets.delete(id);
        void conn.sendNotification(P.WsClosedNotification, { id, ...c });
      },
    });
    const head = { id, url: o.url, status: o.handshake.status, statusText: o.handshake.statusText, headers: o.handshake.headers };
    if (!o.connection) return { ...head, refusedBody: new TextDecoder().decode(o.handshake.body) };
    sockets.set(id, o.connection);
    return head;
  }));
  const socketOf = (id: unknown): WsConnection => {
    const c = typeof id === 'number' ? sockets.get(id) : undefined;
    if (!c) throw new EngineError('bad-argument', `no open WebSocket session ${JSON.stringify(id)}`, { hint: 'It was closed; open it again with C-c C-c on the request.' });
    return c;
  };
  conn.onRequest(P.WsSend, guard((p: { id: number; text: string }) => {
    if (typeof p?.text !== 'string') throw new EngineError('bad-argument', 'params.text must be a string', { hint: 'See docs/protocol.md.' });
    socketOf(p.id).send(p.text);
    return null;
  }));
  conn.onRequest(P.WsCloseRequest, guard((p: { id: number }) => {
    socketOf(p?.id).close(1000, '');
    return null;
  }));
  conn.onRequest(P.SheetOutline, guard((p: P.OutlineParams) => {
    // The text as its changes too, and the answer as its changes since `since` (sheet-mode's
    // background refresh of the kept outline; outline-diff.ts).
    const q = checkSheetParams(withDoc(p), false);
    return outlines.answer(p.doc?.id, p.since, session.outline(q.text, typeof q.path === 'string' ? q.path : undefined));
  }));
  conn.onRequest(P.SheetVariables, guard((p: P.VariablesParams) => session.variables(checkSheetParams(withDoc(p), true))));
  conn.onRequest(P.SheetCompletions, guard((p: P.CompletionsParams) => {
    // An editor's look-up over the session's parse and overrides (completions.ts).
    const q = checkSheetParams(withDoc(p), true);
    return completionsFor(session.parse(q.text, q.path), q, session.overrides);
  }));
  conn.onRequest(P.SheetGrpcMethods, guard(async (p: P.GrpcMethodsParams) => {
    // Completion after `GRPC host:port/`: the request's proto lines, else reflection (grpc/catalog.ts).
    const q = checkSheetParams(withDoc(p), true);
    if (typeof q.address !== 'string' || !q.address.trim()) throw new EngineError('bad-argument', `params.address must be the request line's host:port, not ${JSON.stringify(q.address)}`, { hint: 'See docs/protocol.md, sheet/grpcMethods.' });
    const node = session.parse(q.text, q.path).requests.find((r) => r.startLine <= q.line && q.line <= r.endLine);
    const g = node?.grpc ?? { protos: [], importPaths: [], options: [] };
    const services = await grpcCatalog({ address: q.address.trim(), protos: g.protos, importPaths: g.importPaths, options: g.options, baseDir: q.path ? dirname(resolve(q.path)) : process.cwd() });
    return { services };
  }));
  conn.onRequest(P.SheetCurl, guard((p: P.CurlParams) => session.curl(checkSheetParams(withDoc(p), true))));
  conn.onRequest(P.SheetDiagnostics, guard((p: P.DiagnosticsParams) => {
    // What an editor marks while the user types (diagnostics.ts), over the session's parse and overrides.
    const q = checkSheetParams(withDoc(p), false);
    return { diagnostics: diagnosticsOf(q.text, session.parse(q.text, q.path), q, session.overrides) };
  }));
  conn.onRequest(P.SheetCode, guard((p: P.CodeParams) => {
    if (typeof p?.target !== 'string') throw new EngineError('bad-argument', `params.target must be a code target's name (a string), not ${JSON.stringify(p?.target)}`, { hint: 'sheet/codeTargets lists them; see docs/protocol.md.' });
    return session.code(checkSheetParams(p, true));
  }));
  conn.onRequest(P.SheetCodeTargets, guard(() => ({ targets: codeTargets() })));
  conn.onRequest(P.SheetFromCurl, guard((p: P.FromCurlParams) => {
    if (typeof p?.command !== 'string') {
      throw new EngineError('bad-argument', `params.command must be a curl command line (a string), not ${JSON.stringify(p?.command)}`, { hint: 'See docs/protocol.md.' });
    }
    const path = typeof p.path === 'string' ? p.path : undefined;
    // Files the command names (-d @file, -b FILE) are read beside the sheet, where it reads `< file`.
    const { requests, warnings } = curlToSheet(p.command, { readFile: curlFileReader(path ? dirname(path) : process.cwd()) });
    const separator = syntaxFor(typeof p.text === 'string' ? p.text : '', path) === 'http' ? '###' : '#';
    // A command that makes several requests (URL globs) gives one request each, separated.
    return { text: requests.join(`${separator}\n`), warnings, separator };
  }));
  conn.onRequest(P.SheetEnvironments, guard((p: P.EnvironmentsParams) => {
    if (p?.path !== undefined && p.path !== null && typeof p.path !== 'string') {
      throw new EngineError('bad-argument', `params.path must be a file name, not ${JSON.stringify(p.path)}`, { hint: 'See docs/protocol.md.' });
    }
    return session.environments({ path: p?.path ?? undefined });
  }));
  conn.onRequest(P.SetVar, guard((p: P.SetVarParams) => {
    if (typeof p?.name !== 'string' || !/^:[^\s:=]+$/.test(p.name)) {
      throw new EngineError('bad-argument', `not a variable name: ${JSON.stringify(p?.name)}`, { hint: 'Variable names start with a colon, e.g. ":token".' });
    }
    if (p.value === undefined || p.value === null || typeof p.value === 'object') {
      throw new EngineError('bad-argument', `params.value must be the value of ${p.name} (a string), not ${JSON.stringify(p.value)}`, { hint: 'See docs/protocol.md.' });
    }
    session.overrides.set(p.name, String(p.value));
    return null;
  }));
  // Token auth: M-x sheet-auth-list|login|logout, and the sign-ins of sheet/send (auth-methods.ts).
  serveAuth(conn, session, guard, abortSignal);
  conn.onRequest(P.Shutdown, async () => {
    await closeConnections();
    return null;
  });
  conn.onNotification(P.Exit, () => onExit());
}

/** Run the server on this process's stdio until `exit` or stdin closes. */
export function runStdioServer(): void {
  containStrayErrors('engine');
  const writer = new FramedStreamWriter(process.stdout);
  // A frame shorter than its Content-Length must not leave the reader one frame off (resync.ts).
  const reader = new StreamMessageReader(process.stdin.pipe(new FrameResync()), { contentTypeDecoder: strictJsonDecoder });
  const conn = createMessageConnection(reader, writer);
  answerBadFrames(conn, writer);
  serve(conn);
  conn.onClose(() => process.exit(0));
  process.stdin.on('end', () => process.exit(0));
  conn.listen();
}
