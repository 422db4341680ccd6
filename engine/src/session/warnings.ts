/**
 * The warnings of a request itself, which an answer lists before its hooks' (`HookResults`,
 * hooks/results.ts): the parser's warnings inside the request's block (e.g. lines ignored after
 * a file body; docs/sheet-format.md, docs/http-files.md), then the references the substitution
 * passes left (`vars-cycle`, `vars-unresolved`; resolve/substitute.ts), each with its line.
 */
import type { RequestNode, Sheet } from '../sheet/ast.js';
import type { SubstitutionWarning } from '../resolve/substitute.js';
import type { HookResults } from './types.js';

/**
 * The warnings of request `node` of `sheet`, and those its resolving left (`left`).
 * @returns `{line, code, message}` entries, messages starting `line N: `.
 */
export function requestWarnings(sheet: Sheet, node: RequestNode, left: SubstitutionWarning[]): HookResults['warnings'] {
  const out: HookResults['warnings'] = [];
  for (const d of sheet.diagnostics) {
    if (d.severity === 'warning' && d.line >= node.startLine && d.line <= node.endLine) {
      out.push({ line: d.line, code: d.code, message: `line ${d.line}: ${d.message}` });
    }
  }
  for (const w of left) out.push({ line: w.line ?? node.line, code: w.code, message: w.message });
  return out;
}
