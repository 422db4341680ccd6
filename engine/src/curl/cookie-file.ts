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
  return jar.getCookieStringSync(url);
}
