/**
 * An HTTP config of the core (`$http`'s shape) as the engine's request model
 * (engine/src/model.ts `Request`), with the headers and body `$http` and the fetch transport
 * send by default. Used by `toCurl()` (engine/src/curl/to-curl.ts) and `Client.record()`
 * (engine/src/sheet/write.ts). Browser-safe.
 */
import type { Header, Request } from '../../../engine/src/model.js';
import { buildUrl } from './url.js';
import type { HttpConfig } from './types.js';

/** `$http`'s default Accept header (AngularJS `$httpProvider.defaults.headers.common`). */
export const DEFAULT_ACCEPT = 'application/json, text/plain, */*';
/** The Content-Type `$http` gives an object body. */
export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';

/** FormData, Blob, URLSearchParams, ArrayBuffer or a typed array: sent as is, never as JSON. */
export const isBinaryish = (d: any): boolean =>
  (typeof FormData !== 'undefined' && d instanceof FormData) ||
  (typeof Blob !== 'undefined' && d instanceof Blob) ||
  (typeof URLSearchParams !== 'undefined' && d instanceof URLSearchParams) ||
  d instanceof ArrayBuffer ||
  ArrayBuffer.isView(d);

/** The page's URL to resolve a relative request URL against, when there is a page. */
function pageUrl(): string | undefined {
  const loc = (globalThis as any).location;
  return loc && loc.href && loc.origin && loc.origin !== 'null' ? loc.href : undefined;
}

/**
 * The engine request for `config`: method in upper case (JSONP as GET), the URL with `$http`'s
 * params, absolute (resolved against the page in a browser), header functions called, the
 * `Accept` and JSON `Content-Type` `$http` adds, an object body as JSON. `transformRequest`
 * runs when given. A FormData or Blob body cannot be shown and is left out.
 * @throws TypeError when the URL is relative and there is no page to resolve it against;
 *   ClientError `INVALID_PARAM_SERIALIZER` for a `paramSerializer` only AngularJS can resolve.
 */
export function toEngineRequest(config: HttpConfig): Request {
  let method = String(config.method || 'GET').toUpperCase();
  if (method === 'JSONP') method = 'GET';
  const relative = buildUrl(config);
  const url = new URL(relative, pageUrl()).href;
  const headers: Header[] = [];
  for (const k of Object.keys(config.headers || {})) {
    let v = (config.headers as any)[k];
    if (typeof v === 'function') v = v(config);
    if (v !== undefined && v !== null) headers.push([k, String(v)]);
  }
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name.toLowerCase());
  let data: any = config.data;
  if (config.transformRequest) {
    const list = typeof config.transformRequest === 'function' ? [config.transformRequest] : (config.transformRequest as any[]);
    const getter = (name?: string) => (name ? (headers.find(([n]) => n.toLowerCase() === name.toLowerCase()) || [])[1] ?? null : Object.fromEntries(headers));
    for (const fn of list) data = fn(data, getter);
  } else if (data !== undefined && data !== null && typeof data === 'object' && !isBinaryish(data)) {
    data = JSON.stringify(data);
    if (!has('Content-Type')) headers.push(['Content-Type', JSON_CONTENT_TYPE]);
  }
  if (!has('Accept')) headers.push(['Accept', DEFAULT_ACCEPT]);
  const req: Request = { method, url, headers };
  if (typeof data === 'string') req.body = { kind: 'text', text: data };
  else if (data instanceof ArrayBuffer) req.body = { kind: 'bytes', bytes: new Uint8Array(data) };
  else if (ArrayBuffer.isView(data)) req.body = { kind: 'bytes', bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  else if (data !== undefined && data !== null && !isBinaryish(data)) req.body = { kind: 'text', text: String(data) };
  if (!req.body) req.headers = headers.filter(([n]) => n.toLowerCase() !== 'content-type');
  return req;
}
