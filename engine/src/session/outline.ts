/**
 * `sheet/outline`: the requests and variable declarations of a sheet with their lines, what an
 * editor moves, folds and jumps by (sheet-mode's C-c C-n, TAB, C-c C-g; docs/protocol.md).
 *
 * A block the parser refused (`Block.error` and no request: an unknown method, a request line
 * without URL, an unbalanced `run-hook` form, a `.http` line the engine cannot send) is still a
 * request of the outline (issue 37 item 6: before, C-c C-n jumped over it, the jump lists left
 * it out and TAB could not fold it): its request line is its first line that is not blank, a
 * comment (`#`, `//`) or a variable declaration (`:name`, `@name`), and `refused` carries the
 * parser's message, so a jump list can say why it will not be sent.
 */
import type { Sheet } from '../sheet/ast.js';
import { promptsOf } from '../resolve/resolve-http.js';
import type { Outline, OutlineRequest } from './query-types.js';

/** A request line as written: method, target, an optional ` HTTP/x` at the end. */
const LINE = /^(\S+)(?:[ \t]+(.*?))?(?:[ \t]+HTTP\/\d+(?:\.\d+)?)?[ \t]*$/;
/** Lines that cannot be a block's request line. */
const NOT_REQUEST = /^(?:[ \t]*$|#|\/\/|[:@][^ \t])/;

/** The outline entry of a block the parser refused, or undefined when it has no line to show. */
function refusedEntry(lines: string[], startLine: number, endLine: number, message: string): OutlineRequest | undefined {
  for (let l = startLine; l <= endLine; l++) {
    const text = lines[l - 1] ?? '';
    if (NOT_REQUEST.test(text)) continue;
    const m = LINE.exec(text.trim());
    return { method: m?.[1] ?? text.trim(), url: m?.[2] ?? '', line: l, startLine, endLine, refused: message };
  }
  return undefined;
}

/**
 * The outline of `sheet`, parsed from `text` (`Session.outline`).
 * @returns the requests in line order (refused ones included, with `refused`), the variable
 *   declarations and the diagnostics.
 */
export function outlineOf(sheet: Sheet, text: string): Outline {
  const requests: OutlineRequest[] = sheet.requests.map((r) => ({
    method: r.method,
    url: r.url,
    line: r.line,
    startLine: r.startLine,
    endLine: r.endLine,
    ...(r.body ? { bodyLine: r.body.line } : {}),
    ...(r.websocket ? { websocket: true } : {}),
    ...(sheet.syntax === 'http' && promptsOf(r).length ? { prompts: promptsOf(r) } : {}),
  }));
  const refusedBlocks = sheet.blocks.filter((b) => b.error && !b.request);
  if (refusedBlocks.length) {
    const lines = text.split(/\r?\n/);
    for (const b of refusedBlocks) {
      const entry = refusedEntry(lines, b.startLine, b.endLine, b.error!.message);
      if (entry) requests.push(entry);
    }
    requests.sort((a, b) => a.line - b.line);
  }
  return {
    requests,
    variables: sheet.vars.map((v) => ({ ...v })),
    diagnostics: sheet.diagnostics.map((d) => ({ ...d })),
  };
}
