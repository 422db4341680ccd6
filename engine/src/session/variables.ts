/**
 * The variables of a sheet at a line, as an editor shows them (C-c C-i, Eldoc): each
 * declaration visible there (the last one of a name wins), with its value after substitution,
 * or why it has none (a Lisp value on a client without Lisp, a reference left after the pass
 * limit). `.http` files have theirs in http-file.ts (`httpVariables`).
 */
import type { Sheet } from '../sheet/ast.js';
import { requestAt, varsBefore } from '../sheet/parse.js';
import { isUnevaluated, variableValues, type ResolveOptions } from '../resolve/resolve.js';
import { Substitution, type SubstitutionWarning } from '../resolve/substitute.js';
import { isEngineError } from '../errors.js';
import type { VariablesOutput } from './types.js';

/**
 * The declarations above `line` (above the request at `line` when it is on one), resolved with
 * `opts` (overrides, `evalLisp`, the pass limit; resolve/resolve.ts).
 * @throws EngineError `lisp-error` when the client fails to evaluate a `:=` form.
 */
export async function sheetVariables(sheet: Sheet, line: number, opts: Pick<ResolveOptions, 'overrides' | 'evalLisp' | 'maxPasses'>): Promise<VariablesOutput['variables']> {
  // Variables above the line (or above the request at point).
  let decls = sheet.vars.filter((v) => v.line < line);
  try {
    decls = varsBefore(sheet, requestAt(sheet, line));
  } catch {
    // not on a request: the declarations above the line
  }
  const latest = new Map(decls.map((d) => [d.name, d]));
  const { values } = await variableValues(decls, opts);
  const sub = new Substitution(values, opts.maxPasses);
  const variables: VariablesOutput['variables'] = [];
  for (const d of latest.values()) {
    const v = values.get(d.name) ?? '';
    const entry: VariablesOutput['variables'][number] = { name: d.name, kind: d.kind, line: d.line, raw: d.value };
    if (isUnevaluated(v)) entry.error = 'Lisp value: evaluated only in Emacs';
    else {
      try {
        const left: SubstitutionWarning[] = [];
        entry.value = sub.apply(v, d.line, left);
        if (left.length) entry.warning = left.map((w) => w.message).join('; ');
      } catch (e) {
        entry.error = isEngineError(e) ? e.message : String(e);
      }
    }
    variables.push(entry);
  }
  return variables;
}
