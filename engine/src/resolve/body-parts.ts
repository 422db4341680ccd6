/**
 * Bodies that mix text with `< path` lines, one rule for `.sheet` and `.http` requests
 * (docs/sheet-format.md "Multipart bodies", docs/http-files.md): the multipart/form-data form
 * of the JetBrains HTTP Client and VS Code REST Client (RFC 7578), which `sheet import-curl`
 * also writes for curl's `-F`. The lines of a multipart body are joined with `\r\n`, each
 * `< path` line replaced by the file's bytes as they are, `<@ path` by the file read as text
 * (UTF-8 or the encoding after `<@`) with variables substituted.
 */
import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import type { BodyPart } from '../sheet/ast.js';
export { isMultipart } from '../sheet/body-parts.js';
import { EngineError } from '../errors.js';
import { expandPath } from './url-path.js';

/**
 * The bytes of a file named in a request body.
 * @throws EngineError `file-unreadable` naming the line and the file.
 */
export async function readBodyFile(file: string, line: number): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new EngineError('file-unreadable', `cannot read body file ${file}${code ? ` (${code})` : ''}`, {
      line,
      hint: code === 'ENOENT' ? 'Check the path; it is relative to the directory of the sheet or .http file.' : 'Check the file\'s permissions.',
      details: { path: file },
    });
  }
}

/**
 * Bytes decoded as text in `encoding` (a WHATWG Encoding label; default UTF-8).
 * @throws EngineError `bad-argument` naming the line for an unknown encoding.
 */
export function textOf(buf: Buffer, encoding: string | undefined, line: number): string {
  try {
    return new TextDecoder(encoding || 'utf-8').decode(buf);
  } catch {
    throw new EngineError('bad-argument', `unknown text encoding ${encoding}`, { line, hint: 'Write <@ path (UTF-8) or an encoding name such as <@latin1 path.' });
  }
}

/** A text body of a multipart request: its line ends as `\r\n` (RFC 7578 section 4.1, RFC 2046). */
export const multipartText = (text: string): string => text.replace(/\r?\n/g, '\r\n');

/**
 * The bytes of a `parts` body: text parts substituted, files read relative to `baseDir`,
 * parts joined by `\r\n` when `multipart`, else `\n`.
 * @param sub the request's substitution (`:name` in a sheet, `{{name}}` in a `.http` file).
 * @throws EngineError `file-unreadable`, `bad-argument` (an unknown `<@encoding`), naming the line.
 */
export async function partsBody(parts: BodyPart[], multipart: boolean, sub: (text: string, line: number) => string, baseDir: string): Promise<Buffer> {
  const eol = multipart ? '\r\n' : '\n';
  const chunks: Buffer[] = [];
  for (const [i, p] of parts.entries()) {
    if (i > 0) chunks.push(Buffer.from(eol));
    if (p.kind === 'text') chunks.push(Buffer.from(sub(p.text, p.line).replace(/\r?\n/g, eol), 'utf8'));
    else {
      const buf = await readBodyFile(expandPath(sub(p.path, p.line), baseDir), p.line);
      chunks.push(p.substitute ? Buffer.from(sub(textOf(buf, p.encoding, p.line), p.line), 'utf8') : buf);
    }
  }
  return Buffer.concat(chunks);
}

/**
 * A synchronous reader of the files a curl command names (`-d @file`, `-b FILE`) for
 * `curlToSheet` (../curl/from-curl.ts): paths relative to `dir` (where curl would run), `~`
 * as the home directory. A file that cannot be read (missing, a directory, no permission)
 * reads as empty, as curl reads it (it sends no data, no cookies from it); undefined for a
 * file over `maxBytes`, which is never read whole into memory.
 */
export function curlFileReader(dir: string, maxBytes = 1024 * 1024): (name: string) => Uint8Array | undefined {
  return (name) => {
    try {
      const file = expandPath(name, dir);
      if (fsSync.statSync(file).size > maxBytes) return undefined;
      return fsSync.readFileSync(file);
    } catch {
      return new Uint8Array(0);
    }
  };
}
