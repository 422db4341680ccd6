/// <reference path="./postman-sdk.d.ts" />
/**
 * A Postman request's `url` (a string, or the v2 object of `raw`, `protocol`, `host`, `port`,
 * `path`, `query`, `variable`, `hash`) -> the URL Postman and newman send, by
 * postman-collection's own rules: `Url.parse` for strings and `Url.prototype.toString` (host
 * joined by `.`, `:name` path variables replaced by their values, disabled query parameters
 * left out, `&`, `=` and `#` in keys and values percent-encoded outside `{{variables}}`).
 *
 * Why not `new Url(...)`: its property lists (a `uuid` and lodash copies per query parameter)
 * were most of `sheet import`'s time on big collections (docs/import.md, "Speed"); the string
 * rules need only plain objects, which this file builds as the SDK's `Url#update` does.
 */
import { QueryParam as SdkQueryParam } from 'postman-collection/lib/collection/query-param.js';
import { Url } from 'postman-collection/lib/collection/url.js';

interface QueryParam {
  key?: string | null;
  value?: string | null;
  disabled?: boolean;
}

const splitDomain = /\.(?![^{]*\}{2})/g;
const trimPath = /^\/((.+))$/;

const parseQuery = (query: string) => SdkQueryParam.parse(query) as QueryParam[];

/** The URL of `url` as Postman sends it; `''` for none. Path variables without a value stay `:name`. */
export function postmanUrl(url: unknown): string {
  if (!url) return '';
  const parsed = (typeof url === 'string' ? Url.parse(url) : url) as Record<string, unknown>;
  let query = parsed.query as unknown;
  if (typeof query === 'string') query = parseQuery(query);
  else if (query && !Array.isArray(query) && typeof query === 'object') query = Object.entries(query).map(([key, value]) => ({ key, value }));
  const params = ((query as unknown[] | undefined) ?? [])
    .map((q) => (typeof q === 'string' ? parseQuery(q)[0]! : (q as QueryParam)))
    .filter((q) => q && q.disabled !== true)
    .map((q) => ({ key: q.key, value: q.value }));
  const vars = new Map<string, unknown>();
  if (Array.isArray(parsed.variable)) for (const v of parsed.variable as { key?: string; id?: string; value?: unknown }[]) if (v && typeof v === 'object') vars.set(String(v.key || v.id), v.value);
  let path = parsed.path as unknown;
  if (typeof path === 'string') {
    path = path.replace(trimPath, '$1');
    path = path ? (path === '/' ? [''] : (path as string).split('/')) : undefined;
  }
  // Path variables (`:id`) are sent with their values, as Postman sends them.
  if (Array.isArray(path)) path = path.map((seg) => (typeof seg === 'string' && seg.startsWith(':') && vars.has(seg.slice(1)) && vars.get(seg.slice(1)) !== undefined && vars.get(seg.slice(1)) !== '' ? String(vars.get(seg.slice(1))) : seg));
  let host = parsed.host as unknown;
  if (typeof host === 'string') host = host.split(splitDomain);
  // The fields `Url#toString` reads, as plain objects (see the file comment).
  const light = Object.assign(Object.create(Url.prototype) as object, {
    auth: parsed.auth,
    protocol: parsed.protocol,
    port: parsed.port,
    path,
    hash: parsed.hash,
    host,
    query: { count: () => params.length, all: () => params, find: (f: (p: unknown) => boolean) => params.find(f) },
    variables: { get: (k: string) => vars.get(k) },
  });
  return Url.prototype.toString.call(light);
}
