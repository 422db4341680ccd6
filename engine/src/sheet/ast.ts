/**
 * The sheet AST. Parsing is pure (text in, AST + diagnostics out). Every node keeps its 1-based
 * line range; templates (URL, header values, bodies) are kept as text with their `:name`
 * placeholders until `resolve/`. Grammar and examples: docs/sheet-format.md.
 */
import type { ErrorCode } from '../errors.js';

/** A variable declaration (`:name = value`, `:name := form`, or their `<<` multi-line forms). */
export interface VarDecl {
  /** The name including its leading colon, e.g. `:host`; in `.http` files the bare name (`host` of `@host = ...`). */
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

/**
 * The request body: text (a template), or `< path` (the file's bytes). `.http` files add
 * `<@ path` (file body with variables substituted: `substitute`) and bodies that mix text with
 * `< path` lines (multipart/form-data parts: `parts`).
 */
export type BodyNode =
  | { kind: 'text'; text: string; line: number; endLine: number }
  | { kind: 'file'; path: string; line: number; substitute?: boolean; encoding?: string }
  | { kind: 'parts'; parts: BodyPart[]; line: number; endLine: number };

/** A piece of a `parts` body (`.http` only): a text template, or a `< path` / `<@ path` line. */
export type BodyPart =
  | { kind: 'text'; text: string; line: number }
  | { kind: 'file'; path: string; line: number; substitute?: boolean; encoding?: string };

/** A `# @name value` comment line of a `.http` request (`@name`, `@no-redirect`, `@prompt`, ...). */
export interface Directive {
  name: string;
  value: string;
  line: number;
}

/** A JetBrains response handler (`.http` only): `> {% script %}` or `> ./handler.js`. */
export type ResponseHandler =
  | { kind: 'inline'; source: string; line: number; endLine: number }
  | { kind: 'file'; path: string; line: number; endLine: number };

/** A JetBrains `>> path` (`overwrite` false) or `>>! path` line below a `.http` request: save the response body (session/save-response.ts). */
export interface SaveResponse {
  path: string;
  overwrite: boolean;
  line: number;
}

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
  /** `.http` only: the request's name (`# @name login`, or the text after `###`). */
  name?: string;
  /** `.http` only: that name as written, blanks included (`### list items`): the test's name in reports. */
  title?: string;
  /** The `# @...` directives of the request, in order (a sheet reads `# @no-auto-encoding`, `# @http2` and the connection directives of connection-tags.ts). */
  directives?: Directive[];
  /** `.http` only: response handlers (`> {% ... %}`, `> ./file.js`). */
  handlers?: ResponseHandler[];
  /** `.http` only: the `>> path` / `>>! path` lines, in order: where the response body is saved. */
  saveResponse?: SaveResponse[];
  /** `.http` only: JetBrains pre-request scripts (`< {% ... %}`, `< ./script.js` above the request line). */
  preScripts?: ResponseHandler[];
  /** `.http` only: the HTTP version written at the end of the request line, e.g. `HTTP/1.1`. */
  httpVersion?: string;
  /**
   * `.http` only: the request line's method was JetBrains' `GRAPHQL` (also httpyac's and
   * kulala's): `method` is `POST` and the body is a GraphQL query (resolve/http-graphql.ts).
   */
  graphql?: boolean;
  /** `.http` only: httpyac's `SSE URL` / `EVENTSOURCE URL` request line: the body is read as Server-Sent Events (session/stream.ts). */
  stream?: 'sse';
  /**
   * A WebSocket request (issue 40): JetBrains' `WEBSOCKET URL` line, httpyac's `WS`/`WSS`, in
   * `.http` files and sheets. `method` is `GET` (the handshake's), the headers are the
   * handshake's and the body is the messages (`===`, `=== wait-for-server`:
   * stream-messages.ts); sent by ../ws/, not ../http/.
   */
  websocket?: boolean;
  /**
   * A gRPC call (`GRPC host:port/package.Service/Method`, method `GRPC`): the protos and
   * proto-loader options that describe it (none: server reflection). grpc-lines.ts.
   */
  grpc?: GrpcNode;
}

/** A proto file or import directory as written, with its line. */
export interface GrpcSource {
  file: string;
  line: number;
}

/** What a gRPC request's lines say (sheet/grpc-lines.ts; engine/src/grpc/ reads it). */
export interface GrpcNode {
  /** httpyac's `proto < file` lines and kulala's `# @grpc-proto FILE`, in order. */
  protos: GrpcSource[];
  /** kulala's `# @grpc-import-path DIR` (proto-loader's includeDirs). */
  importPaths: GrpcSource[];
  /** proto-loader's option lines (`keepCase: true`), as written. */
  options: { name: string; value: string; line: number }[];
  /** kulala's `# @grpc-authority NAME`: the `:authority` sent. */
  authority?: string;
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

/** Which surface syntax a {@link Sheet} was parsed from: restclient's (`.sheet`) or `.http`. */
export type SheetSyntax = 'sheet' | 'http';

export interface Sheet {
  /** Absent means `sheet`; `http` means `{{name}}` templates and the `.http` fields above. */
  syntax?: SheetSyntax;
  /** Every variable declaration, in text order. */
  vars: VarDecl[];
  /** Every request, in text order. */
  requests: RequestNode[];
  blocks: Block[];
  diagnostics: Diagnostic[];
  lineCount: number;
}
