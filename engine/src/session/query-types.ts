/**
 * The session's questions about a sheet besides sending it (issue 24; split from types.ts): its
 * outline, the variables visible at a line, the request as a curl command line or as code for
 * another tool, and a `.http` file's environments. Plain data, JSON-ready; types.ts re-exports
 * them, so front ends import every session type from one place. Conventions as in types.ts.
 */
import type { VarDecl } from '../sheet/ast.js';
import type { RequestContext, Settings } from './settings-types.js';

export interface OutlineRequest {
  method: string;
  url: string;
  line: number;
  startLine: number;
  endLine: number;
  /** Where the body starts, when there is one (for outline hiding). */
  bodyLine?: number;
  /** A WebSocket request (issue 40): an editor opens a session buffer for it (`ws/open`). */
  websocket?: boolean;
  /**
   * `.http` files: the request's `# @prompt name [description]` lines, when it has any; the
   * client asks for each value and sends the answers as `prompts` (`sheet/send`, `sheet/curl`).
   */
  prompts?: { name: string; description: string; line: number }[];
  /**
   * A request the parser refused (its block's error message): still in the outline, so an
   * editor moves to it, lists it and folds it (issue 37 item 6; outline.ts).
   */
  refused?: string;
}
/** A variable declaration of the outline: the parser's own (sheet/ast.ts). */
export type OutlineVariable = VarDecl;
/** The requests, variable declarations and diagnostics of a sheet (`Session.outline`). */
export interface Outline {
  requests: OutlineRequest[];
  variables: OutlineVariable[];
  diagnostics: { line: number; code: string; severity: 'error' | 'warning'; message: string; hint?: string }[];
}

/** Where to look up variables (`Session.variables`). */
export interface VariablesInput {
  text: string;
  line: number;
  /** The file's name: its extension picks the syntax (`.http`/`.rest`), as in `sheet/send`. */
  path?: string;
  /** `.http` files: the environment, as in `sheet/send`. */
  env?: string;
  settings?: Settings;
  /** Echoed in the `lisp/eval` requests sent while serving this request. */
  context?: RequestContext;
  /** True: a look-up for an editor's hints (Eldoc): no `:=` form is evaluated (its value is absent, with an error). */
  lookup?: boolean;
}

/** The overrides and the variables visible at a line, resolved (`Session.variables`). */
export interface VariablesOutput {
  /** Values set by hooks or `sheet-set-var`, for this engine session. */
  overrides: { name: string; value: string }[];
  /** Variables visible at `line`, each with its value after substitution (or the error). */
  variables: {
    name: string;
    kind: 'literal' | 'lisp';
    line: number;
    raw: string;
    value?: string;
    error?: string;
    /** With `value`: the references left in it after the pass limit (`vars-cycle`, `vars-unresolved` messages). */
    warning?: string;
  }[];
  /**
   * `.http` files: the chosen environment's variables (`$shared` under it, the `.env` values
   * below), each substituted, `secret` when a private environment file gives it (issue 37
   * item 8: Eldoc shows them from the first look-up, a secret masked).
   */
  environment?: { name: string; value?: string; error?: string; secret?: boolean }[];
  /** Hook types the engine knows. */
  hookTypes: { name: string; args: string; doc: string }[];
}

/** The request to write as a curl command line (`Session.curl`). */
export interface CurlInput {
  text: string;
  line: number;
  path?: string;
  /** `.http` files: the environment, as in `sheet/send`. */
  env?: string;
  /** `.http` files: answers to `# @prompt` lines, as in `sheet/send`. */
  prompts?: Record<string, string>;
  settings?: Settings;
  /** Echoed in the `lisp/eval` requests sent while serving this request. */
  context?: RequestContext;
  /**
   * True: a look-up for an editor's hints (Eldoc): no `:=` form is evaluated (a reference to
   * one is a `lisp-unavailable` error) and no `.http` pre-request script runs.
   */
  lookup?: boolean;
}

export interface CurlOutput {
  /** A bash command line that reproduces the request exactly. */
  command: string;
  /** The request's URL after substitution. */
  url: string;
}

/** The request to write as code for another language or tool (`Session.code`; ../snippet/to-code.ts). */
export interface CodeInput extends CurlInput {
  /** A target name of `codeTargets()` (`python`, `javascript`, `go`, `httpie`, `powershell`, ...). */
  target: string;
}
export interface CodeOutput {
  /** The request as code for the target, ending with a newline. */
  code: string;
  /** The request's URL after substitution. */
  url: string;
}

/** The `.http` file whose environments are listed (`Session.environments`). */
export interface EnvironmentsInput {
  /** The `.http` file; the environment files are looked for from its directory up. */
  path?: string;
}

export interface EnvironmentsOutput {
  /** Every environment name the files define (without `$shared`), sorted. */
  names: string[];
  /** The environment files found, nearest first. */
  files: string[];
}
