/**
 * The curl options that give the real curl the verb's cookie and transport behaviour: for the
 * curl fallback (http/via-curl.ts) and what `--dry-run` prints (docs/shell.md).
 */
import type { Built } from './build-request.js';
import type { CurlOptions } from '../curl/options.js';
import type { AuthOptions } from '../http/send.js';
import type { Request } from '../model.js';
import { shorthandFromCurl } from '../curl/auth-shorthand.js';

/**
 * `-b`/`-c`/`-j` for the verb's cookie jar, `--max-redirs`, `-k`, `--max-time` and
 * `--connect-timeout` (seconds),
 * `--compressed`, the proxy options `-x`, `--noproxy`, `-U`, `--cacert` (curl reads the proxy and
 * CA variables itself), the client certificate `--cert`, `--key`, `--pass`, `--http2`,
 * `--unix-socket`, and the authentication options of {@link curlAuthArgs}.
 */
export function curlSessionArgs(b: Built, timeoutMs: number | undefined): string[] {
  const args: string[] = [];
  for (const f of b.cookieLoad) args.push('-b', f);
  if (b.cookieSave) args.push('-c', b.cookieSave);
  if (b.opts.junkSession) args.push('-j');
  if (b.opts.maxRedirs !== undefined) args.push('--max-redirs', String(b.opts.maxRedirs));
  if (b.opts.insecure) args.push('-k');
  if (timeoutMs !== undefined) args.push('--max-time', String(timeoutMs / 1000));
  if (b.opts.connectTimeout !== undefined) args.push('--connect-timeout', String(b.opts.connectTimeout));
  if (b.opts.compressed) args.push('--compressed');
  if (b.opts.proxy !== undefined) args.push('-x', b.opts.proxy);
  if (b.opts.noProxy !== undefined) args.push('--noproxy', b.opts.noProxy);
  if (b.opts.proxyUser !== undefined) args.push('-U', b.opts.proxyUser);
  if (b.opts.cacert !== undefined) args.push('--cacert', b.opts.cacert);
  if (b.opts.cert !== undefined) args.push('--cert', b.opts.cert);
  if (b.opts.key !== undefined) args.push('--key', b.opts.key);
  if (b.opts.pass !== undefined) args.push('--pass', b.opts.pass);
  if (b.opts.http2) args.push('--http2');
  if (b.opts.unixSocket !== undefined) args.push('--unix-socket', b.opts.unixSocket);
  args.push(...curlAuthArgs(b.opts));
  return args;
}


/**
 * `-n`/`--netrc-optional`/`--netrc-file`, `--digest`, `--aws-sigv4` and the `-u` that goes with
 * the last two (a plain `-u` is a Basic header of the request already; build-request.ts).
 */
export function curlAuthArgs(o: CurlOptions): string[] {
  const args: string[] = [];
  if (o.netrc === 'required' && o.netrcFile === undefined) args.push('-n');
  if (o.netrc === 'optional') args.push('--netrc-optional');
  if (o.netrcFile !== undefined) args.push('--netrc-file', o.netrcFile);
  if (o.digest) args.push('--digest');
  if (o.awsSigv4 !== undefined) args.push('--aws-sigv4', o.awsSigv4);
  if ((o.digest || o.awsSigv4 !== undefined || o.netrc !== undefined || o.netrcFile !== undefined) && o.user !== undefined) args.push('-u', o.user);
  return args;
}

/**
 * What send()'s authenticator gets of a verb call (http/auth.ts): the options above, the
 * caller's HOME for `~/.netrc`, and, for a SigV4 signature, the headers curl would add by
 * itself (those not given with -H: User-Agent, Accept, the Content-Type of -d), left unsigned
 * as curl leaves them.
 */
export function verbAuth(b: Built, sentHeaders: string[], env: Record<string, string | undefined>, cwd: string): AuthOptions | undefined {
  const o = b.opts;
  const netrc = o.netrc !== undefined || o.netrcFile !== undefined;
  if (!netrc && !o.digest && o.awsSigv4 === undefined) return undefined;
  const own = new Set(o.headers.map(([n]) => n.toLowerCase()));
  return {
    ...(o.user !== undefined ? { user: o.user } : {}),
    ...(o.digest ? { digest: true } : {}),
    ...(o.awsSigv4 !== undefined ? { awsSigv4: o.awsSigv4 } : {}),
    ...(netrc ? { netrc: { ...(o.netrcFile !== undefined ? { file: o.netrcFile } : {}), optional: o.netrc === 'optional', env, cwd } } : {}),
    unsigned: sentHeaders.map((n) => n.toLowerCase()).filter((n) => !own.has(n)),
  };
}

/**
 * The request as a sheet writes it (`--sheet`, history.sheet): `--digest -u` and `--aws-sigv4
 * -u` as their `Authorization` lines (VS Code REST Client's), so the sheet request
 * authenticates as the verb did; `.netrc` has no line (docs/networks.md).
 */
export function withAuthLine(b: Built, r: Request): Request {
  const o = b.opts;
  const scheme = o.awsSigv4 !== undefined ? 'aws-sigv4' : o.digest ? 'digest' : undefined;
  if (!scheme || o.user === undefined || r.headers.some(([n]) => n.toLowerCase() === 'authorization')) return r;
  const line = shorthandFromCurl(scheme, o.user, o.awsSigv4);
  return 'value' in line ? { ...r, headers: [...r.headers, ['Authorization', line.value]] } : r;
}
