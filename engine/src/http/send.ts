/**
 * Sending a {@link Request} with undici: keep-alive connections, redirects followed and
 * reported, cookies from a tough-cookie jar, a timeout and cancellation.
 *
 * Behaviour follows RFC 9110 (redirects: 301/302/303 turn a non-GET/HEAD request into a GET
 * without body, as curl -L and browsers do; 307/308 keep method and body) and curl's manual for
 * what `-L`, `-k`, `--max-time` and `--max-redirs` mean.
 *
 * This file holds the loop (cookies, timeout, cancel, one hop after another) and the connection
 * pool; one exchange and its response body (sink, or collected with a cap) are `dispatch.ts`,
 * request bodies `request-body.ts`, the redirect rules `redirects.ts`, the transport failures
 * and their curl exit codes `transport-error.ts`. Their public names are re-exported here.
 */
import type { Writable } from 'node:stream';
import type { CookieJar } from 'tough-cookie';
import { EngineError } from '../errors.js';
import { jarIsEmpty } from './cookies.js';
import { cookieString, cookieUrl } from '../curl/cookie-file.js';
import { headerValue, type Exchange, type Redirect, type Request, type Response } from '../model.js';
import { dispatchOnce, SinkError, type BodyPlan, type RawResponse, type ResponseHead } from './dispatch.js';
import type { BodyStream } from './request-body.js';
import { isRedirect, MAX_REDIRECTS, redirectRequest } from './redirects.js';
import { transportError } from './transport-error.js';
import { Authenticator, type AuthHop, type AuthOptions } from './auth.js';
import { chooseProxy, type ProxyOptions } from './proxy.js';
import { dispatcherFor, effectiveConnectTimeout, loadUndici, tlsAlertFor, versionFor } from './dispatchers.js';
import { chooseTrust, type TrustOptions } from './trust.js';
import { chooseClientCert, type ClientCertOptions } from './client-cert.js';

export { BodyError, SinkError, type BodyPlan, type ResponseHead } from './dispatch.js';
export type { BodyStream } from './request-body.js';
export { MAX_REDIRECTS } from './redirects.js';
export { CURL_EXIT, transportError } from './transport-error.js';
export { closeConnections, CONNECT_TIMEOUT_MS } from './dispatchers.js';
export { fetchWith, type FetchConnection, type FetchLike } from './fetch.js';
export { chooseProxy, PROXY_VARIABLES, type ProxyOptions } from './proxy.js';
export { CA_VARIABLES, chooseTrust, type TrustOptions } from './trust.js';
export { chooseClientCert, pickClientCert, splitCertArg, type ClientCertOptions, type ClientCertSpec } from './client-cert.js';
export { authShorthand, type AuthOptions, type AuthShorthand } from './auth.js';
export type { NetrcOptions } from './netrc.js';

export interface SendOptions {
  /** Cookie jar: Set-Cookie responses are stored; cookies are sent unless the request has a Cookie header. */
  jar?: CookieJar;
  /**
   * curl's `-b NAME=VALUE[; ...]` cookies: sent on every hop after the jar's, in the same
   * Cookie header, as curl does with `-b FILE -b NAME=VALUE` (curl's manual, -b); not sent
   * when the request has its own Cookie header.
   */
  cookies?: string;
  /** Aborts the exchange; the promise then rejects with code `cancelled`. */
  signal?: AbortSignal;
  /** Limit for the whole exchange including redirects, in ms; 0 or undefined: none. */
  timeoutMs?: number;
  /**
   * Limit on each connection's TCP connect and TLS handshake, in ms (curl's
   * --connect-timeout); 0 or undefined: {@link CONNECT_TIMEOUT_MS}. A shorter `timeoutMs` wins.
   */
  connectTimeoutMs?: number;
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
   * `sent` is the request as sent on the final hop (its URL, the Cookie header added).
   */
  sink?: (head: ResponseHead, sent: Request) => Writable | Promise<Writable>;
  /** Largest body collected in memory (no `sink`), in bytes after decoding; default {@link MAX_BUFFERED_BODY}. */
  maxBodyBytes?: number;
  /**
   * A request body read as a stream (a file, standard input) instead of `request.body`:
   * `open` is called for each send (again after a 307/308 only when `reopen` is true);
   * `length` in bytes gives a Content-Length, else the body is sent chunked (RFC 9112 7.1).
   */
  bodyStream?: BodyStream;
  /**
   * The proxy, by curl's rules (proxy.ts): an explicit proxy and no-proxy list, and the
   * environment to read `http_proxy`, `https_proxy`, `ALL_PROXY`, `NO_PROXY` from (default:
   * this process's). Chosen again for each redirect, as curl does.
   */
  proxy?: ProxyOptions;
  /**
   * Certificate authorities by curl's rules (trust.ts): `caFile` (curl's --cacert), else
   * `CURL_CA_BUNDLE`, else `SSL_CERT_FILE` of `env`, plus `NODE_EXTRA_CA_CERTS`; relative names
   * from `cwd`. Default: this process's environment and directory.
   */
  trust?: TrustOptions;
  /**
   * Authentication beyond the request's headers (auth.ts): curl's `-n`/`--netrc-file`,
   * `--digest` and `--aws-sigv4` with `-u`. The `Authorization: Digest USER PASSWORD` and
   * `Authorization: AWS KEY SECRET ...` shorthands of a request are read whatever this says.
   */
  auth?: AuthOptions;
  /**
   * The client certificate for mutual TLS by curl's rules (client-cert.ts): `cert` (curl's
   * --cert FILE[:PASS]), `key`, `pass` for every host, else `byHost`; relative names from `cwd`.
   * Checked before anything is sent (`bad-client-cert`).
   */
  clientCert?: ClientCertOptions;
  /** Offer HTTP/2 by ALPN to https:// servers (curl's --http2); the answer says which version spoke. */
  http2?: boolean;
  /** Connect through this Unix socket instead of the URL's host (curl's --unix-socket); no proxy then. */
  unixSocket?: string;
}

/** Default cap of a body collected in memory (bytes): 512 MiB. */
export const MAX_BUFFERED_BODY = 512 * 1024 * 1024;

/** The error of a body past the most collected in memory (`max` bytes). */
export function bodyTooLarge(url: string, max: number): EngineError {
  return new EngineError('network-error', `${url}: the response body is larger than ${max} bytes, the most kept in memory`, {
    hint: 'Fetch it with the shell verbs or curl -o FILE, which stream it to a file.',
    details: { url, maxBodyBytes: max },
  });
}

/** `p`, or a rejection as soon as `signal` aborts (undici ignores an abort while connecting). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(new Error('aborted'));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      p.catch(() => undefined);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Send `request` and read the whole response.
 *
 * @returns the exchange: the request as last sent (final URL without credentials, Cookie header
 *   added from the jar, Authorization from the URL's credentials), the response (status line,
 *   headers with their case, body bytes), the redirects followed, and the duration in ms.
 * @throws EngineError with code `invalid-url`, `connection-refused`, `unknown-host`, `tls-error`,
 *   `timeout`, `cancelled`, `too-many-redirects` or `network-error`; the message names the URL
 *   (and the proxy, when the proxy failed); `bad-proxy`, `bad-ca-file` or `bad-client-cert` before anything is sent.
 */
export async function send(request: Request, opts: SendOptions = {}): Promise<Exchange> {
  const started = performance.now();
  const follow = opts.followRedirects ?? true;
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;
  const decode = opts.decode ?? true;

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

  // http://user:password@host as Basic, shorthands, netrc, --digest, --aws-sigv4 (auth.ts);
  // a malformed shorthand or an unreadable netrc file throws here, before anything is sent.
  let auth: Authenticator;
  try {
    auth = new Authenticator(request, opts.auth);
  } catch (e) {
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
    throw e;
  }
  let current: Request = { ...auth.request, headers: [...auth.request.headers] };
  const firstUrl = current.url;
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
      // The proxy is chosen before anything is sent: a malformed one is `bad-proxy`, nothing sent.
      const proxy = opts.unixSocket ? undefined : chooseProxy(url, opts.proxy);
      const https = url.protocol === 'https:';
      const trust = https && !opts.insecure ? chooseTrust(opts.trust) : undefined;
      const identity = https ? chooseClientCert(url, opts.clientCert) : undefined;
      await loadUndici();
      const dispatcher = dispatcherFor(url, { proxy, insecure: !!opts.insecure, trust, timeoutMs: opts.timeoutMs, connectTimeoutMs: opts.connectTimeoutMs, identity, http2: opts.http2, socketPath: opts.unixSocket });
      const hop: AuthHop = auth.hop(current, url);
      const sent: Request = { ...hop.request, headers: [...hop.request.headers] };
      // Cookies are matched by the Host header's name when one is given (curl's rule).
      const jarUrl = cookieUrl(url, headerValue(sent.headers, 'host'));
      if (headerValue(sent.headers, 'cookie') === undefined) {
        // In curl's order, which is not RFC 6265's (curl/cookie-file.ts).
        const fromJar = opts.jar && !jarIsEmpty(opts.jar) ? cookieString(await opts.jar.getCookies(jarUrl)) : '';
        const cookie = [fromJar, opts.cookies ?? ''].filter((c) => c !== '').join('; ');
        if (cookie) sent.headers.push(['Cookie', cookie]);
      }
      const stream = opts.bodyStream && sent.body !== undefined ? opts.bodyStream : undefined;
      // The jar takes a response's cookies when its head arrives, as curl does: a streamed body
      // ended by the timeout or a cancel (session/stream.ts) keeps the Set-Cookie that came.
      let stored = false;
      const storeCookies = async (headers: RawResponse['headers']): Promise<void> => {
        if (stored || !opts.jar) return;
        stored = true;
        for (const [n, v] of headers) if (n.toLowerCase() === 'set-cookie') await opts.jar.setCookie(v, jarUrl, { ignoreError: true });
      };
      const plan = async (head: ResponseHead): Promise<BodyPlan> => {
        await storeCookies(head.headers);
        if (auth.willRetry(hop, head.status, head.headers)) return { kind: 'discard' };
        if (follow && isRedirect(head.status, head.headers)) return { kind: 'discard' };
        const known = { ...head, httpVersion: head.httpVersion ?? versionFor(dispatcher, url), ...(proxy ? { proxy: { origin: proxy.origin, source: proxy.source } } : {}) };
        if (opts.sink) return { kind: 'sink', target: await opts.sink(known, sent) };
        return { kind: 'collect', max: opts.maxBodyBytes ?? MAX_BUFFERED_BODY };
      };
      let raw: RawResponse;
      try {
        raw = await untilAborted(dispatchOnce(dispatcher, sent, ctrl.signal, stream, plan, decode), ctrl.signal);
      } catch (e) {
        if (e instanceof SinkError && opts.sink) throw e;
        if (e instanceof SinkError) {
          // Only the in-memory collector fails on its own: the cap.
          throw bodyTooLarge(sent.url, opts.maxBodyBytes ?? MAX_BUFFERED_BODY);
        }
        throw transportError(tlsAlertFor(dispatcher, url) ?? e, sent.url, { timedOut, cancelled: ctrl.signal.aborted && !timedOut, timeoutMs: opts.timeoutMs, connectTimeoutMs: effectiveConnectTimeout(opts.timeoutMs, opts.connectTimeoutMs), proxy, caSources: trust?.sources, clientCert: identity?.source, socketPath: opts.unixSocket });
      }
      await storeCookies(raw.headers);
      // A Digest challenge answered, or a probe sent again with its body (auth.ts).
      if (auth.again(hop, raw.status, raw.headers)) continue;
      const location = headerValue(raw.headers, 'location');
      if (follow && isRedirect(raw.status, raw.headers) && location !== undefined) {
        current = redirectRequest({ current, url, status: raw.status, location, stream }, firstUrl, redirects, maxRedirects);
        continue;
      }
      const response: Response = { httpVersion: raw.httpVersion ?? versionFor(dispatcher, url), status: raw.status, statusText: raw.statusText, headers: raw.headers, body: raw.body };
      return { request: sent, response, redirects, durationMs: performance.now() - started, ...(proxy ? { proxy: { origin: proxy.origin, source: proxy.source } } : {}) };
    }
  } finally {
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
}
