/**
 * The Emacs <-> engine protocol: every method and payload type, declared once. JSON-RPC 2.0
 * over stdio with Content-Length framing (vscode-jsonrpc here, jsonrpc.el in Emacs).
 * Described for people in docs/protocol.md; keep both in step.
 *
 * Conventions: lines are 1-based; text bodies travel as strings, binary ones as base64 with an
 * explicit `encoding`; durations are in ms; errors are ResponseErrors whose `data` is
 * {@link EngineErrorData} (stable `code`, `line`, `hint`).
 */
import { NotificationType, NotificationType0, RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { WsClose, WsMessage } from '../ws/connect.js';
import type { DocumentRef } from './documents.js';
import type { EngineErrorData } from '../errors.js';

export type { EngineErrorData };

/** JSON-RPC error code used for every engine error (in the server-defined range). */
export const ENGINE_ERROR = -32001;

// ---------------------------------------------------------------------------------------------
// Shared payloads: the session's own types (engine/src/session/types.ts), under the protocol's names

export type { Settings, ProxySetting, ClientCertSetting, RequestContext, WireBody, RequestInfo, ResponseInfo, PresentationInfo, RedirectInfo } from '../session/types.js';
export type { OutlineRequest, OutlineVariable } from '../session/types.js';
import type { Settings, RequestContext, SendInput, SendOutput, Outline, VariablesInput, VariablesOutput, CurlInput, CurlOutput, CodeInput, CodeOutput, EnvironmentsInput, EnvironmentsOutput } from '../session/types.js';
/** `sheet/send`'s parameters: the session's {@link SendInput}. */
export type SendParams = SendInput;
/** `sheet/send`'s result: the session's {@link SendOutput}. */
export type SendResult = SendOutput;
/** `sheet/outline`'s result: the session's {@link Outline}. */
export type OutlineResult = (Outline & { version?: number }) | { version: number; base: number; diff: import('./outline-diff.js').OutlineDiff };
/**
 * `sheet/variables`'s parameters and result: the session's, and for Eldoc's look-ups `doc`, the
 * text kept in step by its changes instead of `text` (docs/protocol.md, "Texts kept in step").
 */
export type VariablesParams = VariablesInput & { doc?: DocumentRef };
export type VariablesResult = VariablesOutput;
/** `sheet/curl`'s parameters and result: the session's, with `doc` as in `sheet/variables`. */
export type CurlParams = CurlInput & { doc?: DocumentRef };
export type CurlResult = CurlOutput;
/** `sheet/environments`'s parameters and result: the session's. */
export type EnvironmentsParams = EnvironmentsInput;
export type EnvironmentsResult = EnvironmentsOutput;

/** What the request's hooks produced, and one assertion's result: defined with the hooks (hooks/results.ts). */
export type { Assertion, HookResults } from '../hooks/results.js';
/** `sheet/send`'s `jq` and its answer: defined with the hooks (hooks/jq-filter.ts). */
export type { JqFilterResult, JqFilterSpec } from '../hooks/jq-filter.js';

// ---------------------------------------------------------------------------------------------
// Client -> engine

export interface InitializeParams {
  /** e.g. "sheet-mode" */
  clientName: string;
  clientVersion?: string;
  /** Whether the client can evaluate `:=` Lisp forms (answers `lisp/eval`). */
  lisp: boolean;
  settings?: Settings;
}
export interface InitializeResult {
  serverName: string;
  version: string;
}
/** First message: the client's capabilities (Lisp or not) and initial settings. */
export const Initialize = new RequestType<InitializeParams, InitializeResult, EngineErrorData>('initialize');

/** Stop work; the engine answers null and exits on the `exit` notification. */
export const Shutdown = new RequestType0<null, void>('shutdown');
/** After `shutdown`: the engine exits with status 0. */
export const Exit = new NotificationType0('exit');

/**
 * Change settings for the rest of the session (same shape as in initialize). Answers null once
 * they are in place, a new cookie jar file loaded; requests that arrive after it use them.
 */
export const SetSettings = new RequestType<Settings, null, EngineErrorData>('settings/set');

/** Parse the sheet, resolve the request at `line`, send it, present the response, run hooks. */
export const SheetSend = new RequestType<SendParams, SendResult, EngineErrorData>('sheet/send');

/** `sheet/streamEvents`'s parameters: the events of a streamed `sheet/send` since the last notification. */
export interface StreamEventsParams {
  /** The `context` of the `sheet/send` whose response this is. */
  context: RequestContext;
  /** In the first notification only: the response head (status and headers come before any event). */
  head?: { method: string; url: string; status: number; statusText: string; headers: [string, string][]; httpVersion: string };
  /**
   * The batch's events as a person reads them, each followed by an empty line: `event:`/`id:`
   * lines when present, then the data, JSON re-indented (malformed events raw). One string, not
   * one object per event: Emacs parses each notification at once, and a fast stream's thousands
   * of small objects cost it garbage collections of 100 ms and more (docs/benchmarks.md, "Streams").
   */
  text: string;
  /** Events in this batch. */
  events: number;
  /** Events so far. */
  count: number;
  /** Since the request started, in ms. */
  elapsedMs: number;
}
/**
 * Engine -> client notification: a streamed response's events (SSE, NDJSON, `# @accept
 * chunked`) as they arrive, batched (the chunks that arrived together), before `sheet/send`
 * answers with all the kept events and `stream` (how it ended). Sent only when the send has a `context`.
 */
export const StreamEvents = new NotificationType<StreamEventsParams>('sheet/streamEvents');

export interface OutlineParams {
  /** The text, or empty when `doc` gives it (documents.ts). */
  text: string;
  /** The text kept in step by its changes instead (docs/protocol.md, "Texts kept in step"). */
  doc?: DocumentRef;
  /** The file's name: its extension picks the syntax (`.http`/`.rest`), as in `sheet/send`. */
  path?: string;
  /** With `doc`: the `version` of the last answer the client kept; the answer is then its changes when the engine has it (outline-diff.ts). */
  since?: number;
}
/** The requests and variable declarations of a sheet (navigation, outline, helm). */
export const SheetOutline = new RequestType<OutlineParams, OutlineResult, EngineErrorData>('sheet/outline');

/** Variables at point with resolved values, and the overrides (C-c C-i). */
export const SheetVariables = new RequestType<VariablesParams, VariablesResult, EngineErrorData>('sheet/variables');

export interface CompletionsParams {
  /** The text, or empty when `doc` gives it (documents.ts). */
  text: string;
  /** The text kept in step by its changes instead (docs/protocol.md, "Texts kept in step"). */
  doc?: DocumentRef;
  /** The line of point: a sheet's declarations below it are not offered. */
  line: number;
  /** The file's name: its extension picks the syntax (`.http`/`.rest`), as in `sheet/send`. */
  path?: string;
  /** `.http` files: the environment whose names are offered, as in `sheet/send`. */
  env?: string;
}
/** A variable completion offers. */
export interface CompletionVariable {
  /** As written in a reference: `:name` in a sheet, `name` or `$system` in `{{...}}` of `.http` files. */
  name: string;
  /** Where it comes from: a declaration (`line`), the session's overrides, the environment, a system variable. */
  source: 'declared' | 'override' | 'environment' | 'system';
  line?: number;
  /** System variables: the arguments they take (`min max`). */
  args?: string;
}
export interface CompletionsResult {
  syntax: 'sheet' | 'http';
  /** Each name once, in the order: declarations (nearest above point first), overrides, environment, system. */
  variables: CompletionVariable[];
  /** The request line's methods: restclient's eight in a sheet; in a `.http` file also CONNECT, WebDAV's, DeltaV's, ... and `GRAPHQL` (`HTTP_FILE_REQUEST_METHODS`). */
  methods: string[];
  /** Request header names (the IANA HTTP Field Name Registry and a few de facto ones). */
  headers: string[];
  /** Common values by lower-case header name (`content-type`: `application/json`, ...). */
  headerValues: Record<string, string[]>;
  /** Hook types of the sheet syntax (`jq-set-var`, `expect-status`, ...); none in `.http` files. */
  hooks: { name: string; args: string }[];
}
/**
 * The names completion offers at point (issue 25 item 2; engine/src/emacs/completions.ts). A pure
 * look-up: no Lisp evaluated, nothing sent.
 */
export const SheetCompletions = new RequestType<CompletionsParams, CompletionsResult, EngineErrorData>('sheet/completions');

/** `sheet/grpcMethods`'s parameters: `sheet/completions`' (the request at `line` gives the proto lines) and the address. */
export interface GrpcMethodsParams extends CompletionsParams {
  /** What follows `GRPC` on the request line, up to its first `/`: `host:port`, `grpc://host:port`, `grpcs://host`. */
  address: string;
}
export interface GrpcMethodsResult {
  /** Services sorted by name (`demo.Echo`), each with its methods in proto order and their kind. */
  services: { name: string; methods: { name: string; kind: 'unary' | 'server-streaming' | 'client-streaming' | 'bidi-streaming' }[] }[];
}
/**
 * The services and methods a `GRPC` request line can name (issue 41; engine/src/grpc/catalog.ts):
 * from the proto lines of the request at `line`, else by server reflection at `address`; kept
 * per address and protos. Errors: the proto's (`bad-proto`, `file-unreadable`), or the server's
 * (`connection-refused`, `network-error`, `no-reflection`).
 */
export const SheetGrpcMethods = new RequestType<GrpcMethodsParams, GrpcMethodsResult, EngineErrorData>('sheet/grpcMethods');

/** The request at point as a curl command line (C-c C-u). */
export const SheetCurl = new RequestType<CurlParams, CurlResult, EngineErrorData>('sheet/curl');

export interface DiagnosticsParams {
  /** The text, or empty when `doc` gives it (documents.ts). */
  text: string;
  /** The text kept in step by its changes instead (docs/protocol.md, "Texts kept in step"). */
  doc?: DocumentRef;
  path?: string;
  /** `.http` files: the chosen environment, whose names count as defined. */
  env?: string;
}
/** One diagnostic: 1-based lines, columns in code points (Emacs characters); `endColumn` exclusive. */
export interface DiagnosticOut {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  code: string;
  severity: 'error' | 'warning';
  message: string;
  hint?: string;
}
/**
 * The diagnostics of a sheet while it is edited (Flymake; issue 25 item 4; engine/src/lint/):
 * the parser's, undefined variables, malformed assertions, unknown hooks, JSON bodies that do
 * not parse, duplicate `.http` request names. Pure: nothing is evaluated or sent.
 */
export const SheetDiagnostics = new RequestType<DiagnosticsParams, { diagnostics: DiagnosticOut[] }, EngineErrorData>('sheet/diagnostics');

/** `sheet/code`'s parameters (`target`: a name of `sheet/codeTargets`) and result: the session's. */
export type CodeParams = CodeInput;
export type CodeResult = CodeOutput;
/**
 * The request at point as code in another language or tool (C-c C-S-u; engine/src/snippet/),
 * from the same resolved request as `sheet/curl`. Errors: `bad-argument` for an unknown target
 * or a binary body, and those of `sheet/curl`.
 */
export const SheetCode = new RequestType<CodeParams, CodeResult, EngineErrorData>('sheet/code');
/** The targets `sheet/code` knows: `{name, title}`, short names first. */
export const SheetCodeTargets = new RequestType<Record<string, never> | undefined, { targets: { name: string; title: string }[] }, EngineErrorData>('sheet/codeTargets');

export interface FromCurlParams {
  /** A curl command line as typed in bash (`curl -H 'A: b' https://h/x`, `\` continuations allowed). */
  command: string;
  /** The file the request goes into: its name picks the syntax (docs/http-files.md "Which parser"). */
  path?: string;
  /** That file's text, for the first-line syntax marker. */
  text?: string;
}
export interface FromCurlResult {
  /**
   * The request: `METHOD URL`, `Name: value` lines, an empty line and the body; ends with a
   * newline. Several requests (curl's URL globs) are separated by `separator` lines.
   */
  text: string;
  /** What the command does that the request does not carry, each naming the option. */
  warnings: { message: string }[];
  /** The line that separates requests in the file's syntax: `#` (sheet) or `###` (`.http`). */
  separator: string;
}
/**
 * A curl command line as a request (`sheet-yank-curl`, C-c C-y; engine/src/curl/from-curl.ts,
 * the converter `sheet import-curl` uses). Errors name the option.
 */
export const SheetFromCurl = new RequestType<FromCurlParams, FromCurlResult, EngineErrorData>('sheet/fromCurl');

/** The environments a `.http` file can use (C-c C-e; docs/http-files.md "Environments"). */
export const SheetEnvironments = new RequestType<EnvironmentsParams, EnvironmentsResult, EngineErrorData>('sheet/environments');

export interface SetVarParams {
  /** With its colon, e.g. ":token". */
  name: string;
  value: string;
}
/** Set a variable override for later requests (`sheet-set-var`). */
export const SetVar = new RequestType<SetVarParams, null, EngineErrorData>('sheet/setVar');

/** What `ws/open` answers: the session's id, the ws:// URL and the handshake's answer. */
export interface WsOpenResult {
  /** Names the session in `ws/send`, `ws/close` and the notifications. */
  id: number;
  url: string;
  status: number;
  statusText: string;
  headers: [string, string][];
  /** When the server refused the handshake (no 101): its body as text; there is no session then. */
  refusedBody?: string;
}
/**
 * Open the WebSocket request at point (issue 40; docs/protocol.md): connect, send its messages,
 * keep the connection open. Messages both ways come as `ws/message`, the close as `ws/closed`.
 */
export const WsOpen = new RequestType<SendParams, WsOpenResult, EngineErrorData>('ws/open');
/** Send one text message on an open session. */
export const WsSend = new RequestType<{ id: number; text: string }, null, EngineErrorData>('ws/send');
/** Close an open session with 1000. */
export const WsCloseRequest = new RequestType<{ id: number }, null, EngineErrorData>('ws/close');

// ---------------------------------------------------------------------------------------------
// Engine -> client

/** One message of an open WebSocket session, either way (`direction`), as it goes. */
export const WsMessageNotification = new NotificationType<{ id: number } & WsMessage>('ws/message');
/** The session closed: the code, the reason, who closed it. */
export const WsClosedNotification = new NotificationType<{ id: number } & WsClose>('ws/closed');

export interface LispEvalParams {
  /** The Lisp form's source text. */
  form: string;
  /** The variable it is for, with its colon. */
  name: string;
  /** Line of the declaration. */
  line: number;
  /**
   * The variables visible to the form (declared above it, then the overrides), substituted:
   * what `sheet-get-var` / `restclient-get-var` answer inside the form.
   */
  vars?: Record<string, string>;
  /** The `context` of the request being served, when it had one. */
  context?: RequestContext;
}
export interface LispEvalResult {
  /** The value, as the client turned it into a string (`format "%s"` for non-strings). */
  value: string;
  /**
   * Settings the form changed (sheet-mode: `(setq url-max-redirections 0)` gives
   * `followRedirects`/`maxRedirects`): they apply to the request being served, from its
   * exchange on. The client sends them with its later requests itself.
   */
  settings?: Settings;
}
/**
 * Evaluate a `:=` form in the context of the sheet buffer that sent the request being served
 * (named by `context`). A Lisp read or evaluation error comes back as a JSON-RPC error whose
 * message is the Lisp error.
 */
export const LispEval = new RequestType<LispEvalParams, LispEvalResult, void>('lisp/eval');

// ---------------------------------------------------------------------------------------------
// Token auth (issue 39 item 4): what `sheet auth list|login|logout` does, for M-x sheet-auth-*
// (session/auth-admin.ts). Never carries a token or a secret.

export interface AuthParams {
  /** The `.http` file (or a directory) whose environment files are read, found above it. */
  path: string;
  /** The environment (`C-c C-e`'s choice). */
  env?: string;
  /** The auth id: required by `sheet/authLogin`; `sheet/authLogout` without it forgets them all. */
  id?: string;
}
export interface AuthListResult {
  /** The environment read, when one was chosen. */
  environment?: string;
  entries: { id: string; grant: string; state: string }[];
}
/** Each auth id of the environment with its grant and its token's state. */
export const SheetAuthList = new RequestType<AuthParams, AuthListResult, EngineErrorData>('sheet/authList');
/** Ask for a new token now (an interactive grant signs in through `auth/openUrl` / `auth/notify`). */
export const SheetAuthLogin = new RequestType<AuthParams, { id: string; environment?: string; warning?: string }, EngineErrorData>('sheet/authLogin');
/** Forget the tokens of `id`, or of every id of the environment. */
export const SheetAuthLogout = new RequestType<AuthParams, { removed: string[]; environment?: string }, EngineErrorData>('sheet/authLogout');

/** Engine -> client: a line for the user about a sign-in (Device Authorization's URL and user code). */
export const AuthNotify = new NotificationType<{ message: string }>('auth/notify');
/** Engine -> client: open this authorization URL in the user's browser (Emacs: `browse-url`). */
export const AuthOpenUrl = new NotificationType<{ url: string }>('auth/openUrl');
