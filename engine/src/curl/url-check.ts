/**
 * Two ways a curl URL and the sheet's sending of it can part, checked before the import writes
 * the request line:
 * - URL globbing (curl's manual, "URL", and -g/--globoff): `[1-3]`, `[a-c]` and `{a,b}` make curl
 *   send one request per value, and `{KEY}` sends `KEY`: the import writes one request each.
 * - The bytes of the request target: curl sends the path and query as written (curl 7.88 sent
 *   `/a/{K}?m="b"&x=<y>` unchanged, checked with a raw capture server), while a sheet URL goes
 *   through WHATWG URL parsing (engine/src/resolve/resolve.ts `normalizeUrl`, http/dispatch.ts),
 *   which percent-encodes `"` `<` `>` `` ` `` `{` `}` and a space in the path, `"` `<` `>` `'` and
 *   a space in the query, and drops an empty `?`. A request tagged `# @no-auto-encoding` sends
 *   the target as written, by the one rule of ../url/as-written.ts.
 */
import { targetAsWritten } from '../url/as-written.js';

/** The most requests one imported command may expand to (curl's own limit is far higher). */
export const MAX_GLOB_REQUESTS = 100;

/**
 * curl's URL globbing (curl's manual, "URL"; tool_urlglob.c): `{a,b}` sets and `[1-3]`,
 * `[a-c]`, `[01-10]` (zero-padded to the start's width), `[0-100:10]` ranges, each expanded in
 * order, the last varying fastest; `\[` `\]` `\{` `\}` stand for the character. An IPv6 host
 * (`http://[::1]/`) is not a glob, nor the braces of a shell `${NAME}`.
 * @returns the texts curl makes of `text` (one when there is no glob), or `{ error }` when curl
 *   refuses it (exit 3: a bad range, an unmatched bracket or brace).
 */
export function expandGlob(text: string): string[] | { error: string } {
  const start = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/@]*@)?\[[0-9a-f:.%a-z]*\]/i.exec(text)?.[0].length ?? 0;
  const pieces: string[][] = [[text.slice(0, start)]];
  let lit = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && /[[\]{}]/.test(text[i + 1] ?? '')) {
      lit += text[++i];
      continue;
    }
    if ((c === '{' && text[i - 1] !== '$') || c === '[') {
      const close = text.indexOf(c === '{' ? '}' : ']', i + 1);
      if (close < 0) return { error: `unmatched ${c === '{' ? 'brace' : 'bracket'} at ${text.slice(i)}` };
      const body = text.slice(i + 1, close);
      const values = c === '{' ? body.split(',') : rangeValues(body);
      if (!values) return { error: `bad range [${body}]` };
      if (values.includes('')) return { error: `an empty value in {${body}}` };
      pieces.push([lit], values);
      lit = '';
      i = close;
      continue;
    }
    lit += c;
  }
  pieces.push([lit]);
  let out = [''];
  for (const p of pieces) {
    if (out.length * p.length > MAX_GLOB_REQUESTS) return { error: `more than ${MAX_GLOB_REQUESTS} URLs` };
    out = out.flatMap((o) => p.map((v) => o + v));
  }
  return out;
}

/** The values of a `[...]` range body (`1-3`, `a-c`, `001-010:5`), or undefined when curl calls it bad. */
function rangeValues(body: string): string[] | undefined {
  const m = /^(?:([a-z])-([a-z])|([A-Z])-([A-Z])|([0-9]+)-([0-9]+))(?::([0-9]+))?$/.exec(body);
  if (!m) return undefined;
  const step = m[7] !== undefined ? Number(m[7]) : 1;
  if (step < 1) return undefined;
  const out: string[] = [];
  if (m[5] !== undefined) {
    const [a, b] = [Number(m[5]), Number(m[6])];
    if (a > b) return undefined;
    const width = m[5].startsWith('0') ? m[5].length : 0;
    for (let n = a; n <= b && out.length <= MAX_GLOB_REQUESTS; n += step) out.push(String(n).padStart(width, '0'));
    return out;
  }
  const [a, b] = [(m[1] ?? m[3])!.charCodeAt(0), (m[2] ?? m[4])!.charCodeAt(0)];
  if (a > b) return undefined;
  for (let n = a; n <= b; n += step) out.push(String.fromCharCode(n));
  return out;
}

/**
 * The request target (`/path?query`) as curl sends it for `url` and as the sheet sends it, when
 * they differ; undefined when they are the same bytes.
 */
export function targetDifference(url: string): { curl: string; sheet: string } | undefined {
  const curl = targetAsWritten(url);
  if (curl === undefined) return undefined;
  let sheet: string;
  try {
    const u = new URL(url);
    sheet = u.pathname + u.search;
  } catch {
    return undefined; // the resolver reports an invalid URL itself
  }
  return curl === sheet ? undefined : { curl, sheet };
}
