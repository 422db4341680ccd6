/**
 * Beyond AngularJS: a runtime on native Promises and a fetch transport, so the core runs in
 * any browser or in Node (`fetch` from undici) without AngularJS.
 */
import { createConfiguration } from '../core/config.js';
import { createService } from '../core/client.js';
import { onAbort, signalStatus, timeoutReason } from '../core/abort.js';
import { ClientError, ClientHttpError, firstBytes } from '../core/errors.js';
import { isBinaryish } from '../core/request-model.js';
import { buildUrl } from '../core/url.js';
import type { ClientService, Deferred, HttpConfig, HttpResponse, Runtime } from '../core/types.js';

type FetchLike = (input: any, init?: any) => Promise<any>;

/** The HttpConfig names that are fetch's `RequestInit` names, passed to fetch as given (besides `credentials`, `cache`, `signal`). */
const FETCH_INIT_NAMES = ['mode', 'redirect', 'referrerPolicy', 'keepalive'] as const;

/** A deferred on a native Promise. */
export function nativeDefer<T = any>(): Deferred<T> {
  let resolve!: (v?: any) => void;
  let reject!: (e?: any) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject, notify() {} };
}

function applyTransforms(fns: any, data: any, headersGetter: any, status?: number): any {
  const list = typeof fns === 'function' ? [fns] : fns;
  for (const fn of list) data = fn(data, headersGetter, status);
  return data;
}

/**
 * A transport with `$http`'s contract on top of `fetch`: params serialized like `$http`,
 * JSON bodies and answers, `transformRequest`/`transformResponse`, `timeout` in ms or as a
 * promise, resolve on 2xx, reject with the response otherwise (status -1 when aborted).
 * fetch's own options in the config (`credentials`, `mode`, `cache` as a RequestCache name,
 * `redirect`, `referrerPolicy`, `keepalive`, `signal`) reach fetch; `withCredentials: true` is
 * `credentials: 'include'` unless `credentials` is given.
 * @example const http = fetchTransport(fetch); http({method: 'GET', url: 'http://127.0.0.1:8080/users'});
 */
export function fetchTransport(fetchImpl?: FetchLike): (config: HttpConfig) => Promise<HttpResponse> {
  return async function http(config: HttpConfig): Promise<HttpResponse> {
    const f: FetchLike | undefined = fetchImpl || (globalThis as any).fetch;
    const method = String(config.method || 'GET').toUpperCase();
    const url = buildUrl(config);
    if (method === 'JSONP') throw new ClientError('JSONP_UNSUPPORTED', `JSONP ${url}: the fetch transport has no JSONP; use AngularJS $http or CORS`, { method, url });
    if (!f) throw new ClientError('NETWORK_ERROR', `${method} ${url}: no fetch implementation`, { method, url });
    const headers: Record<string, string> = {};
    for (const k of Object.keys(config.headers || {})) {
      let v = (config.headers as any)[k];
      if (typeof v === 'function') v = v(config);
      if (v !== undefined && v !== null) headers[k] = String(v);
    }
    const hasHeader = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase());
    const headersGetter = (name?: string) => {
      if (!name) return headers;
      const k = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
      return k ? headers[k] : null;
    };
    let body = config.data;
    if (config.transformRequest) body = applyTransforms(config.transformRequest, body, headersGetter);
    else if (body !== undefined && body !== null && typeof body === 'object' && !isBinaryish(body)) {
      body = JSON.stringify(body);
      if (!hasHeader('Content-Type')) headers['Content-Type'] = 'application/json;charset=utf-8';
    }
    if (!hasHeader('Accept')) headers['Accept'] = 'application/json, text/plain, */*';
    if (body === undefined || body === null) {
      for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-type') delete headers[k];
    }
    const fail = (status: number, xhrStatus: string, cause: unknown): ClientHttpError => {
      const response: HttpResponse = { data: null, status, statusText: '', headers: () => null, config: Object.assign({}, config, { url }), xhrStatus };
      const detail = xhrStatus === 'error' ? networkFailure(cause) : xhrStatus === 'timeout' ? timedOut(cause, config.timeout) : undefined;
      return new ClientHttpError(response, detail !== undefined ? { detail, cause } : { cause });
    };
    const signal: AbortSignal | undefined = config.signal;
    if (signal && signal.aborted) throw fail(-1, signalStatus(signal), (signal as any).reason);
    const controller = typeof AbortController !== 'undefined' ? new AbortController() : undefined;
    let reason: 'abort' | 'timeout' | undefined;
    let timer: any;
    const ms = typeof config.timeout === 'number' && config.timeout > 0 ? config.timeout : 0;
    // The engine's fetch (node.ts) keeps the time itself, so its error says `timeout`.
    const engineTimes = ms > 0 && !!(f as any).handlesTimeout;
    if (ms && !engineTimes) {
      timer = setTimeout(() => {
        reason = 'timeout';
        controller?.abort(timeoutReason(ms));
      }, ms);
    } else if (config.timeout && typeof (config.timeout as any).then === 'function') {
      (config.timeout as PromiseLike<any>).then(() => {
        reason = reason || 'abort';
        controller?.abort();
      });
    }
    const stopListening = onAbort(signal, () => {
      reason = reason || signalStatus(signal!);
      controller?.abort((signal as any).reason);
    });
    const init: any = {
      method,
      headers,
      body: body === undefined || body === null ? undefined : body,
      signal: controller?.signal,
      credentials: config.credentials || (config.withCredentials ? 'include' : undefined),
    };
    // fetch's own names pass through (issue 38); `cache` only as fetch's RequestCache name ($http's `true` or cache object mean nothing here).
    for (const k of FETCH_INIT_NAMES) if (config[k] !== undefined) init[k] = config[k];
    if (typeof config.cache === 'string') init.cache = config.cache;
    if (engineTimes) init.timeoutMs = ms;
    let res: any;
    try {
      res = await f(url, init);
    } catch (e: any) {
      clearTimeout(timer);
      stopListening();
      // The engine's transport (node.ts) reports its own timeout and cancel by code.
      const engineReason = e && e.code === 'timeout' ? 'timeout' : e && e.code === 'cancelled' ? 'abort' : undefined;
      throw fail(-1, reason || engineReason || 'error', e);
    }
    let text = '';
    // XMLHttpRequest's responseType, as $http passes it on: the body as bytes, no JSON parsing.
    let raw: ArrayBuffer | Blob | undefined;
    try {
      if (method === 'HEAD') text = '';
      else if (config.responseType === 'arraybuffer') raw = await res.arrayBuffer();
      else if (config.responseType === 'blob') raw = await res.blob();
      else text = await res.text();
    } catch (e) {
      clearTimeout(timer);
      stopListening();
      throw fail(-1, reason || 'error', e);
    }
    clearTimeout(timer);
    stopListening();
    const resHeaders = (name?: string) => {
      if (name) return res.headers.get(name);
      const all: Record<string, string> = {};
      res.headers.forEach((v: string, k: string) => (all[k] = v));
      return all;
    };
    let data: any = raw !== undefined ? raw : text;
    const ok = res.status >= 200 && res.status < 300;
    if (config.transformResponse) data = applyTransforms(config.transformResponse, data, resHeaders, res.status);
    else if (raw === undefined && text) {
      const type = res.headers.get('Content-Type') || '';
      const trimmed = text.trim();
      const declared = /json/i.test(type);
      if (declared || /^[[{]/.test(trimmed)) {
        try {
          data = JSON.parse(trimmed);
        } catch (e) {
          // As $http (1.6+): a 2xx answer declared JSON that does not parse is an error, not a
          // string the caller would take for data. Undeclared or non-2xx answers keep the text.
          if (declared && ok) {
            const response: HttpResponse = { data: text, status: res.status, statusText: res.statusText || '', headers: resHeaders, config, xhrStatus: 'complete' };
            throw new ClientHttpError(response, { code: 'BAD_RESPONSE', detail: `the answer is declared ${type} but does not parse: ${firstBytes(text)}`, cause: e });
          }
          data = text;
        }
      }
    }
    const response: HttpResponse = { data, status: res.status, statusText: res.statusText || '', headers: resHeaders, config, xhrStatus: 'complete' };
    if (ok) return response;
    throw response;
  };
}

const inBrowser = (): boolean => typeof window !== 'undefined' && typeof document !== 'undefined';

/**
 * What a failed fetch means, in words. In Node (undici) the reason is in `cause.code`; a
 * browser says nothing (a CORS refusal and a refused connection look the same), hence the hint.
 */
export function networkFailure(error: any): string {
  const inner = error && error.cause;
  const code = (inner && inner.code) || (error && error.code) || '';
  const names: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found (DNS lookup failed)',
    ECONNRESET: 'connection reset by the server',
    ETIMEDOUT: 'connection timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ERR_INVALID_URL: 'invalid URL',
    UND_ERR_SOCKET: 'the server closed the connection',
    // EngineError codes of the Node transport (engine/src/http/send.ts, docs/errors.md).
    'connection-refused': 'connection refused',
    'unknown-host': 'host not found',
    'invalid-url': 'invalid URL',
    'tls-error': 'TLS error',
    'too-many-redirects': 'too many redirects',
    'network-error': 'network error',
  };
  if (error && error.name === 'EngineError' && names[error.code]) return withDetail(names[error.code], error.message);
  if (names[code]) return withDetail(names[code], inner && inner.message);
  if (/invalid url|failed to parse url/i.test(String((error && error.message) || '') + ' ' + String((inner && inner.message) || ''))) return 'invalid URL';
  if (inBrowser()) return 'no response: network error, or cross-origin headers missing';
  const msg = (inner && inner.message) || (error && error.message) || 'unknown error';
  return 'no response: ' + msg;
}

/** The engine names the URL first (`http://h/x: connection refused`); ours names it already. */
const withoutUrl = (message: string): string => message.replace(/^[a-z][a-z\d+.-]*:\/\/\S*: /i, '');

/** `name`, then what the lower layer said when it says more than the name. */
function withDetail(name: string, message: unknown): string {
  const rest = withoutUrl(String(message || '')).trim();
  return !rest || rest.toLowerCase() === name.toLowerCase() ? name : `${name} (${rest})`;
}

/** A timeout in words: the engine's own message, or the `timeout` in ms of the HTTP config. */
function timedOut(cause: any, timeout: unknown): string {
  if (cause && cause.name === 'EngineError' && cause.code === 'timeout') return withDetail('timed out', cause.message);
  return typeof timeout === 'number' && timeout > 0 ? `timed out after ${timeout} ms` : 'timed out';
}

export interface CreateClientOptions {
  /** The fetch to use. @default globalThis.fetch (Node 18+ and browsers have one) */
  fetch?: FetchLike;
  /**
   * Shortcut for `setBaseUrl`. Outside a browser it is required and must be absolute
   * (`http://...`), else `createClient` throws `INVALID_BASE_URL` at once; in a page a relative
   * one is resolved against the page. @default '' (the page's origin)
   * @example createClient({ baseUrl: 'http://127.0.0.1:8080/api' })
   */
  baseUrl?: string;
}

/**
 * Outside a page a base URL must be absolute (`scheme://host...`): there is nothing to resolve
 * `/api` or `localhost:8080` (which `new URL` would take for the scheme `localhost:`) against.
 * @throws ClientError `INVALID_BASE_URL`
 */
function checkBaseUrl(baseUrl: string | undefined): void {
  if (baseUrl && /^[a-z][a-z\d+.-]*:\/\//i.test(baseUrl)) return;
  const given = baseUrl ? `baseUrl '${baseUrl}' has no scheme` : 'no baseUrl was given';
  const rest = baseUrl ? baseUrl.replace(/^\/+/, '') : '';
  const example = /^[^/]*:\d/.test(rest) || /^[\w.-]+\.[a-z]{2,}(\/|$)/i.test(rest) || /^localhost\b/.test(rest) ? `http://${rest}` : `http://127.0.0.1:8080/${rest}`;
  throw new ClientError('INVALID_BASE_URL', `createClient(): ${given} and there is no page origin to resolve it against; give an absolute URL such as '${example}'`);
}

/**
 * A `Client` service without AngularJS: native Promises, fetch transport. Same surface as the
 * AngularJS service (setters included); `client.http` is the transport, for replays from an
 * error interceptor.
 * @example
 * const client = createClient({ fetch, baseUrl: 'http://127.0.0.1:8080' });
 * const users = await client.all('users').getList();
 */
export function createClient(options: CreateClientOptions = {}): ClientService & { http: (config: HttpConfig) => Promise<HttpResponse> } {
  const origin = (globalThis as any).location && (globalThis as any).location.origin;
  if (!(origin && origin !== 'null')) checkBaseUrl(options.baseUrl);
  const http = fetchTransport(options.fetch);
  const runtime: Runtime = { http, defer: nativeDefer };
  const service: any = createService(createConfiguration(), runtime);
  if (options.baseUrl) service.setBaseUrl(options.baseUrl);
  service.http = http;
  return service;
}
