/**
 * What the shell verbs remember (docs/shell.md, "History"), in the state directory
 * `$XDG_STATE_HOME/rest` (default `~/.local/state/rest`; shell/rest passes the file names):
 *
 * - `history.sheet` (only with `REST_HISTORY=1`): every call as a sheet request
 *   (src/sheet/write.ts), so a shell session opens in Emacs and replays with C-c C-c.
 *   Authorization, Proxy-Authorization and Cookie values and a password in the URL are masked
 *   unless `REST_HISTORY_SECRETS=1`. Each entry is appended with one write(2) on a file opened
 *   with O_APPEND, so entries from concurrent shells never interleave.
 * - `paths/HOST` (always, unless `-W`): the paths used on that host, for completion; the path
 *   part only (never the query string, a body, a header or a secret), a line each, capped.
 *
 * Directories are created 0700, files 0600. A failure to write is a warning, never a failed call.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Header, Request } from '../model.js';
import { requestToSheet } from '../sheet/write.js';
import { isEngineError } from '../errors.js';

/** Header names whose values are credentials. */
export const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];

// What a masked credential reads as, and secrets masked in any text: ../mask.ts (also used by tokens/).
import { MASK, maskSecrets } from '../mask.js';
export { MASK, maskSecrets };

/** A body above this size is not kept in history.sheet (a comment says so). */
export const HISTORY_BODY_MAX = 64 * 1024;

/** paths/HOST is rewritten (deduplicated, newest kept) when it grows past this many bytes. */
export const PATHS_FILE_MAX = 32 * 1024;
/** How many distinct paths a rewrite keeps. */
export const PATHS_KEEP = 300;
/** Longer paths are not remembered. */
export const PATH_MAX = 1024;

/**
 * A header with its credential masked: `Basic dXNl...` -> `Basic ****` (the scheme stays),
 * `a=1; b=2` -> `a=****; b=****` (the cookie names stay).
 */
export function maskHeader([name, value]: Header): Header {
  const n = name.toLowerCase();
  if (!SECRET_HEADERS.includes(n)) return [name, value];
  if (n === 'cookie') return [name, value.split(';').map((c) => (c.includes('=') ? `${c.slice(0, c.indexOf('='))}=${MASK}` : c)).join(';')];
  // authorization, proxy-authorization
  const m = /^(\s*[A-Za-z][\w!#$%&'*+.^`|~-]*\s+)\S/.exec(value);
  return [name, m ? m[1] + MASK : MASK];
}

/** The URL with the password of its user part masked (`http://me:****@host/`). */
export function maskUrl(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/, `$1${MASK}@`);
}

/** The request with its credentials masked. */
export function maskRequest(req: Request): Request {
  return { ...req, url: maskUrl(req.url), headers: req.headers.map(maskHeader) };
}

/**
 * One history entry: a comment line (time, and why a body is missing), then the request.
 * A body from a file is written as `< /absolute/file`; a body from standard input, a body
 * over {@link HISTORY_BODY_MAX} or one a sheet cannot hold is left out, and the comment says so.
 */
export function historyEntry(req: Request, opts: { secrets: boolean; now?: Date }): string {
  const r = opts.secrets ? req : maskRequest(req);
  const notes: string[] = [];
  let text: string;
  const b = r.body;
  const size = b ? (b.kind === 'text' ? Buffer.byteLength(b.text) : b.bytes.length) : 0;
  if (b && b.kind === 'bytes' && b.path === '-') {
    notes.push('body from standard input, not kept');
    text = requestToSheet({ ...r, body: undefined });
  } else if (b && !(b.kind === 'bytes' && b.path) && size > HISTORY_BODY_MAX) {
    notes.push(`body of ${size} bytes, not kept`);
    text = requestToSheet({ ...r, body: undefined });
  } else {
    try {
      text = requestToSheet(r);
    } catch (e) {
      if (!isEngineError(e)) throw e;
      notes.push(`body not kept: ${e.message.replace(/\n/g, ' ')}`);
      text = requestToSheet({ ...r, body: undefined });
    }
  }
  const when = (opts.now ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  return `# ${when}${notes.length ? ` (${notes.join('; ')})` : ''}\n${text}\n#\n`;
}

/** Create the directory of `file` (0700, parents too) and open `file` for appending (0600). */
function openAppend(file: string): number {
  const flags = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT;
  try {
    // The directory is there after the first call: one open(2), not mkdir's two system calls
    // first (EEXIST, then a stat) on every shell verb call (docs/shell.md, "Per call").
    return fs.openSync(file, flags, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  return fs.openSync(file, flags, 0o600);
}

/** Write all of `data` (one write(2) for any entry of ordinary size). */
function writeAll(fd: number, data: Buffer): void {
  let off = 0;
  while (off < data.length) off += fs.writeSync(fd, data, off, data.length - off);
}

/**
 * Append one request to history.sheet (see the module comment).
 * @returns a warning to show, or undefined.
 */
export function appendHistory(file: string, req: Request, secrets: boolean): string | undefined {
  try {
    const fd = openAppend(file);
    try {
      writeAll(fd, Buffer.from(historyEntry(req, { secrets }), 'utf8'));
    } finally {
      fs.closeSync(fd);
    }
    return undefined;
  } catch (e) {
    return `cannot write the history ${file}: ${(e as Error).message}`;
  }
}

/** The path part to remember: up to `?` or `#`; undefined when there is nothing worth keeping. */
export function pathToRemember(p: string): string | undefined {
  const cut = p.search(/[?#]/);
  const q = cut >= 0 ? p.slice(0, cut) : p;
  if (!q.startsWith('/') || q.length > PATH_MAX || /[\n\r]/.test(q)) return undefined;
  return q;
}

/**
 * Remember a path in the per-host file `file` (see the module comment): appended with one
 * write; when the file is over {@link PATHS_FILE_MAX} it is rewritten with the newest
 * {@link PATHS_KEEP} distinct paths (through a temporary file and rename, so a reader never
 * sees half a file).
 * @returns a warning to show, or undefined.
 */
export function rememberPath(file: string, p: string): string | undefined {
  const keep = pathToRemember(p);
  if (keep === undefined) return undefined;
  try {
    const fd = openAppend(file);
    let size: number;
    try {
      writeAll(fd, Buffer.from(keep + '\n', 'utf8'));
      size = fs.fstatSync(fd).size;
    } finally {
      fs.closeSync(fd);
    }
    if (size > PATHS_FILE_MAX) {
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
      const seen = new Set<string>();
      const newest: string[] = [];
      for (let i = lines.length - 1; i >= 0 && newest.length < PATHS_KEEP; i--) {
        if (!seen.has(lines[i]!)) {
          seen.add(lines[i]!);
          newest.push(lines[i]!);
        }
      }
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, newest.reverse().join('\n') + '\n', { mode: 0o600 });
      fs.renameSync(tmp, file);
    }
    return undefined;
  } catch (e) {
    return `cannot write the path history ${file}: ${(e as Error).message}`;
  }
}
