/**
 * `.netrc` credentials as curl reads them (curl's manual: `-n/--netrc`, `--netrc-optional`,
 * `--netrc-file`; the file format of ftp(1) that curl's lib/netrc.c parses): tokens separated
 * by blanks and newlines, `"quoted tokens"` with `\"`, `\\`, `\n`, `\r`, `\t` escapes (curl
 * 7.84 and later), a token starting with `#` ends its line, `macdef NAME` skips its macro up to
 * the next empty line, `machine HOST` and `default` start an entry whose `login` and `password`
 * follow (`account` and other words are read and ignored). The first entry that fits wins:
 * the first `machine` whose name is the URL's host (any case), else `default`; with a user
 * name given (`http://user@host/`), only an entry with that `login` fits.
 *
 * The npm parsers were weighed and not taken: `netrc` (0.1.4) keeps the last entry of a host,
 * knows no `default`, `macdef` or quoted token; `netrc-parser` (3.x) runs gpg through execa
 * and reads no quoted token either. curl's rules are short enough to keep here, tested
 * against the installed curl (test/engine/netrc.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineError } from '../errors.js';

/** One `machine` (or `default`, `host` undefined) entry. */
export interface NetrcEntry {
  host?: string;
  login?: string;
  password?: string;
  /** The line (1-based) of its `machine` / `default` word. */
  line: number;
}

/** Where credentials come from: curl's `-n` (`~/.netrc`), `--netrc-file FILE`, `--netrc-optional`. */
export interface NetrcOptions {
  /** The file; default `$HOME/.netrc` of `env` (curl's default; `~` is expanded). */
  file?: string;
  /** curl's `--netrc-optional`: a missing file is no error. */
  optional?: boolean;
  /** Where `HOME` is read (the caller's, through the daemon); default this process's. */
  env?: Record<string, string | undefined>;
  /** The directory relative file names start from; default this process's. */
  cwd?: string;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t' };

/**
 * The entries of a `.netrc` text, in order.
 * @param name the file's name, for errors.
 * @throws EngineError `bad-netrc` naming `name` and the line: an unterminated quoted token,
 *   or `machine` / `login` / `password` with no word after it.
 */
export function parseNetrc(text: string, name = '.netrc'): NetrcEntry[] {
  const tokens: { word: string; line: number }[] = [];
  const lines = text.split('\n');
  for (let ln = 0; ln < lines.length; ln++) {
    const s = lines[ln]!;
    let i = 0;
    for (;;) {
      while (i < s.length && /[ \t\r\f\v]/.test(s[i]!)) i++;
      if (i >= s.length || s[i] === '#') break;
      let word = '';
      if (s[i] === '"') {
        i++;
        let closed = false;
        while (i < s.length) {
          const c = s[i++]!;
          if (c === '"') {
            closed = true;
            break;
          }
          if (c === '\\' && i < s.length) {
            const e = s[i++]!;
            word += ESCAPES[e] ?? e;
          } else word += c;
        }
        if (!closed) throw bad(name, ln + 1, 'a quoted word has no closing "', 'Close the quote on the same line, or write the word without quotes.');
      } else {
        while (i < s.length && !/[ \t\r\f\v]/.test(s[i]!)) word += s[i++];
      }
      tokens.push({ word, line: ln + 1 });
    }
    // An empty line ends a macro definition: marked so that `macdef` knows where to stop.
    if (s.trim() === '') tokens.push({ word: '', line: -(ln + 1) });
  }
  const entries: NetrcEntry[] = [];
  let cur: NetrcEntry | undefined;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.line < 0) continue;
    const value = (what: string): string => {
      const v = tokens[k + 1];
      if (!v || v.line < 0) throw bad(name, t.line, `"${t.word}" has no ${what} after it`, `Write ${t.word} ${what.toUpperCase().replace(/ /g, '_')} on the line.`);
      k++;
      return v.word;
    };
    switch (t.word) {
      case 'machine':
        cur = { host: value('host name'), line: t.line };
        entries.push(cur);
        break;
      case 'default':
        cur = { line: t.line };
        entries.push(cur);
        break;
      case 'login':
        if (cur) cur.login = value('user name');
        else value('user name');
        break;
      case 'password':
        if (cur) cur.password = value('password');
        else value('password');
        break;
      case 'macdef':
        // The macro's name, then every word up to the next empty line.
        cur = undefined;
        k++;
        while (k + 1 < tokens.length && tokens[k + 1]!.line >= 0) k++;
        break;
      default:
        // `account VALUE` and words curl does not know: skipped as curl does.
        break;
    }
  }
  return entries;
}

/**
 * The credentials for `host` (a URL's host name, no port): the first `machine` entry of that
 * name (ASCII case ignored), else the first `default`; with `login` given, only entries with
 * that login fit (curl's manual, `--netrc`).
 * @returns `user:password` for curl's `-u` rules (no password: empty), or undefined.
 */
export function netrcCredentials(entries: NetrcEntry[], host: string, login?: string): string | undefined {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  const fits = (e: NetrcEntry) => login === undefined || e.login === login;
  const found = entries.find((e) => e.host !== undefined && e.host.toLowerCase() === h && fits(e)) ?? entries.find((e) => e.host === undefined && fits(e));
  if (!found || found.login === undefined) return undefined;
  return `${found.login}:${found.password ?? ''}`;
}

/** The file curl reads for `-n`: `$HOME/.netrc` (curl's manual), `~` expanded, relative to `cwd`. */
export function netrcFile(o: NetrcOptions): string {
  const env = o.env ?? process.env;
  const home = env.HOME || os.homedir();
  const f = o.file ?? '~/.netrc';
  const expanded = f === '~' || f.startsWith('~/') ? path.join(home, f.slice(1)) : f;
  return path.resolve(o.cwd ?? process.cwd(), expanded);
}

/**
 * Read and parse the file of `o`.
 * @returns its entries; [] when it is missing and `optional`.
 * @throws EngineError `bad-netrc` (curl's exit 26, "couldn't read .netrc file") naming the file
 *   when it cannot be read, or a line of it that {@link parseNetrc} refuses.
 */
export function readNetrc(o: NetrcOptions): NetrcEntry[] {
  const file = netrcFile(o);
  let text: string;
  try {
    text = readCapped(file);
  } catch (e) {
    if (e instanceof EngineError) throw e;
    const err = e as NodeJS.ErrnoException;
    if (o.optional && err.code === 'ENOENT') return [];
    throw new EngineError('bad-netrc', `${file}: cannot read the .netrc file (${err.code ?? err.message})`, {
      hint: o.file === undefined ? 'Create ~/.netrc (machine HOST login USER password PASS), or use --netrc-optional.' : 'Check the file name after --netrc-file.',
      details: { file, curlExit: 26 },
    });
  }
  return parseNetrc(text, file);
}

/** The largest `.netrc` read, in bytes: a file is a few lines; /dev/zero must not fill memory. */
export const NETRC_MAX_BYTES = 1024 * 1024;

/** The file's text, read in chunks up to {@link NETRC_MAX_BYTES} (a pipe, `<(gpg -d ...)`, works too). */
function readCapped(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.alloc(64 * 1024);
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > NETRC_MAX_BYTES) {
        throw new EngineError('bad-netrc', `${file}: larger than ${NETRC_MAX_BYTES} bytes, not a .netrc file`, { hint: 'Give the .netrc file itself.', details: { file, curlExit: 26 } });
      }
      chunks.push(buf.subarray(0, n));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function bad(name: string, line: number, what: string, hint: string): EngineError {
  return new EngineError('bad-netrc', `${name}:${line}: ${what}`, { hint, details: { file: name, line, curlExit: 26 } });
}
