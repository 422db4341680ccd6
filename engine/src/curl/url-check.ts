/**
 * Two ways a curl URL and the sheet's sending of it can part, checked before the import writes
 * the request line:
 * - URL globbing (curl's manual, "URL", and -g/--globoff): `[1-3]`, `[a-c]` and `{a,b}` make curl
 *   send one request per value, and `{KEY}` sends `KEY`; a sheet request is one request.
 * - The bytes of the request target: curl sends the path and query as written (curl 7.88 sent
 *   `/a/{K}?m="b"&x=<y>` unchanged, checked with a raw capture server), while a sheet URL goes
 *   through WHATWG URL parsing (engine/src/resolve/resolve.ts `normalizeUrl`, http/dispatch.ts),
 *   which percent-encodes `"` `<` `>` `` ` `` `{` `}` and a space in the path, `"` `<` `>` `'` and
 *   a space in the query, and drops an empty `?`. A request tagged `# @no-auto-encoding` sends
 *   the target as written, by the one rule of ../url/as-written.ts.
 */
import { targetAsWritten } from '../url/as-written.js';

/** A curl URL glob found in `url`, as written (`[1-3]`, `{a,b}`), or undefined. */
export function urlGlob(url: string): string | undefined {
  // An IPv6 literal host ([::1]) is not a glob: curl reads it as the host.
  const start = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/@]*@)?\[[0-9a-f:.%a-z]*\]/i.exec(url)?.[0].length ?? 0;
  for (let i = start; i < url.length; i++) {
    const c = url[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    // `${NAME}` is the shell's (named as an expansion by the import), not a curl glob.
    if (c === '{' && url[i - 1] === '$') continue;
    if (c === '{' || c === '[') {
      const close = url.indexOf(c === '{' ? '}' : ']', i + 1);
      if (close > i) return url.slice(i, close + 1);
    }
  }
  return undefined;
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
