/**
 * Request -> the argument vector of a real `curl` run (not a pasteable string: that is
 * {@link toCurl}). Used when the shell verbs get an option the engine does not understand:
 * the request, as the engine built it, goes to curl together with that option unchanged.
 */
import type { Request } from '../model.js';
import { urlWithTarget } from '../url/as-written.js';
import { bodyContentTypeWords, headerWord, methodWords } from './rules.js';
import { shorthandCurlWords } from './auth-shorthand.js';

export interface CurlArgvOptions {
  /** File holding the body bytes (curl reads it with --data-binary @file). */
  bodyFile?: string;
  /** Extra words placed before the URL, e.g. the unknown options and cookie files. */
  extraArgs?: string[];
}

/** The curl arguments (without the leading `curl`) that send `req`. */
export function curlArgv(req: Request, opts: CurlArgvOptions = {}): string[] {
  // A real run always names the method: the words that follow may be any curl option.
  const words: string[] = methodWords(req.method, req.body !== undefined, true);
  for (const h of req.headers) {
    const auth = h[0].toLowerCase() === 'authorization' ? shorthandCurlWords(h[1]) : undefined;
    if (auth) words.push(...auth.words, ...auth.headers.flatMap((x) => ['-H', headerWord(x)]));
    else words.push('-H', headerWord(h));
  }
  if (req.body && opts.bodyFile) words.push('--data-binary', `@${opts.bodyFile}`, ...bodyContentTypeWords(req.headers));
  if (opts.extraArgs) words.push(...opts.extraArgs);
  words.push(...(req.target !== undefined ? ['-g'] : []), '--url', urlWithTarget(req.url, req.target));
  return words;
}
