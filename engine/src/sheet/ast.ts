/**
 * The sheet AST. Parsing is pure (text in, AST + diagnostics out). Every node keeps its 1-based
 * line range; templates (URL, header values, bodies) are kept as text with their `:name`
 * placeholders until `resolve/`. Grammar and examples: docs/sheet-format.md.
 */
import type { ErrorCode } from '../errors.js';

/** A variable declaration (`:name = value`, `:name := form`, or their `<<` multi-line forms). */
export interface VarDecl {
  /** The name including its leading colon, e.g. `:host`. */
  name: string;
  /** `literal` for `=`, `lisp` for `:=` (evaluated by the client, in Emacs). */
  kind: 'literal' | 'lisp';
  multiline: boolean;
  /** The value text (literal) or the Lisp form's source (lisp); multi-line without the last newline. */
  value: string;
  /** Line of the declaration. */
  line: number;
  /** Last line: the closing `#` line of a multi-line declaration, else `line`. */
  endLine: number;
}

/** A header line `Name: value`, or a line `:name` that inserts the headers held in a variable. */
export type HeaderItem =
  | { kind: 'header'; name: string; value: string; line: number }
  | { kind: 'use-var'; name: string; line: number };

/** A hook line `-> name args`; `run-hook` forms may continue over several lines. */
export interface HookNode {
  name: string;
  /** Everything after the hook name, trimmed (for run-hook: the whole Lisp form). */
  args: string;
  line: number;
  endLine: number;
}

/** The request body: text (a template), or `< path` (the file's bytes). */
export type BodyNode =
  | { kind: 'text'; text: string; line: number; endLine: number }
  | { kind: 'file'; path: string; line: number };

export interface RequestNode {
  /** Upper-case method of the request line. */
  method: string;
  /** The URL template as written (trimmed). */
  url: string;
  /** Line of the request line. */
  line: number;
  /** First line of the request's block (after the previous `#` line or the file start). */
  startLine: number;
  /** Last line of the block (before the next `#` line or the end of the text). */
  endLine: number;
  headers: HeaderItem[];
  hooks: HookNode[];
  body?: BodyNode;
}

export interface Diagnostic {
  code: ErrorCode;
  severity: 'error' | 'warning';
  message: string;
  line: number;
  hint?: string;
}

/** A block: the lines between two `#` lines. It holds at most one request. */
export interface Block {
  startLine: number;
  endLine: number;
  request?: RequestNode;
  /** An error that makes this block's request unusable (e.g. unknown method). */
  error?: Diagnostic;
}

export interface Sheet {
  /** Every variable declaration, in text order. */
  vars: VarDecl[];
  /** Every request, in text order. */
  requests: RequestNode[];
  blocks: Block[];
  diagnostics: Diagnostic[];
  lineCount: number;
}
