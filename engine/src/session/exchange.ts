/**
 * The one exchange path of the session (issue 24): a concrete {@link Request}, from a sheet
 * (session.ts) or from a shell verb's argument vector (shell-verbs/build-request.ts), goes out
 * here and nowhere else: remembered in the history when asked (history.ts), the cookie jar
 * read (jar.ts), the request sent with the engine's `send` (http/send.ts) or, for curl options
 * the engine does not perform, handed to the real curl (http/via-curl.ts), the final
 * response's body streamed to the caller's sink as it arrives (after the -v lines, trace.ts),
 * and the jar saved. What the answer becomes (presented for an editor, streamed to a terminal)
 * is the caller's: this file knows no front end.
 */
import { Writable } from 'node:stream';
import type { Exchange, Request } from '../model.js';
import { send, type ResponseHead, type SendOptions } from '../http/send.js';
import { sendWithCurl, type CurlTransport } from '../http/via-curl.js';
import { appendHistory } from './history.js';
import { verboseLines } from './trace.js';
import type { ExchangeJar } from './jar.js';

/** The final response's head as a sink gets it: `send`'s, with the HTTP version. */
export interface SinkHead extends ResponseHead {
  /** The server's (`1.0`, `1.1` from its status line, `2` over HTTP/2); curl's own when curl sent it. */
  httpVersion: string;
}

/**
 * Where the final response's body goes, chosen when its head arrives (`sent`: the request as
 * sent, its own headers and the Cookie included). A sink that fails makes `send` throw a
 * `SinkError` (http/send.ts).
 */
export type Sink = (head: SinkHead, sent: Request) => Writable | Promise<Writable>;

/** How one request goes out. */
export interface ExchangeOptions {
  /** What `send` is given besides the request, the jar and the sink (http/send.ts). */
  send: Omit<SendOptions, 'jar' | 'sink'>;
  /** The cookie jar, read before and saved after the request; absent: no jar at all. */
  jar?: ExchangeJar;
  /** False: the jar is read and saved, but this request neither sends nor stores its cookies (`.http` `# @no-cookie-jar`). */
  sendCookies?: boolean;
  /** The body's sink; absent: the body is collected, up to `send.maxBodyBytes`. */
  sink?: Sink;
  /**
   * curl's -v: the request as sent and the response head, as lines (trace.ts), given once,
   * before the body goes to the sink (only with a sink).
   */
  trace?: (lines: string) => Promise<void>;
  /** How the -v lines name the connection: the Unix socket as the caller typed it, HTTP/2 offered (trace.ts). */
  traceConnection?: { socketPath?: string; http2?: boolean };
  /** Append the request to this sheet file first (history.ts; `secrets`: keep credentials; `as`: the request as recorded). */
  history?: { file: string; secrets: boolean; as?: Request };
  /** Send with the real curl instead, with these options (the jar is then curl's own `-b`/`-c`). */
  viaCurl?: CurlTransport;
  /** Said as soon as it happens, before the request goes: a history file or cookie file that could not be used. */
  warn?: (message: string) => Promise<void>;
}

/** What came of it: the exchange, and the warning when the cookie file could not be written. */
export interface ExchangeOutcome {
  exchange: Exchange;
  jarWarning: string | null;
}

/**
 * Send `request` (see the file comment).
 * @throws EngineError from `send` or curl (transport failures with curl's exit codes, docs/errors.md);
 *   `SinkError` when the sink failed (a closed pipe, a full disk).
 */
export async function exchange(request: Request, o: ExchangeOptions): Promise<ExchangeOutcome> {
  if (o.history) {
    const w = appendHistory(o.history.file, o.history.as ?? request, o.history.secrets);
    if (w) await o.warn?.(w);
  }
  let traced = false;
  const trace = async (head: SinkHead, sent: Request, wire: Parameters<typeof verboseLines>[2]) => {
    if (!o.trace || traced) return;
    traced = true;
    // The engine's sent request holds every header it wrote (its own, the Cookie); the
    // connection's own lines are undici's (trace.ts).
    await o.trace(verboseLines({ request: sent, response: { ...head, body: new Uint8Array(0) }, redirects: [], durationMs: 0 }, [], wire));
  };
  const sink = o.sink;
  if (o.viaCurl) {
    const ex = await sendWithCurl(request, o.viaCurl, async (r) => {
      const head: SinkHead = { url: request.url, httpVersion: r.httpVersion, status: r.status, statusText: r.statusText, headers: r.headers };
      await trace(head, request, undefined);
      return sink ? sink(head, request) : new Writable({ write: (_c, _e, cb) => cb() });
    });
    return { exchange: ex, jarWarning: null };
  }
  const jarWarning = o.jar ? await o.jar.beforeSend() : null;
  if (jarWarning) await o.warn?.(jarWarning);
  const stream = o.send.bodyStream;
  const ex = await send(request, {
    ...o.send,
    jar: o.sendCookies === false ? undefined : o.jar?.jar,
    ...(sink
      ? {
          sink: async (h: ResponseHead, sent: Request) => {
            const head: SinkHead = { ...h, httpVersion: h.httpVersion ?? '1.1' };
            await trace(head, sent, { bodyLength: stream ? (stream.length ?? 'chunked') : undefined, proxy: h.proxy, ...o.traceConnection });
            return sink(head, sent);
          },
        }
      : {}),
  });
  return { exchange: ex, jarWarning: o.jar ? await o.jar.afterSend() : null };
}
