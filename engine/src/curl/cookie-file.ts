/**
 * curl's Netscape cookie file as curl reads it (curl's manual, "HTTP Cookies": one cookie a
 * line, seven TAB-separated fields, `#HttpOnly_` before the domain of HttpOnly cookies) and
 * the Cookie header curl's `-b FILE` sends from it. The import of curl command lines uses it
 * (import-files.ts); the engine's own cookie jar (http/cookies.ts) reads and writes the same
 * format through it.
 */
import { Cookie, CookieJar, MemoryCookieStore } from 'tough-cookie';

/** A new, empty in-memory jar that accepts cookies for 127.0.0.1 and localhost too. */
export function newJar(): CookieJar {
  return new CookieJar(new MemoryCookieStore(), { looseMode: true, allowSpecialUseDomain: true, rejectPublicSuffixes: false });
}

/**
 * Parse Netscape cookie file text into cookies.
 * @param junkSession drop session cookies (expires 0), as curl's `-j`.
 */
export function parseNetscape(text: string, junkSession = false): Cookie[] {
  const out: Cookie[] = [];
  const now = Date.now();
  for (let line of text.split(/\r?\n/)) {
    let httpOnly = false;
    if (line.startsWith('#HttpOnly_')) {
      httpOnly = true;
      line = line.slice('#HttpOnly_'.length);
    } else if (line.startsWith('#') || !line.trim()) continue;
    const f = line.split('\t');
    if (f.length < 7) continue;
    const [domain, sub, cpath, secure, expires, name, ...rest] = f;
    const exp = Number(expires);
    if (junkSession && exp === 0) continue;
    if (exp > 0 && exp * 1000 <= now) continue;
    out.push(
      new Cookie({
        key: name!,
        value: rest.join('\t'),
        domain: domain!.replace(/^\./, '').toLowerCase(),
        hostOnly: sub !== 'TRUE',
        path: cpath || '/',
        secure: secure === 'TRUE',
        httpOnly,
        expires: exp > 0 ? new Date(exp * 1000) : 'Infinity',
      }),
    );
  }
  return out;
}

/**
 * The Cookie header value curl sends to `url` from a Netscape cookie file's text (curl's `-b
 * FILE`, with `-j` dropping session cookies): the cookies whose domain, path and secure flag
 * match, unexpired, by RFC 6265 section 5.4 (tough-cookie's matching); '' when none does.
 */
export function fileCookieString(text: string, url: string, junkSession = false): string {
  const jar = newJar();
  const store = jar.store as MemoryCookieStore;
  // The memory store puts synchronously; its promise has nothing left to wait for.
  for (const c of parseNetscape(text, junkSession)) void store.putCookie(c);
  return cookieString(jar.getCookiesSync(url));
}

/**
 * Cookies in the order curl sends them (lib/cookie.c, `cookie_sort`): longer path first, then
 * longer domain, then longer name, then the newer (the one added to the jar later) first.
 * RFC 6265 section 5.4 (tough-cookie's order) stops at the path and puts the older first.
 * Checked against curl 7.88.1 on the same jar (test/shell/cookies.bats).
 */
export function curlCookieOrder(cookies: Cookie[]): Cookie[] {
  const len = (s: string | null | undefined) => (s ?? '').length;
  return [...cookies].sort(
    (a, b) =>
      len(b.path) - len(a.path) || len(b.domain) - len(a.domain) || len(b.key) - len(a.key) || (b.creationIndex ?? 0) - (a.creationIndex ?? 0),
  );
}

/** The Cookie header value of `cookies` as curl writes it: `name=value` in curl's order, joined by `; `. */
export function cookieString(cookies: Cookie[]): string {
  return curlCookieOrder(cookies)
    .map((c) => c.cookieString())
    .join('; ');
}

/**
 * The URL whose host a jar's cookies are matched against (and a response's stored under): the
 * request's Host header's name when it has one, as curl does (it matches by the Host header
 * it sends, lib/http.c `cookiehost`), else the URL's own.
 */
export function cookieUrl(url: URL, hostHeader: string | undefined): string {
  const name = hostHeader?.trim().replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  if (!name || name.toLowerCase() === url.hostname.toLowerCase()) return url.href;
  const u = new URL(url.href);
  try {
    u.hostname = name;
  } catch {
    return url.href;
  }
  return u.hostname === url.hostname ? url.href : u.href;
}
