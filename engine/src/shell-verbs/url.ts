/**
 * The request URL from the base URL and the path, by resty's rules (docs/shell.md, "Paths"):
 * every `*` of the base is replaced by the path; the path is percent-encoded except for
 * slashes, so `?`, `=`, `&`, `#`, spaces and non-ASCII text are sent as data; a slash inside
 * one path element is written `%2F` and stays `%2F`. `-Q` sends the path as written.
 * The base URL itself (`http://` added, `*` appended) is shell/rest's rule, in `rest`: the
 * engine receives it whole.
 */

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
  /** -q values, appended as `?query` each (joined with `&` after the first). */
  queries: string[];
}

/** Build the request URL (see the module comment). */
export function buildUrl(p: UrlParts): string {
  let path = p.raw ? p.path : encodePath(p.path);
  for (const q of p.queries) path += (path.includes('?') ? '&' : '?') + q;
  const base = p.base.includes('*') ? p.base : p.base + '*';
  return base.split('*').join(path);
}

/** curl's -G rule lives with curl's other rules (../curl/rules.ts); re-exported for the verbs. */
export { appendQuery } from '../curl/rules.js';
