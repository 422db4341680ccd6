/**
 * The JetBrains `request` object of response handlers and pre-request scripts (JetBrains HTTP
 * Client's API stubs, `HttpClientRequest` and `PreRequestHttpClientRequest`), made inside the
 * handler's `node:vm` context from plain JSON (handlers.ts), so scripts reach nothing outside:
 *
 * - `request.method`;
 * - `request.url()` / `request.body()` (handlers: as sent), `request.url.getRaw()` /
 *   `.tryGetSubstituted()`, `request.body.getRaw()` / `.tryGetSubstituted()` (pre-request
 *   scripts: the template, and the template with what is known substituted);
 * - `request.headers.all()`, `request.headers.findByName(name)`: headers with `name`,
 *   `value()`, `getRawValue()`, `tryGetSubstitutedValue()`;
 * - `request.environment.get(name)`: the chosen environment's value, or null;
 * - `request.variables.get/set/isEmpty/clear/clearAll`: per-request variables (set by a
 *   pre-request script, used by that request only).
 */
import type { RequestNode } from '../sheet/ast.js';
import { headerValue, type Request } from '../model.js';
import { bodyText } from './named.js';

/** What the sandbox is told about the request (JSON). `raw` is the template, `value` substituted or sent. */
export interface HandlerRequest {
  method: string;
  url: { raw: string; value: string };
  body: { raw: string; value: string };
  headers: { name: string; raw: string; value: string }[];
  /** The environment's variables. */
  env: Record<string, string>;
  /** Per-request variables so far. */
  variables: Record<string, string>;
}

/** Sandbox code (after handlers.ts' prelude, which defines `__data`, `__out`, `__str`): defines `request`. */
export const REQUEST_PRELUDE = `
const __rq = __data.request;
if (__rq) Object.assign(__out.variables, __rq.variables);
const __has = (o, n) => Object.prototype.hasOwnProperty.call(o, n);
const __part = (p) => Object.freeze(Object.assign(function () { return p.value; }, { getRaw() { return p.raw; }, tryGetSubstituted() { return p.value; } }));
const __hdr = (h) => Object.freeze({ name: h.name, value() { return h.value; }, getRawValue() { return h.raw; }, tryGetSubstitutedValue() { return h.value; } });
const request = __rq === undefined ? undefined : Object.freeze({
  method: __rq.method,
  url: __part(__rq.url),
  body: __part(__rq.body),
  headers: Object.freeze({
    all() { return __rq.headers.map(__hdr); },
    findByName(name) { const h = __rq.headers.find((x) => x.name.toLowerCase() === String(name).toLowerCase()); return h ? __hdr(h) : null; },
  }),
  environment: Object.freeze({ get(name) { return __has(__rq.env, name) ? __rq.env[name] : null; } }),
  variables: Object.freeze({
    set(name, value) { __out.variables[String(name)] = __str(value); },
    get(name) { return __has(__out.variables, name) ? __out.variables[name] : null; },
    isEmpty() { return Object.keys(__out.variables).length === 0; },
    clear(name) { delete __out.variables[name]; },
    clearAll() { for (const k of Object.keys(__out.variables)) delete __out.variables[k]; },
  }),
});
`;

/**
 * The `request` data a response handler of `node` sees: the request as sent (`value`), its
 * templates from the file (`raw`), the environment and the per-request variables.
 */
export function requestAfter(node: RequestNode, sent: Request, env: Readonly<Record<string, string>> = {}, variables: ReadonlyMap<string, string> = new Map()): HandlerRequest {
  const b = sent.body;
  const body = b ? (b.kind === 'text' ? b.text : (bodyText(b.bytes, headerValue(sent.headers, 'content-type')) ?? '')) : '';
  const raws = node.headers.flatMap((h) => (h.kind === 'header' ? [h] : []));
  return {
    method: sent.method,
    url: { raw: node.url, value: sent.url },
    body: { raw: node.body?.kind === 'text' ? node.body.text : body, value: body },
    headers: sent.headers.map(([name, value]) => ({ name, value, raw: raws.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value ?? value })),
    env: { ...env },
    variables: Object.fromEntries(variables),
  };
}
