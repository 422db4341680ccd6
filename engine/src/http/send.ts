/**
 * Sending a {@link Request} with undici: keep-alive connections, redirects followed and
 * reported, cookies from a tough-cookie jar, a timeout and cancellation.
 *
 * Behaviour follows RFC 9110 (redirects: 301/302/303 turn a non-GET/HEAD request into a GET
 * without body, as curl -L and browsers do; 307/308 keep method and body) and curl's manual for
 * what `-L`, `-k`, `--max-time` and `--max-redirs` mean.
 */
import { Agent, type Dispatcher } from 'undici';
import { pipeline, Writable, type Readable } from 'node:stream';
import { decoder, encodings } from './decode.js';
import { STATUS_CODES } from 'node:http';
import type { CookieJar } from 'tough-cookie';
import { EngineError } from '../errors.js';
import { jarIsEmpty } from './cookies.js';
import { bodyBytes, headerValue, type Exchange, type Header, type Redirect, type Request, type Response } from '../model.js';

export interface SendOptions {
  /** Cookie jar: Set-Cookie responses are stored; cookies are sent unless the request has a Cookie header. */
  jar?: CookieJar;
  /** Aborts the exchange; the promise then rejects with code `cancelled`. */
  signal?: AbortSignal;
  /** Limit for the whole exchange including redirects, in ms; 0 or undefined: none. */
  timeoutMs?: number;
  /** Follow 3xx responses with a Location (default true, as restclient.el does). */
  followRedirects?: boolean;
  /** At most this many redirects (default {@link MAX_REDIRECTS}), then `too-many-redirects`. */
  maxRedirects?: number;
  /** Skip TLS certificate verification (curl's -k). */
  insecure?: boolean;
  /**
   * Decode `Content-Encoding: gzip, deflate, br` bodies (default true; curl decodes only with
   * `--compressed`, so the shell passes that option's value). The headers are left as received.
   */
  decode?: boolean;
  /**
   * Stream the final response's body: called once with the response head, returns where the
   * (decoded) body goes, chunk by chunk with back-pressure, and is ended by send. The
   * exchange's `response.body` is then empty. Undefined: the body is collected in memory.
   */
  sink?: (head: ResponseHead) => Writable | Promise<Writable>;
  /** Largest body collected in memory (no `sink`), in bytes after decoding; default {@link MAX_BUFFERED_BODY}. */
  maxBodyBytes?: number;
  /**
   * A request body read as a stream (a file, standard input) instead of `request.body`:
   * `open` is called for each send (again after a 307/308 only when `reopen` is true);
   * `length` in bytes gives a Content-Length, else the body is sent chunked (RFC 9112 7.1).
   */
  bodyStream?: BodyStream;
}

/** A request body read as a stream: see {@link SendOptions.bodyStream}. */
export interface BodyStream {
  open: () => Readable;
  length?: number;
  reopen: boolean;
}

/** The final response before its body: what a {@link SendOptions.sink} decides on. */
export interface ResponseHead {
  url: string;
  status: number;
  statusText: string;
  headers: Header[];
}

/** curl's default redirect limit (curl's manual, --max-redirs): the one limit of every front end. */
export const MAX_REDIRECTS = 50;

/** Default cap of a body collected in memory (bytes): 512 MiB. */
export const MAX_BUFFERED_BODY = 512 * 1024 * 1024;

const agents = new Map<string, Agent>();
function agentFor(insecure: boolean): Agent {
  const key = insecure ? 'insecure' : 'default';
  let a = agents.get(key);
  if (!a) {
    a = new Agent({ keepAliveTimeout: 30_000, connect: { rejectUnauthorized: !insecure } });
    agents.set(key, a);
  }
  return a;
}

/** Close the pooled connections (for a clean exit). */
export async function closeConnections(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close().catch(() => undefined)));
}

/**
 * Bytes between the exchange and its consumer: `discard` (a redirect's body), `collect`
 * (capped), or a caller's sink; a decoder in front when asked. Resolves when the consumer
 * has every byte.
 */
export type BodyPlan = { kind: 'discard' } | { kind: 'collect'; max: number } | { kind: 'sink'; target: Writable };

interface RawResponse {
  status: number;
  statusText: string;
  headers: Header[];
  body: Uint8Array;
  /** Body bytes received from the server (before decoding). */
  received: number;
}

/**
 * A response header value as text: UTF-8 when the bytes are valid UTF-8 (what servers send in
 * practice), else Latin-1 (RFC 9110 section 5.5: field values are octets, historically ISO-8859-1).
 */
function headerText(b: Buffer): string {
  const s = b.toString('utf8');
  return !s.includes('\uFFFD') || Buffer.from(s, 'utf8').equals(b) ? s : b.toString('latin1');
}

/** An error of the body's consumer (stdout closed, disk full): not a transport failure. */
export class SinkError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'SinkError';
  }
}

/** A failure after the response head: the body was cut (curl exit 56 / 18). */
export class BodyError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly received: number,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'BodyError';
  }
}

/** One HTTP exchange without redirects, through undici's dispatcher API to keep header case and status text. */
function dispatchOnce(dispatcher: Dispatcher, req: Request, signal: AbortSignal, stream: BodyStream | undefined, plan: (head: ResponseHead) => Promise<BodyPlan>, decode: boolean): Promise<RawResponse> {
  const url = new URL(req.url);
  const body = stream ? undefined : bodyBytes(req.body);
  const headers: string[] = [];
  // Header values are sent as UTF-8 bytes; undici writes header strings as Latin-1, so
  // non-ASCII text is handed over as the Latin-1 string of its UTF-8 bytes.
  // eslint-disable-next-line no-control-regex
  for (const [n, v] of req.headers) headers.push(n, /[^\x00-\x7f]/.test(v) ? Buffer.from(v, 'utf8').toString('latin1') : v);
  if (stream && stream.length !== undefined && !req.headers.some(([n]) => /^content-length$/i.test(n))) headers.push('Content-Length', String(stream.length));
  return new Promise<RawResponse>((resolve, reject) => {
    let status = 0;
    let statusText = '';
    let resHeaders: Header[] = [];
    const chunks: Buffer[] = [];
    let collected = 0;
    let received = 0;
    let headSeen = false;
    let abortFn: ((err?: Error) => void) | undefined;
    let settled = false;
    let resumeFn: (() => void) | undefined;
    // Where bytes go once the plan is known; `entry` is the decoder or the target.
    let current: BodyPlan | undefined;
    let entry: Writable | undefined;
    let done: Promise<void> | undefined;
    let pre: Buffer[] | undefined; // first bytes held to pick the decoder
    let preLen = 0;
    const queue: Buffer[] = []; // bytes arriving before the plan resolved
    let completed = false;
    let encs: string[] = [];
    const onAbort = () => abortFn?.(new DOMException('aborted', 'AbortError'));
    if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err) {
        if (entry && !entry.destroyed) entry.destroy();
        if (current?.kind === 'sink' && !current.target.destroyed) current.target.destroy();
        reject(err instanceof SinkError || !headSeen ? err : new BodyError(err, received));
      } else resolve({ status, statusText, headers: resHeaders, body: Buffer.concat(chunks), received });
    };
    const sinkFailed = (e: unknown) => {
      const err = new SinkError(e);
      if (abortFn) abortFn(err);
      finish(err);
    };
    const collector = (max: number) =>
      new Writable({
        write(c: Buffer, _e, cb) {
          collected += c.length;
          if (collected > max) return cb(new Error(`the body is larger than ${max} bytes`));
          chunks.push(c);
          cb();
        },
      });
    const setup = (p: BodyPlan, first: Buffer) => {
      if (p.kind === 'discard') return;
      const target = p.kind === 'sink' ? p.target : collector(p.max);
      const dec = decode ? decoder(encs, first) : undefined;
      if (dec) {
        entry = dec;
        done = new Promise<void>((res, rej) => pipeline(dec, target, (e) => (e ? rej(e) : res())));
      } else {
        entry = target;
        done = new Promise<void>((res, rej) => {
          target.once('error', rej);
          target.once('finish', res);
          target.once('close', () => (target.writableFinished ? res() : rej(new Error('output closed'))));
        });
      }
      done.catch(sinkFailed);
    };
    // Write one chunk; false = paused until the consumer drains.
    const push = (c: Buffer): boolean => {
      if (!current) {
        queue.push(c);
        return false;
      }
      if (current.kind === 'discard') return true;
      if (!entry) {
        if (decode && encs.length && pre !== undefined) {
          pre.push(c);
          preLen += c.length;
          if (preLen < 2 && !completed) return true;
          const first = Buffer.concat(pre);
          pre = undefined;
          setup(current, first);
          c = first;
        } else setup(current, c);
      }
      if (!entry || entry.destroyed) return true;
      const ok = entry.write(c);
      if (!ok) entry.once('drain', () => resumeFn?.());
      return ok;
    };
    const end = () => {
      completed = true;
      if (current && current.kind !== 'discard') {
        if (!entry) setup(current, pre ? Buffer.concat(pre) : Buffer.alloc(0));
        if (pre && entry) entry.write(Buffer.concat(pre));
        pre = undefined;
        entry?.end();
        done!.then(() => finish(null), () => undefined);
      } else finish(null);
    };
    dispatcher.dispatch(
      {
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method,
        headers,
        body: stream ? stream.open() : body && body.length ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : body ? Buffer.alloc(0) : null,
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      {
        onConnect(abort) {
          abortFn = abort;
          if (signal.aborted) onAbort();
        },
        onHeaders(statusCode, raw, resume, text) {
          status = statusCode;
          statusText = text || STATUS_CODES[statusCode] || '';
          resumeFn = resume;
          const hs: Header[] = [];
          for (let i = 0; i + 1 < raw.length; i += 2) hs.push([raw[i]!.toString('latin1'), headerText(raw[i + 1]!)]);
          resHeaders = hs;
          if (statusCode < 200) return true; // 1xx: the final response follows
          headSeen = true;
          encs = encodings(headerValue(hs, 'content-encoding'));
          if (decode && encs.length) pre = [];
          plan({ url: req.url, status, statusText, headers: hs }).then(
            (p) => {
              current = p;
              const q = queue.splice(0);
              let ok = true;
              for (const c of q) ok = push(c) && ok;
              if (completed) end();
              else if (ok) resume();
            },
            (e) => sinkFailed(e),
          );
          return false;
        },
        onData(chunk) {
          received += chunk.length;
          return push(chunk);
        },
        onComplete() {
          if (!current) {
            completed = true;
            return;
          }
          end();
        },
        onError(err) {
          finish(err);
        },
      },
    );
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** curl's exit codes (curl's manual, "EXIT CODES") for the transport failures, by engine error code. */
export const CURL_EXIT = { unknownHost: 6, refused: 7, timeout: 28, tls: 35, tlsCert: 60, redirects: 47, emptyReply: 52, recv: 56 } as const;

/**
 * Map a transport failure to an engine error that names the URL. `details.curlExit` is the
 * exit status curl gives for the same failure (the shell returns it, as resty does).
 */
export function transportError(e: unknown, url: string, why: { timedOut: boolean; cancelled: boolean; timeoutMs?: number }): EngineError {
  if (why.timedOut) {
    return new EngineError('timeout', `${url}: no complete response within ${why.timeoutMs} ms`, {
      hint: 'Raise the timeout, or check that the server answers.',
      details: { url, curlExit: CURL_EXIT.timeout },
    });
  }
  if (why.cancelled) return new EngineError('cancelled', `${url}: request cancelled`, { details: { url } });
  if (e instanceof BodyError) {
    const inner = e.cause as { code?: string; message?: string } | undefined;
    return new EngineError('network-error', `${url}: the connection broke after ${e.received} bytes of the body (${inner?.code ?? inner?.message ?? 'reset'}); the output is incomplete`, {
      hint: 'The server closed the connection mid-body; try again, or check the server.',
      details: { url, partial: true, received: e.received, curlExit: CURL_EXIT.recv },
    });
  }
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err?.code ?? err?.cause?.code ?? '';
  const msg = err?.message ?? String(e);
  if (code === 'ECONNREFUSED') {
    return new EngineError('connection-refused', `${url}: connection refused`, { hint: 'Is the server running, and on that port?', details: { url, curlExit: CURL_EXIT.refused } });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new EngineError('unknown-host', `${url}: unknown host ${new URL(url).hostname}`, { hint: 'Check the host name in the URL.', details: { url, curlExit: CURL_EXIT.unknownHost } });
  }
  if (code === 'ERR_ASSERTION' && /upgrade/.test(msg)) {
    // undici asserts when a 101 answers a request that asked for no upgrade (RFC 9110 15.2.2).
    return new EngineError('network-error', `${url}: the server switched protocols (101) though no upgrade was asked for`, {
      hint: 'The server answered with no final response; check the server (curl -v shows the exchange).',
      details: { url, status: 101, curlExit: CURL_EXIT.recv },
    });
  }
  if (/CERT|SSL|TLS|self.signed|certificate/i.test(code + ' ' + msg)) {
    const cert = /CERT|self.signed|certificate|UNABLE_TO_VERIFY/i.test(code + ' ' + msg);
    return new EngineError('tls-error', `${url}: TLS error: ${msg}`, { hint: 'Check the certificate, or skip verification (curl -k).', details: { url, curlExit: cert ? CURL_EXIT.tlsCert : CURL_EXIT.tls } });
  }
  // A connection closed before any response: curl's "Empty reply from server".
  const empty = code === 'UND_ERR_SOCKET' || /other side closed/i.test(msg);
  return new EngineError('network-error', `${url}: ${empty ? 'the server closed the connection without a response' : msg}${code ? ` (${code})` : ''}`, {
    details: { url, errno: code, curlExit: empty ? CURL_EXIT.emptyReply : CURL_EXIT.recv },
  });
}

/**
 * Send `request` and read the whole response.
 *
 * @returns the exchange: the request as last sent (final URL, Cookie header added from the
 *   jar), the response (status line, headers with their case, body bytes), the redirects
 *   followed, and the duration in ms.
 * @throws EngineError with code `invalid-url`, `connection-refused`, `unknown-host`, `tls-error`,
 *   `timeout`, `cancelled`, `too-many-redirects` or `network-error`; the message names the URL.
 */
export async function send(request: Request, opts: SendOptions = {}): Promise<Exchange> {
  const started = performance.now();
  const follow = opts.followRedirects ?? true;
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;
  const decode = opts.decode ?? true;
  const dispatcher = agentFor(!!opts.insecure);

  const ctrl = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  if (opts.timeoutMs && opts.timeoutMs > 0) {
    timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, opts.timeoutMs);
  }
  const onOuterAbort = () => ctrl.abort();
  if (opts.signal) {
    if (opts.signal.aborted) ctrl.abort();
    else opts.signal.addEventListener('abort', onOuterAbort, { once: true });
  }

  let current: Request = { ...request, headers: [...request.headers] };
  const redirects: Redirect[] = [];
  try {
    for (;;) {
      let url: URL;
      try {
        url = new URL(current.url);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
      } catch {
        throw new EngineError('invalid-url', `invalid URL ${JSON.stringify(current.url)}`, {
          line: current.line,
          hint: 'Write an absolute http:// or https:// URL.',
          details: { url: current.url },
        });
      }
      const sent: Request = { ...current, headers: [...current.headers] };
      const explicitCookie = headerValue(sent.headers, 'cookie') !== undefined;
      if (opts.jar && !explicitCookie && !jarIsEmpty(opts.jar)) {
        const cookie = await opts.jar.getCookieString(url.href);
        if (cookie) sent.headers.push(['Cookie', cookie]);
      }
      const stream = opts.bodyStream && current.body !== undefined ? opts.bodyStream : undefined;
      const plan = async (head: ResponseHead): Promise<BodyPlan> => {
        if (follow && REDIRECTS.has(head.status) && headerValue(head.headers, 'location') !== undefined) return { kind: 'discard' };
        if (opts.sink) return { kind: 'sink', target: await opts.sink(head) };
        return { kind: 'collect', max: opts.maxBodyBytes ?? MAX_BUFFERED_BODY };
      };
      let raw: RawResponse;
      try {
        raw = await dispatchOnce(dispatcher, sent, ctrl.signal, stream, plan, decode);
      } catch (e) {
        if (e instanceof SinkError && opts.sink) throw e;
        if (e instanceof SinkError) {
          // Only the in-memory collector fails on its own: the cap.
          const max = opts.maxBodyBytes ?? MAX_BUFFERED_BODY;
          throw new EngineError('network-error', `${sent.url}: the response body is larger than ${max} bytes, the most kept in memory`, {
            hint: 'Fetch it with the shell verbs or curl -o FILE, which stream it to a file.',
            details: { url: sent.url, maxBodyBytes: max },
          });
        }
        throw transportError(e, sent.url, { timedOut, cancelled: ctrl.signal.aborted && !timedOut, timeoutMs: opts.timeoutMs });
      }
      if (opts.jar) {
        for (const [n, v] of raw.headers) {
          if (n.toLowerCase() === 'set-cookie') await opts.jar.setCookie(v, url.href, { ignoreError: true });
        }
      }
      const location = headerValue(raw.headers, 'location');
      if (follow && REDIRECTS.has(raw.status) && location !== undefined) {
        if (redirects.length >= maxRedirects) {
          throw new EngineError('too-many-redirects', `${request.url}: more than ${maxRedirects} redirects`, {
            hint: 'The server redirects in a loop, or raise the redirect limit.',
            details: { url: request.url, curlExit: CURL_EXIT.redirects },
          });
        }
        const next = new URL(location, url).href;
        redirects.push({ status: raw.status, url: url.href, location: next });
        const toGet = (raw.status === 303 && current.method !== 'HEAD') || ((raw.status === 301 || raw.status === 302) && current.method === 'POST');
        if (!toGet && stream && !stream.reopen) {
          throw new EngineError('network-error', `${url.href}: the server redirects (${raw.status}) and asks for the body again, but it was read from a pipe`, {
            hint: 'Send the body from a file (--data-binary @file, -T file, or < file), or send it to the final URL.',
            details: { url: url.href, curlExit: 65 },
          });
        }
        let headers = current.headers;
        if (toGet) headers = headers.filter(([n]) => !/^(content-type|content-length|transfer-encoding)$/i.test(n));
        if (new URL(next).origin !== url.origin) headers = headers.filter(([n]) => !/^(authorization|cookie)$/i.test(n));
        current = { ...current, url: next, method: toGet ? 'GET' : current.method, body: toGet ? undefined : current.body, headers };
        continue;
      }
      const response: Response = { httpVersion: '1.1', status: raw.status, statusText: raw.statusText, headers: raw.headers, body: raw.body };
      return { request: sent, response, redirects, durationMs: performance.now() - started };
    }
  } finally {
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
}
