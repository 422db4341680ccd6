/**
 * A URL sent as written: the request target (path and query) taken byte for byte from the text,
 * not re-encoded by WHATWG URL parsing. This is what curl does with a URL on its command line
 * (curl 7.88 sends `/a/{K}?m="b"&x=<y>` and `?q=%张三%` unchanged, checked with a raw capture
 * server), and what a sheet or `.http` request asks for with the line `# @no-auto-encoding`
 * above it (the JetBrains HTTP Client's tag of that name; VS Code REST Client and httpyac always
 * encode). One rule for every front end: the resolvers (../resolve/), the sender
 * (../http/dispatch.ts), the curl export and the curl import's check (../curl/).
 * Browser-safe: no Node module.
 */

/** The tag that asks for a URL sent as written, in a sheet and in a `.http` file. */
export const AS_WRITTEN_TAG = 'no-auto-encoding';

/** RFC 3986 section 5.2.4 remove_dot_segments, which curl applies too (unless --path-as-is). */
function removeDotSegments(path: string): string {
  const out: string[] = [];
  const segs = path.split('/');
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    const last = i === segs.length - 1;
    if (s === '.' || s === '..') {
      if (s === '..' && out.length > 1) out.pop();
      if (last) out.push('');
    } else out.push(s);
  }
  const joined = out.join('/');
  return joined.startsWith('/') ? joined : '/' + joined;
}

/**
 * The request target of `url` as written: path and query from the text, `/` for an empty path,
 * dot segments removed and the fragment dropped (curl's manual, "URL"; RFC 9112 section 3.2:
 * origin-form). Non-ASCII characters stay as they are (sent as UTF-8 bytes).
 *
 * @param url an absolute `scheme://authority/path?query#fragment` text.
 * @returns the target, e.g. `/q?m="b"`; undefined when `url` has no `scheme://`.
 */
export function targetAsWritten(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^#]*)/i.exec(url);
  if (!m) return undefined;
  const raw = m[1]!;
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? '' : raw.slice(q);
  return removeDotSegments(path === '' ? '/' : path) + query;
}

/**
 * Why `target` cannot go on a request line as written, or undefined when it can: a blank or a
 * control character would end or break the line (RFC 9112 section 3: the request-target holds
 * no whitespace).
 */
export function unsendableTarget(target: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const bad = /[\x00-\x20\x7f]/.exec(target);
  if (!bad) return undefined;
  const c = bad[0];
  const name = c === ' ' ? 'a space' : c === '\t' ? 'a tab' : `the control character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return `the URL holds ${name}, which cannot be sent as written`;
}

/**
 * The URL to hand to curl for a request with `target` sent as written: `url`'s scheme and
 * authority, then `target` (curl sends what it is given; -g keeps `[]{}` from its globbing).
 * `url` itself when there is no target.
 */
export function urlWithTarget(url: string, target: string | undefined): string {
  if (target === undefined) return url;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0];
  return origin === undefined ? url : origin + target;
}
