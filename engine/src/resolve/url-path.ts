/**
 * Paths and URLs as both resolvers (resolve.ts, resolve-http.ts) make them concrete: `~` and
 * relative body paths, the request URL checked and percent-encoded (WHATWG URL), and the target
 * sent as written under `# @no-auto-encoding`.
 */
import os from 'node:os';
import path from 'node:path';
import { EngineError } from '../errors.js';
import type { RequestNode } from '../sheet/ast.js';
import { AS_WRITTEN_TAG, targetAsWritten, unsendableTarget } from '../url/as-written.js';

/** Expand `~` and make `p` absolute against `baseDir`. */
export function expandPath(p: string, baseDir: string): string {
  let out = p;
  if (out === '~') out = os.homedir();
  else if (out.startsWith('~/')) out = path.join(os.homedir(), out.slice(2));
  return path.resolve(baseDir, out);
}

/**
 * A WebSocket URL in its HTTP form (RFC 6455 section 3: `ws` is `http`'s twin, `wss`
 * `https`'s), so the handshake is read as any request (cookies, proxy); other URLs unchanged.
 */
export function websocketAsHttp(url: string): string {
  return url.replace(/^ws(s?):\/\//i, 'http$1://');
}

/**
 * Validate a URL and percent-encode what needs it (non-ASCII in path and query, IDN hosts).
 * @param websocket a WebSocket request's URL: `ws://` and `wss://` are read as `http://` and
 *   `https://` ({@link websocketAsHttp}); the transport (../ws/) turns them back.
 * @throws EngineError `invalid-url` naming the line.
 */
export function normalizeUrl(url: string, line?: number, websocket = false): string {
  let u: URL;
  try {
    u = new URL(websocket ? websocketAsHttp(url) : url);
  } catch {
    throw new EngineError('invalid-url', `invalid URL ${JSON.stringify(url)}`, {
      line,
      hint: /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? 'Check the URL for spaces or stray characters.' : 'Write an absolute URL starting with http:// or https://.',
      details: { url },
    });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new EngineError('invalid-url', `unsupported URL scheme ${u.protocol} in ${JSON.stringify(url)}`, {
      line,
      hint: websocket ? 'Use a ws:// or wss:// URL (http:// and https:// are read as them).' : 'Use an http:// or https:// URL.',
      details: { url },
    });
  }
  return u.href;
}

/**
 * The request target to send as written when `req` carries `# @no-auto-encoding`
 * (docs/sheet-format.md, "Request line"; ../url/as-written.ts), else undefined.
 * @param url the URL after substitution, absolute.
 * @throws EngineError `invalid-url` naming the line when the target holds a blank or a control character.
 */
export function asWrittenTarget(req: RequestNode, url: string, line: number): string | undefined {
  if (!req.directives?.some((d) => d.name === AS_WRITTEN_TAG)) return undefined;
  const target = targetAsWritten(url);
  if (target === undefined) return undefined;
  const why = unsendableTarget(target);
  if (why) throw new EngineError('invalid-url', `${why} (# @${AS_WRITTEN_TAG})`, { line, hint: 'Percent-encode it (a space as %20), or remove the # @no-auto-encoding line.', details: { url } });
  return target;
}
