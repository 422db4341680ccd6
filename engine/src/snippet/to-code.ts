/**
 * Request -> code that sends it in another language or tool ("copy as code", issue 25 item 7):
 * Python requests, JavaScript fetch, Go net/http, HTTPie, PowerShell and the other targets of
 * `@readme/httpsnippet` (ReadMe's maintained fork of Kong's httpsnippet), from the same
 * resolved {@link Request} C-c C-u's curl export prints (`../curl/to-curl.ts`). `curl` itself is
 * that converter, not the library's.
 *
 * The library reads a HAR request (HAR 1.2, `log.entries[].request`). What this file adds to it,
 * so the code sends what the sheet sends:
 * - the URL is the request's, byte for byte: the library re-encodes and re-orders the query
 *   string (`?a=1&b=2&a=3` -> `?a=1&a=3&b=2`, `+` -> `%20`), so its prepared URL fields are
 *   replaced by the request's own;
 * - a JSON body (`Content-Type: application/json` holding valid JSON) becomes the language's
 *   JSON value (Python's `json=`, `JSON.stringify(...)`): the same JSON, not always the same
 *   spacing; JSON holding a string with a backslash, a quote, `$`, `#` or a control character
 *   is sent as its text, because the library's literal writers do not escape those;
 * - an `application/x-www-form-urlencoded` body becomes the form's fields (decoded as
 *   WHATWG's urlencoded parser does), which the code encodes again; other bodies are sent as
 *   their text;
 * - a body that is not UTF-8 text (an image from `< file`) cannot be written in most targets:
 *   `bad-argument`, pointing to the curl export, which can.
 * Header names that repeat keep their last value (the library keeps headers by name).
 */
import { urlWithTarget } from '../url/as-written.js';
import { HTTPSnippet, availableTargets } from '@readme/httpsnippet';
import { EngineError } from '../errors.js';
import { bodyBytes, headerValue, type Request } from '../model.js';
import { toCurl } from '../curl/to-curl.js';

/** One target a request can be copied as: `name` as the user types it, `title` to show. */
export interface CodeTarget {
  /** e.g. `python`, `javascript`, `go`, `httpie`, `powershell`, `php-guzzle`. */
  name: string;
  /** e.g. `Python (Requests)`. */
  title: string;
}

/** The library's target and client behind a name. */
type Pair = { target: string; client: string; title: string };

/** Short names people type for clients of the `shell` target. */
const SHELL_ALIASES: Record<string, string> = { httpie: 'httpie', wget: 'wget' };

let table: Map<string, Pair> | undefined;

/**
 * Every name, built once from the library's own list: `TARGET` (its default client, e.g.
 * `python` = Requests, `javascript` = fetch, `go` = net/http), `TARGET-CLIENT` for each client
 * (`javascript-axios`, `powershell-restmethod`), and `httpie`, `wget`; `curl` is ours.
 */
function targets(): Map<string, Pair> {
  if (table) return table;
  table = new Map();
  table.set('curl', { target: 'curl', client: 'curl', title: 'curl (the engine\'s converter, as C-c C-u)' });
  for (const t of availableTargets()) {
    for (const c of t.clients) {
      const pair = { target: t.key, client: c.key, title: `${t.title} (${c.title})` };
      if (c.key === t.default && t.key !== 'shell') table.set(t.key, pair);
      if (t.key === 'shell' && SHELL_ALIASES[c.key]) table.set(SHELL_ALIASES[c.key]!, pair);
      if (t.key !== 'shell' || c.key !== 'curl') table.set(`${t.key}-${c.key}`, pair);
    }
  }
  return table;
}

/** The targets {@link toCode} knows, short names first (docs/sheet-mode.md, "Copy as code"). */
export function codeTargets(): CodeTarget[] {
  return [...targets()].map(([name, p]) => ({ name, title: p.title })).sort((a, b) => Number(a.name.includes('-')) - Number(b.name.includes('-')) || a.name.localeCompare(b.name));
}

/** The request's body as text, or a `bad-argument` when its bytes are not UTF-8. */
function bodyText(request: Request): string | undefined {
  if (!request.body) return undefined;
  if (request.body.kind === 'text') return request.body.text;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bodyBytes(request.body));
  } catch {
    throw new EngineError('bad-argument', `the body${request.body.path ? ` (${request.body.path})` : ''} is binary, and code in other languages is written with text bodies`, {
      ...(request.line ? { line: request.line } : {}),
      hint: 'Copy it as curl (C-c C-u, or --to curl), which sends any bytes.',
    });
  }
}

/** A string the library's literal writers (Python, Ruby, Swift, ...) copy without escaping. */
const PLAIN_STRING = /^[^\\"'`$#\u0000-\u001f\u007f\u2028\u2029]*$/;

/**
 * Whether `text` is JSON whose strings (keys and values) are all plain: then the code may hold
 * it as the language's own value (`json=` in Python). The library quotes those strings without
 * escaping a backslash, a quote or a newline (`"C:\\tmp"` would lose its backslash), so JSON
 * with such strings is sent as its text instead, byte for byte.
 */
function plainJson(text: string): boolean {
  let ok = true;
  try {
    JSON.parse(text, (key, value: unknown) => {
      if (!PLAIN_STRING.test(key) || (typeof value === 'string' && !PLAIN_STRING.test(value))) ok = false;
      return value;
    });
  } catch {
    return false;
  }
  return ok;
}

/** The HAR postData of `text` under `contentType` (see the file comment). */
function postData(text: string, contentType: string | undefined) {
  const mime = (contentType ?? '').trim();
  if (/^application\/x-www-form-urlencoded$/i.test(mime)) {
    return { mimeType: 'application/x-www-form-urlencoded', params: [...new URLSearchParams(text)].map(([name, value]) => ({ name, value })) };
  }
  if (/^application\/json$/i.test(mime) && plainJson(text)) return { mimeType: 'application/json', text };
  // The library empties a multipart body that has no HAR params; with its boundary it is text.
  return { mimeType: !mime || /^multipart\/[a-z]+$/i.test(mime) || /^application\/json$/i.test(mime) ? 'text/plain' : mime, text };
}

/**
 * `request` as code for `target` (a name of {@link codeTargets}: `python`, `javascript`, `go`,
 * `httpie`, `powershell`, ...).
 * @returns the code, ending with a newline.
 * @throws EngineError `bad-argument` for an unknown target (the hint lists the names) or a
 *   binary body.
 */
export function toCode(request: Request, target: string): string {
  const pair = targets().get(target.trim().toLowerCase());
  if (!pair) {
    throw new EngineError('bad-argument', `unknown code target ${JSON.stringify(target)}`, {
      hint: `Use one of: ${codeTargets().map((t) => t.name).filter((n) => !n.includes('-')).join(', ')} (or TARGET-CLIENT, e.g. javascript-axios).`,
    });
  }
  if (pair.target === 'curl') return toCurl(request, { alwaysMethod: true }) + '\n';
  const text = bodyText(request);
  const snippet = new HTTPSnippet({
    method: request.method,
    url: request.url,
    httpVersion: 'HTTP/1.1',
    headers: request.headers.map(([name, value]) => ({ name, value })),
    queryString: [],
    cookies: [],
    headersSize: -1,
    bodySize: -1,
    ...(text !== undefined ? { postData: postData(text, headerValue(request.headers, 'content-type')) } : {}),
  } as ConstructorParameters<typeof HTTPSnippet>[0]).init();
  const url = new URL(request.url);
  // A request sent as written (`# @no-auto-encoding`) keeps its target's bytes (url/as-written.ts).
  const exact = urlWithTarget(request.url, request.target);
  for (const r of snippet.requests) {
    // The request's URL as it is (see the file comment), in every field a client reads.
    r.fullUrl = exact;
    r.url = exact;
    r.queryObj = {};
    Object.assign(r.uriObj, { href: exact, search: url.search, path: request.target ?? url.pathname + url.search, query: {} });
  }
  const [code] = snippet.convert(pair.target as Parameters<typeof snippet.convert>[0], pair.client);
  if (typeof code !== 'string') throw new EngineError('internal-error', `the snippet library wrote nothing for ${target}`);
  return code.endsWith('\n') ? code : code + '\n';
}
