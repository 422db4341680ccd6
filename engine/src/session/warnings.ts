/**
 * The warnings of a request itself, which an answer lists before its hooks' (`HookResults`,
 * hooks/results.ts): the parser's warnings inside the request's block (e.g. lines ignored after
 * a file body; docs/sheet-format.md, docs/http-files.md), then the references the substitution
 * passes left (`vars-cycle`, `vars-unresolved`; resolve/substitute.ts), each with its line.
 */
import type { RequestNode, Sheet } from '../sheet/ast.js';
import type { SubstitutionWarning } from '../resolve/substitute.js';
import type { HookNode } from '../sheet/ast.js';
import type { HookResults } from './types.js';
import { SPILL_MIN_BYTES } from './spill.js';

/** Hooks that read the response body (the others read the status, headers or time). */
const BODY_HOOKS = new Set(['jq-set-var', 'expect-jq', 'expect-body', 'run-hook']);
/**
 * The {@link BODY_HOOKS} the engine itself runs. `run-hook` forms are Lisp the client evaluates:
 * Emacs in its response buffer, which holds a spilled body too (sheet-mode inserts the file);
 * only `sheet run` (`Session.spillBigBodies`) hands them the body it kept, none when spilled.
 */
const ENGINE_BODY_HOOKS = new Set(['jq-set-var', 'expect-jq', 'expect-body']);

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

/**
 * The `body-not-read` warning of a body that went to a file as it came (spill.ts; never whole in
 * memory) when a hook would read it: hooks read a body held in memory, so they saw an empty one.
 * @param size the spilled body's size in bytes.
 * @param spillBigBodies whether the client is `sheet run` (its `run-hook` forms read the kept body too).
 * @returns the warning at the first such hook's line, or undefined when no hook reads the body.
 */
export function bodyNotRead(hooks: HookNode[], size: number, spillBigBodies: boolean): HookResults['warnings'][number] | undefined {
  const blind = spillBigBodies ? BODY_HOOKS : ENGINE_BODY_HOOKS;
  const first = hooks.find((h) => blind.has(h.name));
  if (!first) return undefined;
  const line = first.line;
  return { line, code: 'body-not-read', message: `line ${line}: the body (${size} bytes) is over ${SPILL_MIN_BYTES / 1048576} MiB and was not kept in memory, so hooks that read it (${[...blind].join(', ')}) saw an empty body` };
}
