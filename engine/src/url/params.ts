/**
 * Query parameters and path joining as AngularJS's `$http` and Restangular do them, so a URL the
 * client library builds is the URL `$http` would send (and its cache key). Browser-safe: the
 * client library (client-lib/) bundles this file into dist/client.js. Sources: AngularJS 1.8
 * `$httpParamSerializer` and `encodeUriQuery` (src/ng/http.js, src/Angular.js), Restangular 1.6
 * `Path.normalizeUrl`. (curl's -G, which drops a fragment, is `appendQuery` in ../curl/rules.ts.)
 */

// What makes Restangular's normalizeUrl change a URL: a `//`, a backslash, or a line terminator
// (its `(.*)` stops there and drops the rest).
const NEEDS_COLLAPSE = /\/\/|\\|[\n\r\u2028\u2029]/;

/** Collapse repeated slashes (and backslashes) to one `/`, keeping a leading `scheme://` or `//`. */
export function collapseSlashes(url: string): string {
  // Most URLs have nothing to collapse: one scan instead of a match and a replace per request.
  if (!NEEDS_COLLAPSE.test(url)) return url;
  const parts = /((?:http[s]?:)?\/\/)?(.*)?/.exec(url)!;
  const rest = (parts[2] || '').replace(/[\\/]+/g, '/');
  return parts[1] !== undefined ? parts[1] + rest : rest;
}

/** AngularJS's encodeUriQuery: encodeURIComponent keeping `@ : $ , ;`, spaces as `+` (or `%20`). */
export function encodeUriQuery(val: string, pctEncodeSpaces?: boolean): string {
  return encodeURIComponent(val)
    .replace(/%40/gi, '@')
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%3B/gi, ';')
    .replace(/%20/g, pctEncodeSpaces ? '%20' : '+');
}

function serializeValue(v: unknown): string {
  if (v !== null && typeof v === 'object') return v instanceof Date ? v.toISOString() : JSON.stringify(v);
  return String(v);
}

/**
 * `$httpParamSerializer`: keys sorted, an array repeats its key, objects as JSON, dates as ISO
 * 8601, null and undefined dropped. Returns the query without `?` ('' when nothing is left).
 */
export function serializeParams(params: Record<string, unknown> | null | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value === null || value === undefined) continue;
    const list = Array.isArray(value) ? value : [value];
    for (const v of list) parts.push(encodeUriQuery(key) + '=' + encodeUriQuery(serializeValue(v)));
  }
  return parts.join('&');
}

/**
 * `$httpParamSerializerJQLike` (AngularJS 1.8, jQuery's `$.param`): arrays as `a[]=1&a[]=2`
 * (`a[0][id]=1` for objects in them), objects as `a[b]=c`, keys sorted, dates as ISO 8601,
 * functions called, null and undefined as `a=` (kept, unlike `$httpParamSerializer`).
 * Returns the query without `?`.
 */
export function serializeParamsJQLike(params: Record<string, unknown> | null | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  const walk = (value: unknown, prefix: string, top: boolean): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, prefix + '[' + (v !== null && typeof v === 'object' ? i : '') + ']', false));
    } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
      for (const key of Object.keys(value).sort()) walk((value as Record<string, unknown>)[key], top ? key : prefix + '[' + key + ']', false);
    } else {
      const v = typeof value === 'function' ? value() : value;
      parts.push(encodeUriQuery(prefix) + '=' + (v === null || v === undefined ? '' : encodeUriQuery(serializeValue(v))));
    }
  };
  walk(params, '', true);
  return parts.join('&');
}

/**
 * `$http`'s buildUrl: the serialized params after `?` (or `&` when the URL has a query already).
 * `serialize`: the query serializer (`$http`'s `paramSerializer`), `serializeParams` by default.
 */
export function appendParams(
  url: string,
  params: Record<string, unknown> | null | undefined,
  serialize: (params: Record<string, unknown>) => string = serializeParams,
): string {
  const q = params ? serialize(params) : '';
  return q ? url + (url.indexOf('?') === -1 ? '?' : '&') + q : url;
}
