/**
 * The curl options that give the real curl the verb's cookie and transport behaviour: for the
 * curl fallback (http/via-curl.ts) and what `--dry-run` prints (docs/shell.md).
 */
import type { Built } from './build-request.js';

/**
 * `-b`/`-c`/`-j` for the verb's cookie jar, `--max-redirs`, `-k`, `--max-time` (seconds),
 * `--compressed`, the proxy options `-x`, `--noproxy`, `-U`, `--cacert` (curl reads the proxy and
 * CA variables itself).
 */
export function curlSessionArgs(b: Built, timeoutMs: number | undefined): string[] {
  const args: string[] = [];
  for (const f of b.cookieLoad) args.push('-b', f);
  if (b.cookieSave) args.push('-c', b.cookieSave);
  if (b.opts.junkSession) args.push('-j');
  if (b.opts.maxRedirs !== undefined) args.push('--max-redirs', String(b.opts.maxRedirs));
  if (b.opts.insecure) args.push('-k');
  if (timeoutMs !== undefined) args.push('--max-time', String(timeoutMs / 1000));
  if (b.opts.compressed) args.push('--compressed');
  if (b.opts.proxy !== undefined) args.push('-x', b.opts.proxy);
  if (b.opts.noProxy !== undefined) args.push('--noproxy', b.opts.noProxy);
  if (b.opts.proxyUser !== undefined) args.push('-U', b.opts.proxyUser);
  if (b.opts.cacert !== undefined) args.push('--cacert', b.opts.cacert);
  return args;
}

