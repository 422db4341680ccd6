/**
 * Paths and URLs as both resolvers (resolve.ts, resolve-http.ts) make them concrete: `~` and
 * relative body paths, and the request URL checked and percent-encoded (WHATWG URL).
 */
import os from 'node:os';
import path from 'node:path';
import { EngineError } from '../errors.js';

/** Expand `~` and make `p` absolute against `baseDir`. */
export function expandPath(p: string, baseDir: string): string {
  let out = p;
  if (out === '~') out = os.homedir();
  else if (out.startsWith('~/')) out = path.join(os.homedir(), out.slice(2));
  return path.resolve(baseDir, out);
}

/**
 * Validate a URL and percent-encode what needs it (non-ASCII in path and query, IDN hosts).
 * @throws EngineError `invalid-url` naming the line.
 */
export function normalizeUrl(url: string, line?: number): string {
  let u: URL;
  try {
    u = new URL(url);
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
      hint: 'Use an http:// or https:// URL.',
      details: { url },
    });
  }
  return u.href;
}
