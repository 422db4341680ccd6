/**
 * What `sheet import-curl` reads from the files a curl command names, by curl's rules
 * (curl's manual, -d and -b; the bytes in ./rules.ts): data options' files (`-d @file` without
 * its line breaks, `--data-urlencode name@file` encoded, `--data-binary @file` as a `< file`
 * body) and `-b FILE` cookie files. The import does no I/O: the caller hands a reader.
 */
import { EngineError } from '../errors.js';
import { fileCookieString } from './cookie-file.js';
import type { CurlArg } from './command-line.js';
import type { DataPart } from './options.js';
import { dataFile, fileDataBytes, urlencodeData } from './rules.js';

const bad = (message: string, hint: string) => new EngineError('bad-argument', message, { hint });

/**
 * Reads a file a command names (`-d @file`, `-b FILE`), relative to where curl would run; the
 * file's bytes (none for a file curl cannot read either), or undefined when it is too big to
 * read here.
 */
export type CurlFileReader = (name: string) => Uint8Array | undefined;

/** What the import may read: the caller's files (the import itself does no I/O). */
export interface CurlImportIo {
  readFile?: CurlFileReader;
}

/** The largest file the import writes into a body (bigger ones stay `< file` bodies). */
const INLINE_FILE_MAX = 64 * 1024;

/**
 * The data options as curl joins them: text, or one file read as the whole body. A file whose
 * bytes curl changes (`-d @file` drops line breaks; `--data-urlencode @file` encodes) is read
 * through `readFile` and its data written into the body, joined with the other data as curl
 * joins it; without `readFile` (or when the file cannot be read) the body is `< file` and a
 * warning says what differs.
 */
export function dataBody(parts: DataPart[], warn: (m: string) => void, note: (m: string) => void, readFile?: CurlFileReader): { body?: string; file?: string; json: boolean } {
  const json = parts.some((p) => p.kind === 'json');
  if (parts.length === 0) return { json };
  const texts: string[] = [];
  const files: string[] = [];
  for (const p of parts) {
    const name = dataFile(p);
    if (name === undefined) {
      texts.push(p.kind === 'urlencode' ? urlencodeData(p.value)! : p.value);
      continue;
    }
    const what = `${optionOf(p)} ${p.value}`;
    if (name === '-') throw bad(`${what}: the body is read from standard input, which a sheet cannot`, 'Save the body to a file and write @file.');
    const bytes = readFile?.(name);
    const changed = p.kind === 'data' || p.kind === 'ascii' || p.kind === 'urlencode';
    // A file curl sends as it is stays a `< file` body when it is the whole body.
    // A file curl sends as it is stays `< file`, read when the request is sent; one curl changes
    // is written in (an empty or missing one is no data to curl: nothing to read again).
    const whole = parts.length === 1 && (!changed || (bytes !== undefined && bytes.length > 0 && !bytes.includes(0x0d) && !bytes.includes(0x0a) && p.kind !== 'urlencode'));
    const text = bytes !== undefined && !whole ? inlineText(fileDataBytes(p, bytes)) : undefined;
    if (text !== undefined) {
      texts.push(text);
      if (bytes!.length === 0) note(`${what}: ${name} is empty, missing or unreadable here: curl sends no data from it (and warns when it cannot read it)`);
      else note(`${what}: the file's data${p.kind === 'urlencode' ? ', URL-encoded,' : p.kind === 'data' || p.kind === 'ascii' ? ' without its line breaks (as curl drops them)' : ''} is written into the body (the sheet does not read ${name} again)`);
      continue;
    }
    files.push(name);
    if (p.kind === 'urlencode') throw bad(`${what}: the content of ${name} cannot be url-encoded in a sheet (${readFile ? 'unreadable, binary or bigger than 64 KiB' : 'the file is not read here'})`, 'Encode the file into the text of the option, or the body of the sheet request.');
    if (changed && !whole) warn(`${what}: curl drops the file's line breaks, the sheet's "< file" body sends the file as it is`);
    if (!/^([/~]|[A-Za-z]:[\\/])/.test(name)) note(`${what}: the sheet reads ${name} relative to the sheet file's directory (curl: the current directory)`);
  }
  if (files.length) {
    if (files.length > 1 || texts.length) throw bad(`the data joins ${files.map((f) => `@${f}`).join(', ')} with other data; a sheet file body is one whole file`, 'Put the whole body into one file and write --data-binary @file.');
    if (!/^[^<>\n\r]*[^<>\s]$/.test(files[0]!.trimStart())) throw bad(`@${files[0]}: a sheet file body cannot name this file (it holds < > or a line break, or ends with a blank)`, 'Rename the file.');
    return { file: files[0]!, json };
  }
  // curl joins data options with '&', except --json ones.
  return { body: texts.join(json ? '' : '&'), json };
}

/** Bytes as body text a sheet can hold: UTF-8, at most {@link INLINE_FILE_MAX}, one line or lines a sheet body keeps. */
function inlineText(bytes: Uint8Array): string | undefined {
  if (bytes.length > INLINE_FILE_MAX) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  if (text.includes('\r') || text.split('\n').some((l) => l.startsWith('#')) || /^<[ \t]*([^<>\n\r]+?)[ \t]*$/.test(text.split('\n')[0]!)) return undefined;
  return text;
}

function optionOf(p: DataPart): string {
  return p.kind === 'data' ? '-d' : p.kind === 'json' ? '--json' : `--data-${p.kind}`;
}

/**
 * curl's `-b FILE` (curl's manual, -b: a word without `=` is a Netscape cookie file; `-j` drops
 * its session cookies): the cookies curl sends from it to `url`, read through `readFile`, for
 * the request's Cookie header. A file that cannot be read here is a warning (curl reads it
 * where it runs), and so is every -b file without a reader.
 */
export function cookiesOfFile(o: CurlArg, url: string, junkSession: boolean, readFile: CurlFileReader | undefined, warn: (m: string) => void, note: (m: string) => void): string[] {
  const what = `${o.written} ${o.arg}`;
  const bytes = readFile?.(o.arg!);
  if (bytes === undefined) {
    warn(`${what}: the cookie file ${readFile ? 'cannot be read here (over 1 MiB)' : 'is not read here'}, so no Cookie header from it was written; \`sheet run --cookie-jar ${o.arg}\` sends the cookies of that file (Netscape format, as curl's)`);
    return [];
  }
  let cookies: string;
  try {
    cookies = fileCookieString(new TextDecoder().decode(bytes), url, junkSession);
  } catch {
    cookies = ''; // a URL tough-cookie cannot match: the resolver names it
  }
  note(`${what}: ${cookies ? `the cookies it holds for this URL are written as a Cookie header` : 'it holds no cookie for this URL (or cannot be read, and curl reads none from it)'}${junkSession ? ' (session cookies left out, -j)' : ''}; \`sheet run --cookie-jar ${o.arg}\` would use the file as the jar instead`);
  return cookies ? [cookies] : [];
}
