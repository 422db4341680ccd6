/**
 * Sending a {@link Request} with undici: keep-alive connections, redirects followed and
 * reported, cookies from a tough-cookie jar, a timeout and cancellation.
 *
 * Behaviour follows RFC 9110 (redirects: 301/302/303 turn a non-GET/HEAD request into a GET
 * without body, as curl -L and browsers do; 307/308 keep method and body) and curl's manual for
 * what `-L`, `-k`, `--max-time` and `--max-redirs` mean.
 */
import { Agent, type Dispatcher } from 'undici';
import { STATUS_CODES } from 'node:http';
import type { CookieJar } from 'tough-cookie';
import { EngineError } from '../errors.js';
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
  /** At most this many redirects (default 10), then `too-many-redirects`. */
  maxRedirects?: number;
  /** Skip TLS certificate verification (curl's -k). */
  insecure?: boolean;
}

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

interface RawResponse {
  status: number;
  statusText: string;
  headers: Header[];
  body: Uint8Array;
}

/**
 * A response header value as text: UTF-8 when the bytes are valid UTF-8 (what servers send in
 * practice), else Latin-1 (RFC 9110 section 5.5: field values are octets, historically ISO-8859-1).
 */
function headerText(b: Buffer): string {
  const s = b.toString('utf8');
  return !s.includes('\uFFFD') || Buffer.from(s, 'utf8').equals(b) ? s : b.toString('latin1');
}

/** One HTTP exchange without redirects, through undici's dispatcher API to keep header case and status text. */
function dispatchOnce(dispatcher: Dispatcher, req: Request, signal: AbortSignal): Promise<RawResponse> {
  const url = new URL(req.url);
  const body = bodyBytes(req.body);
  const headers: string[] = [];
  // Header values are sent as UTF-8 bytes; undici writes header strings as Latin-1, so
  // non-ASCII text is handed over as the Latin-1 string of its UTF-8 bytes.
  // eslint-disable-next-line no-control-regex
  for (const [n, v] of req.headers) headers.push(n, /[^\x00-\x7f]/.test(v) ? Buffer.from(v, 'utf8').toString('latin1') : v);
  return new Promise<RawResponse>((resolve, reject) => {
    let status = 0;
    let statusText = '';
    let resHeaders: Header[] = [];
    const chunks: Buffer[] = [];
    let abortFn: ((err?: Error) => void) | undefined;
    let settled = false;
    const onAbort = () => abortFn?.(new DOMException('aborted', 'AbortError'));
    if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve({ status, statusText, headers: resHeaders, body: Buffer.concat(chunks) });
    };
    dispatcher.dispatch(
      {
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method,
        headers,
        body: body && body.length ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : body ? Buffer.alloc(0) : null,
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      {
        onConnect(abort) {
          abortFn = abort;
          if (signal.aborted) onAbort();
        },
        onHeaders(statusCode, raw, _resume, text) {
          status = statusCode;
          statusText = text || STATUS_CODES[statusCode] || '';
          const hs: Header[] = [];
          for (let i = 0; i + 1 < raw.length; i += 2) hs.push([raw[i]!.toString('latin1'), headerText(raw[i + 1]!)]);
          resHeaders = hs;
          return true;
        },
        onData(chunk) {
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          finish(null);
        },
        onError(err) {
          finish(err);
        },
      },
    );
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Map a transport failure to an engine error that names the URL. */
export function transportError(e: unknown, url: string, why: { timedOut: boolean; cancelled: boolean; timeoutMs?: number }): EngineError {
  if (why.timedOut) {
    return new EngineError('timeout', `${url}: no complete response within ${why.timeoutMs} ms`, {
      hint: 'Raise the timeout, or check that the server answers.',
      details: { url },
    });
  }
  if (why.cancelled) return new EngineError('cancelled', `${url}: request cancelled`, { details: { url } });
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err?.code ?? err?.cause?.code ?? '';
  const msg = err?.message ?? String(e);
  if (code === 'ECONNREFUSED') {
    return new EngineError('connection-refused', `${url}: connection refused`, { hint: 'Is the server running, and on that port?', details: { url } });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new EngineError('unknown-host', `${url}: unknown host ${new URL(url).hostname}`, { hint: 'Check the host name in the URL.', details: { url } });
  }
  if (code === 'ERR_ASSERTION' && /upgrade/.test(msg)) {
    // undici asserts when a 101 answers a request that asked for no upgrade (RFC 9110 15.2.2).
    return new EngineError('network-error', `${url}: the server switched protocols (101) though no upgrade was asked for`, {
      hint: 'The server answered with no final response; check the server (curl -v shows the exchange).',
      details: { url, status: 101 },
    });
  }
  if (/CERT|SSL|TLS|self.signed|certificate/i.test(code + ' ' + msg)) {
    return new EngineError('tls-error', `${url}: TLS error: ${msg}`, { hint: 'Check the certificate, or skip verification (curl -k).', details: { url } });
  }
  return new EngineError('network-error', `${url}: ${msg}${code ? ` (${code})` : ''}`, { details: { url, errno: code } });
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
  const maxRedirects = opts.maxRedirects ?? 10;
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
      if (opts.jar && !explicitCookie) {
        const cookie = await opts.jar.getCookieString(url.href);
        if (cookie) sent.headers.push(['Cookie', cookie]);
      }
      let raw: RawResponse;
      try {
        raw = await dispatchOnce(dispatcher, sent, ctrl.signal);
      } catch (e) {
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
            details: { url: request.url },
          });
        }
        const next = new URL(location, url).href;
        redirects.push({ status: raw.status, url: url.href, location: next });
        const toGet = (raw.status === 303 && current.method !== 'HEAD') || ((raw.status === 301 || raw.status === 302) && current.method === 'POST');
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
