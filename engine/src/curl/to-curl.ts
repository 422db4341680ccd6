/**
 * Request -> curl command line that reproduces it exactly when pasted into a POSIX shell
 * (bash, zsh, dash; curl's manual: `-X`, `-H`, `--data-binary`, `--url`). Used by C-c C-u
 * and the shell's --dry-run.
 */
import { urlWithTarget } from '../url/as-written.js';
import { bodyBytes, type Request } from '../model.js';
import { bodyContentTypeWords, headerWord, methodWords } from './rules.js';
import { shorthandCurlWords } from './auth-shorthand.js';

/**
 * Quote one word for a POSIX shell. Plain words stay bare; others go in POSIX single quotes
 * (`'it'\''s'`), which every `sh` reads (dash too), newlines and tabs included as they are.
 * Only text holding another control character (CR, ESC, ... which a terminal paste would not
 * keep) uses ANSI-C quoting `$'...'`, which bash, zsh and ksh read but dash does not.
 */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  // eslint-disable-next-line no-control-regex
  if (!/[\x00-\x08\x0b-\x1f\x7f]/.test(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  let out = "$'";
  for (const ch of word) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + "'";
}

/** Bytes as a POSIX `printf` format string in single quotes (octal escapes; exact for any bytes, NUL included). */
function printfWord(bytes: Uint8Array): string {
  let fmt = '';
  for (const b of bytes) fmt += b === 0x25 ? '%%' : b >= 0x20 && b < 0x7f && b !== 0x27 && b !== 0x5c ? String.fromCharCode(b) : '\\' + b.toString(8).padStart(3, '0');
  return `'${fmt}'`;
}

/** The body as UTF-8 text, or undefined when it is not valid UTF-8 (browser-safe: TextDecoder, not Buffer). */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The largest body read from a file (a sheet's `< file`, a `.http` `< file`) that the command
 * carries inline; a bigger one is `--data-binary @/absolute/path`, so the command stays short
 * (a 150 KiB body inline fails with "Argument list too long") and curl reads the same bytes
 * (curl's manual, --data-binary: "@" reads the file as it is, newlines kept).
 */
export const FILE_BODY_INLINE_MAX = 4096;

export interface CurlOptions {
  /** Extra curl arguments placed before the URL, already split into words. */
  extraArgs?: string[];
  /**
   * Always write the method with `-X`, even where curl would pick it by itself (`-X GET`
   * without a body, `-X POST` with one), as restclient.el's C-c C-u does, so an edited
   * command keeps its method when the body is removed. HEAD stays `-I` (`-X HEAD` makes curl
   * wait for a body that never comes). Default false: the shortest exact command.
   */
  alwaysMethod?: boolean;
}

/**
 * The curl command for `req`, in POSIX shell quoting ({@link shellQuote}). Bodies go through
 * `--data-binary` (`--data-raw` when they start with `@`, which curl would read as a file
 * name); a body holding a NUL byte (which no shell word can hold) or bytes that are not UTF-8
 * is fed through `printf` into `--data-binary @-`. A URL with `[]{}` gets `-g` (curl's
 * --globoff), so curl sends it as written. A `bytes` body with a `path` and no bytes
 * (a body the shell streams from a file) is `--data-binary @path`, and so is one read from a
 * file with a `path` (the resolver's absolute path) over {@link FILE_BODY_INLINE_MAX} bytes.
 */
export function toCurl(req: Request, opts: CurlOptions = {}): string {
  const words: string[] = ['curl'];
  const body = bodyBytes(req.body);
  const hasBody = body !== undefined;
  words.push(...methodWords(req.method, hasBody, opts.alwaysMethod));
  for (const h of req.headers) {
    // `Authorization: Digest USER PASSWORD` / `AWS KEY SECRET ...`: curl's --digest / --aws-sigv4.
    const auth = h[0].toLowerCase() === 'authorization' ? shorthandCurlWords(h[1]) : undefined;
    if (auth) words.push(...auth.words.map(shellQuote), ...auth.headers.flatMap((x) => ['-H', shellQuote(headerWord(x))]));
    else words.push('-H', shellQuote(headerWord(h)));
  }
  let prefix = '';
  const b = req.body;
  const file = b?.kind === 'bytes' && b.path && b.path !== '-' && (b.bytes.length === 0 || b.bytes.length > FILE_BODY_INLINE_MAX) ? b.path : undefined;
  if (hasBody && file !== undefined) {
    // A body streamed from a file (the shell's -T FILE, a lone --data-binary @FILE), or a big
    // one read from a file: curl reads the same file, as it is on disk.
    words.push('--data-binary', shellQuote('@' + file));
    words.push(...bodyContentTypeWords(req.headers).map(shellQuote));
  } else if (hasBody) {
    const text = body.includes(0) ? undefined : utf8Text(body);
    if (text === undefined) {
      // No shell word can hold NUL, and binary bytes would need bash's $'...': printf's format
      // string with octal escapes (POSIX) carries the bytes.
      prefix = `printf ${printfWord(body)} | `;
      words.push('--data-binary', '@-');
    } else {
      // `--data-binary @x` would read the file x: a body starting with @ goes as --data-raw.
      words.push(body[0] === 0x40 ? '--data-raw' : '--data-binary', shellQuote(text));
    }
    words.push(...bodyContentTypeWords(req.headers).map(shellQuote));
  }
  if (opts.extraArgs) words.push(...opts.extraArgs.map(shellQuote));
  // curl expands {a,b} and [1-3] in URLs into several requests unless globbing is off.
  const url = urlWithTarget(req.url, req.target);
  if (/[[\]{}]/.test(url)) words.push('-g');
  words.push(shellQuote(url));
  return prefix + words.join(' ');
}
