/** URL helpers shared by the core and the fetch transport. */

/** Collapse repeated slashes, keeping a leading `scheme://` or `//`. */
export function normalizeUrl(url: string): string {
  const parts = /((?:http[s]?:)?\/\/)?(.*)?/.exec(url)!;
  const rest = (parts[2] || '').replace(/[\\/]+/g, '/');
  return parts[1] !== undefined ? parts[1] + rest : rest;
}

/** AngularJS's encodeUriQuery, so query strings match what `$http` sends (cache keys). */
export function encodeUriQuery(val: string, pctEncodeSpaces?: boolean): string {
  return encodeURIComponent(val)
    .replace(/%40/gi, '@')
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%3B/gi, ';')
    .replace(/%20/g, pctEncodeSpaces ? '%20' : '+');
}

function serializeValue(v: any): string {
  if (v !== null && typeof v === 'object') return v instanceof Date ? v.toISOString() : JSON.stringify(v);
  return String(v);
}

/** `$httpParamSerializer`: sorted keys, arrays repeat the key, objects as JSON, null/undefined dropped. */
export function serializeParams(params: Record<string, any> | null | undefined): string {
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

/** Append serialized params to a URL. */
export function buildUrl(url: string, params: Record<string, any> | null | undefined): string {
  const q = serializeParams(params);
  return q ? url + (url.indexOf('?') === -1 ? '?' : '&') + q : url;
}
