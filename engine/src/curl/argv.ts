/**
 * Request -> the argument vector of a real `curl` run (not a pasteable string: that is
 * {@link toCurl}). Used when the shell verbs get an option the engine does not understand:
 * the request, as the engine built it, goes to curl together with that option unchanged.
 */
import type { Request } from '../model.js';

export interface CurlArgvOptions {
  /** File holding the body bytes (curl reads it with --data-binary @file). */
  bodyFile?: string;
  /** Extra words placed before the URL, e.g. the unknown options and cookie files. */
  extraArgs?: string[];
}

/** The curl arguments (without the leading `curl`) that send `req`. */
export function curlArgv(req: Request, opts: CurlArgvOptions = {}): string[] {
  const words: string[] = [];
  if (req.method === 'HEAD') words.push('-I');
  else words.push('-X', req.method);
  for (const [n, v] of req.headers) words.push('-H', v === '' ? `${n};` : `${n}: ${v}`);
  if (req.body && opts.bodyFile) {
    words.push('--data-binary', `@${opts.bodyFile}`);
    // --data-binary adds a form Content-Type; send none unless the request has one.
    if (!req.headers.some(([n]) => n.toLowerCase() === 'content-type')) words.push('-H', 'Content-Type:');
  }
  if (opts.extraArgs) words.push(...opts.extraArgs);
  words.push('--url', req.url);
  return words;
}
