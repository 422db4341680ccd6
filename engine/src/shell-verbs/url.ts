/**
 * The request URL from the base URL and the path, by resty's rules (docs/shell.md, "Paths"):
 * every `*` of the base is replaced by the path; the path is percent-encoded except for
 * slashes, so `?`, `=`, `&`, `#`, spaces and non-ASCII text are sent as data; a slash inside
 * one path element is written `%2F` and stays `%2F`. `-Q` sends the path as written.
 * The base URL itself (`http://` added, `*` appended) is shell/rest's rule, in `rest`: the
 * engine receives it whole.
 */
import { appendQuery } from '../curl/rules.js';

/** Characters left as they are: RFC 3986 unreserved plus the path separator. */
const KEEP = /[A-Za-z0-9\-._~/]/;

/** Percent-encode `path` except slashes; an existing `%2F`/`%2f` stays a (literal) `%2F`. */
export function encodePath(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; ) {
    if (path[i] === '%' && /^%2[fF]/.test(path.slice(i, i + 3))) {
      out += '%2F';
      i += 3;
      continue;
    }
    const cp = path.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    if (KEEP.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

export interface UrlParts {
  base: string;
  path: string;
  /** -Q: send the path as written. */
  raw: boolean;
  /**
   * -q values, appended to the whole URL as `?query` each (`&` when it has a query already), so
   * after what follows `*` in the base: `http://h/data*.json` and `/5 -q a=b` give
   * `http://h/data/5.json?a=b`, as resty's `curl "$_path$query"` (resty, `-q`).
   */
  queries: string[];
}

/** Build the request URL (see the module comment). */
export function buildUrl(p: UrlParts): string {
  const path = p.raw ? p.path : encodePath(p.path);
  const base = p.base.includes('*') ? p.base : p.base + '*';
  return p.queries.reduce(appendQuery, base.split('*').join(path));
}

/** curl's -G rule lives with curl's other rules (../curl/rules.ts); re-exported for the verbs. */
export { appendQuery };
