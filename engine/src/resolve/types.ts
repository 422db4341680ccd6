/**
 * The types of resolution, shared by the sheet resolver (resolve.ts) and the `.http` one
 * (resolve-http.ts): how `:=` forms are evaluated, the options, and what comes out.
 */
import type { HookNode } from '../sheet/ast.js';
import type { Request } from '../model.js';
import type { SubstitutionWarning } from './substitute.js';
import type { HttpVarContext } from './http-vars.js';
import type { SubstitutedDirective } from '../sheet/connection-tags.js';

/**
 * Evaluate one `:=` form in the client; resolves to the value as a string.
 * @param signal aborted when the request that needs the value is cancelled.
 */
export type EvalLisp = (form: string, decl: LispDecl, signal?: AbortSignal) => Promise<string>;

/**
 * The `:=` declaration being evaluated; `vars`: the variables visible to it (declared above it,
 * then the overrides), substituted, for restclient.el's `restclient-get-var` in the form.
 */
export interface LispDecl {
  name: string;
  line: number;
  vars?: Record<string, string>;
}

export interface ResolveOptions {
  /** Variable overrides (name with colon -> value); they win over declarations. */
  overrides?: ReadonlyMap<string, string>;
  /** How `:=` forms are evaluated; absent on clients without Lisp (the command line). */
  evalLisp?: EvalLisp;
  /** Cancels the resolution (while waiting for the client's Lisp values). */
  signal?: AbortSignal;
  /** Substitution pass limit (default 10). */
  maxPasses?: number;
  /** Directory that `< path` bodies are relative to (the sheet's directory); default cwd. */
  baseDir?: string;
  /** `.http` files only: the `{{...}}` sources (environment, request variables, prompts). */
  http?: HttpVarContext;
}

export interface ResolvedRequest {
  request: Request;
  /** The request's hook lines, for `hooks/`. */
  hooks: HookNode[];
  /** Final variable values used (name -> value), Lisp results included. */
  variables: Map<string, string>;
  /**
   * References left after the pass limit (`vars-cycle`, `vars-unresolved`), in sheet order:
   * the request was resolved all the same, with those references as written.
   */
  warnings: SubstitutionWarning[];
  /**
   * The request's `# @` directives, each connection directive's value substituted by the pass of
   * its header values (../sheet/connection-tags.ts `substitutedDirectives`).
   */
  directives: SubstitutedDirective[];
}
