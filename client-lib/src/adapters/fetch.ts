/**
 * Beyond AngularJS: a runtime on native Promises and a fetch transport, so the core runs in
 * any browser or in Node (`fetch` from undici) without AngularJS.
 */
import { createConfiguration } from '../core/config.js';
import { createService } from '../core/client.js';
import { ClientError } from '../core/errors.js';
import { buildUrl } from '../core/url.js';
import type { ClientService, Deferred, HttpConfig, HttpResponse, Runtime } from '../core/types.js';

type FetchLike = (input: any, init?: any) => Promise<any>;

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

const isBinaryish = (d: any): boolean =>
  (typeof FormData !== 'undefined' && d instanceof FormData) ||
  (typeof Blob !== 'undefined' && d instanceof Blob) ||
  (typeof URLSearchParams !== 'undefined' && d instanceof URLSearchParams) ||
  d instanceof ArrayBuffer ||
  ArrayBuffer.isView(d);

function applyTransforms(fns: any, data: any, headersGetter: any, status?: number): any {
  const list = typeof fns === 'function' ? [fns] : fns;
  for (const fn of list) data = fn(data, headersGetter, status);
  return data;
}

/**
 * A transport with `$http`'s contract on top of `fetch`: params serialized like `$http`,
 * JSON bodies and answers, `transformRequest`/`transformResponse`, `timeout` in ms or as a
 * promise, resolve on 2xx, reject with the response otherwise (status -1 when aborted).
 * @example const http = fetchTransport(fetch); http({method: 'GET', url: 'http://127.0.0.1:8080/users'});
 */
export function fetchTransport(fetchImpl?: FetchLike): (config: HttpConfig) => Promise<HttpResponse> {
  return async function http(config: HttpConfig): Promise<HttpResponse> {
    const f: FetchLike | undefined = fetchImpl || (globalThis as any).fetch;
    const method = String(config.method || 'GET').toUpperCase();
    const url = buildUrl(String(config.url || ''), config.params);
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
    const controller = typeof AbortController !== 'undefined' ? new AbortController() : undefined;
    let reason: 'abort' | 'timeout' | undefined;
    let timer: any;
    if (typeof config.timeout === 'number' && config.timeout > 0) {
      timer = setTimeout(() => {
        reason = 'timeout';
        controller?.abort();
      }, config.timeout);
    } else if (config.timeout && typeof (config.timeout as any).then === 'function') {
      (config.timeout as PromiseLike<any>).then(() => {
        reason = 'abort';
        controller?.abort();
      });
    }
    const fail = (status: number, xhrStatus: string): HttpResponse => ({ data: null, status, statusText: '', headers: () => null, config, xhrStatus });
    let res: any;
    try {
      res = await f(url, {
        method,
        headers,
        body: body === undefined || body === null ? undefined : body,
        signal: controller?.signal,
        credentials: config.withCredentials ? 'include' : undefined,
      });
    } catch {
      clearTimeout(timer);
      throw fail(-1, reason || 'error');
    }
    let text: string;
    try {
      text = method === 'HEAD' ? '' : await res.text();
    } catch {
      clearTimeout(timer);
      throw fail(-1, reason || 'error');
    }
    clearTimeout(timer);
    const resHeaders = (name?: string) => {
      if (name) return res.headers.get(name);
      const all: Record<string, string> = {};
      res.headers.forEach((v: string, k: string) => (all[k] = v));
      return all;
    };
    let data: any = text;
    if (config.transformResponse) data = applyTransforms(config.transformResponse, text, resHeaders, res.status);
    else if (text) {
      const type = res.headers.get('Content-Type') || '';
      const trimmed = text.trim();
      if (/json/i.test(type) || /^[[{]/.test(trimmed)) {
        try {
          data = JSON.parse(trimmed);
        } catch {
          data = text;
        }
      }
    }
    const response: HttpResponse = { data, status: res.status, statusText: res.statusText || '', headers: resHeaders, config, xhrStatus: 'complete' };
    if (res.status >= 200 && res.status < 300) return response;
    throw response;
  };
}

export interface CreateClientOptions {
  /** The fetch to use (e.g. undici's in Node). @default globalThis.fetch */
  fetch?: FetchLike;
  /** Shortcut for `setBaseUrl`; must be absolute outside a browser. @default '' */
  baseUrl?: string;
}

/**
 * A `Client` service without AngularJS: native Promises, fetch transport. Same surface as the
 * AngularJS service (setters included); `client.http` is the transport, for replays from an
 * error interceptor.
 * @example
 * import { fetch } from 'undici';
 * const client = createClient({ fetch, baseUrl: 'http://127.0.0.1:8080' });
 * const users = await client.all('users').getList();
 */
export function createClient(options: CreateClientOptions = {}): ClientService & { http: (config: HttpConfig) => Promise<HttpResponse> } {
  const http = fetchTransport(options.fetch);
  const runtime: Runtime = { http, defer: nativeDefer };
  const service: any = createService(createConfiguration(), runtime);
  if (options.baseUrl) service.setBaseUrl(options.baseUrl);
  service.http = http;
  return service;
}
