/**
 * The JSON-RPC server on stdin/stdout (vscode-jsonrpc, Content-Length framing). Nothing but
 * protocol goes to stdout; logs go to stderr. Engine errors travel as ResponseErrors with code
 * ENGINE_ERROR and `data` = { code, line, hint, details }. `$/cancelRequest` aborts a send.
 */
import {
  AbstractMessageWriter,
  CancellationTokenSource,
  ResponseError,
  type CancellationToken,
  type Message,
  type MessageConnection,
  type MessageWriter,
} from 'vscode-jsonrpc';
import { createMessageConnection, StreamMessageReader } from 'vscode-jsonrpc/node.js';
import { EngineError, isEngineError, toEngineError } from '../errors.js';
import { closeConnections } from '../http/send.js';
import * as P from './protocol.js';
import { Session, type SessionEvalLisp } from './session.js';

const VERSION = '0.1.0';

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
 * `context` absent, a string or a number).
 * @throws EngineError `bad-argument`
 */
function checkSheetParams<T extends { text: string; line?: number; context?: unknown }>(p: T, needsLine: boolean): T {
  if (!p || typeof p.text !== 'string') {
    throw new EngineError('bad-argument', 'params.text must be the sheet text (a string)', { hint: 'See docs/protocol.md.' });
  }
  if (p.context !== undefined && typeof p.context !== 'string' && !(typeof p.context === 'number' && Number.isFinite(p.context))) {
    throw new EngineError('bad-argument', `params.context must be a string or a number, not ${JSON.stringify(p.context)}`, { hint: 'See docs/protocol.md.' });
  }
  if (needsLine && !(Number.isInteger(p.line) && p.line! >= 1)) {
    throw new EngineError('bad-argument', `params.line must be a 1-based line number, not ${JSON.stringify(p.line)}`, { hint: 'See docs/protocol.md.' });
  }
  return p;
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
      return r.value;
    } catch (e) {
      if (isEngineError(e)) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      throw new EngineError('lisp-error', `evaluating ${decl.name}: ${msg}`, {
        line: decl.line,
        hint: `Fix the Lisp form of ${decl.name}; the request was not sent.`,
        details: { variable: decl.name },
      });
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  };
  // Until `initialize` says the client has Lisp, `:=` variables are unavailable.
  const session = new Session(undefined);
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
    session.evalLisp = p.lisp ? evalLisp : undefined;
    await session.configure(p.settings);
    return { serverName: 'sheet-engine', version: VERSION };
  }));
  conn.onRequest(P.SetSettings, guard(async (s: P.Settings) => {
    await session.configure(s);
    return null;
  }));
  conn.onRequest(P.SheetSend, guard((p: P.SendParams, token: CancellationToken) => {
    checkSheetParams(p, true);
    if (p.bodyFileMin !== undefined && p.bodyFileMin !== null && !(Number.isInteger(p.bodyFileMin) && p.bodyFileMin >= 0)) {
      throw new EngineError('bad-argument', `params.bodyFileMin must be a number of characters, not ${JSON.stringify(p.bodyFileMin)}`, { hint: 'See docs/protocol.md.' });
    }
    return session.send({ ...p, bodyFileMin: p.bodyFileMin ?? undefined }, abortSignal(token));
  }));
  conn.onRequest(P.SheetOutline, guard((p: P.OutlineParams) => session.outline(checkSheetParams(p, false).text)));
  conn.onRequest(P.SheetVariables, guard((p: P.VariablesParams) => session.variables(checkSheetParams(p, true))));
  conn.onRequest(P.SheetCurl, guard((p: P.CurlParams) => session.curl(checkSheetParams(p, true))));
  conn.onRequest(P.SetVar, guard((p: P.SetVarParams) => {
    if (!/^:[^\s:=]+$/.test(p.name)) {
      throw new EngineError('bad-argument', `not a variable name: ${JSON.stringify(p.name)}`, { hint: 'Variable names start with a colon, e.g. ":token".' });
    }
    session.overrides.set(p.name, String(p.value));
    return null;
  }));
  conn.onRequest(P.Shutdown, async () => {
    await closeConnections();
    return null;
  });
  conn.onNotification(P.Exit, () => onExit());
}

/**
 * Writes each message, `Content-Length` header and JSON together, with one write to the stream.
 * vscode-jsonrpc's StreamMessageWriter writes the header, waits for the write's callback and
 * then writes the body: two writes on the pipe, so the client is woken up for the header
 * alone and then again for the body, which adds a wake-up and a wait to every answer.
 * Messages are written in the order `write` is called.
 */
export class FramedStreamWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly out: NodeJS.WritableStream) {
    super();
    out.on('error', (e: Error) => this.fireError(e));
    out.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    const header = `Content-Length: ${body.length}\r\n\r\n`;
    const frame = Buffer.allocUnsafe(header.length + body.length);
    frame.write(header, 0, 'ascii');
    body.copy(frame, header.length);
    return new Promise((resolve, reject) => {
      this.out.write(frame, (e?: Error | null) => {
        if (!e) {
          this.errorCount = 0;
          resolve();
          return;
        }
        this.errorCount++;
        this.fireError(e, msg, this.errorCount);
        reject(e);
      });
    });
  }

  end(): void {
    this.out.end();
  }
}

/** Run the server on this process's stdio until `exit` or stdin closes. */
export function runStdioServer(): void {
  const conn = createMessageConnection(new StreamMessageReader(process.stdin), new FramedStreamWriter(process.stdout));
  serve(conn);
  conn.onClose(() => process.exit(0));
  process.stdin.on('end', () => process.exit(0));
  conn.listen();
}
