/**
 * Request model -> sheet text (docs/sheet-format.md): the request line `METHOD URL`, one
 * `Name: value` line per header, an empty line and the body; requests separated by `#` lines.
 * Used by the client library's `Client.record()`/`stop()`. Browser-safe (no Node imports): the
 * client library bundles it into dist/client.js.
 */
import { EngineError } from '../errors.js';
import type { Request } from '../model.js';
import { AS_WRITTEN_TAG, urlWithTarget } from '../url/as-written.js';

/**
 * The sheet lines of a body. The parser drops the body's last newline and ends a body at a
 * line starting with `#`, reads `\r` as a line end and a first line `< name` as a file body.
 * @throws EngineError `bad-argument` for a body a sheet cannot hold (naming why), with `hint`.
 */
export function sheetBodyLines(body: string, hint: string): string[] {
  const bad = (message: string) => new EngineError('bad-argument', message, { hint });
  if (body.includes('\r')) throw bad('the body holds a carriage return, which a sheet body cannot (it reads \\r as a line end)');
  const lines = body.split('\n');
  const hash = lines.findIndex((l) => l.startsWith('#'));
  if (hash >= 0) throw bad(`the body's line ${hash + 1} starts with #, which ends a sheet request`);
  if (/^<[ \t]*([^<>\n\r]+?)[ \t]*$/.test(lines[0]!)) throw bad('the body starts with "<", which a sheet reads as a file name');
  return lines;
}

/**
 * One request as sheet text (no trailing separator); a request with a `target` sent as written
 * gets `# @no-auto-encoding` above it. A text body is written as is; bytes must
 * be valid UTF-8; a body read from a file (bytes with a `path` other than `-`) is written as
 * the file body line `< path`.
 * @throws EngineError `bad-argument` when the body cannot be written in a sheet.
 */
export function requestToSheet(req: Request): string {
  // A target sent as written keeps its bytes in the sheet: the tag, and the URL as written.
  const lines = req.target !== undefined ? [`# @${AS_WRITTEN_TAG}`, `${req.method} ${urlWithTarget(req.url, req.target)}`] : [`${req.method} ${req.url}`];
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  if (req.body?.kind === 'bytes' && req.body.path && req.body.path !== '-') {
    lines.push('', `< ${req.body.path}`);
  } else if (req.body) {
    const hint = 'Send this request from a file body (`< path`) instead.';
    let text: string;
    if (req.body.kind === 'text') text = req.body.text;
    else {
      try {
        text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(req.body.bytes);
      } catch {
        throw new EngineError('bad-argument', `${req.method} ${req.url}: the body is not UTF-8 text, which a sheet body cannot hold`, { hint });
      }
    }
    lines.push('', ...sheetBodyLines(text, hint));
  }
  return lines.join('\n');
}

/** Several requests as one sheet: each followed by a `#` line, so `sheet run` sends them all in order. */
export function requestsToSheet(reqs: Request[]): string {
  return reqs.map((r) => requestToSheet(r) + '\n#\n').join('');
}
