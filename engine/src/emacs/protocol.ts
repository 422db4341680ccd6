/**
 * The Emacs <-> engine protocol: every method and payload type, declared once. JSON-RPC 2.0
 * over stdio with Content-Length framing (vscode-jsonrpc here, jsonrpc.el in Emacs).
 * Described for people in docs/protocol.md; keep both in step.
 *
 * Conventions: lines are 1-based; text bodies travel as strings, binary ones as base64 with an
 * explicit `encoding`; durations are in ms; errors are ResponseErrors whose `data` is
 * {@link EngineErrorData} (stable `code`, `line`, `hint`).
 */
import { NotificationType0, RequestType, RequestType0 } from 'vscode-jsonrpc';
import type { EngineErrorData } from '../errors.js';
import type { Mode } from '../present/present.js';

export type { EngineErrorData };

/** JSON-RPC error code used for every engine error (in the server-defined range). */
export const ENGINE_ERROR = -32001;

// ---------------------------------------------------------------------------------------------
// Shared payloads

/** Settings a client may give in `initialize` and override per `sheet/send`. */
export interface Settings {
  /**
   * Substitution pass limit; default 10 (`sheet-vars-max-passes`); 0 substitutes nothing. After
   * the last pass the request is sent with what is left, named in `hooks.warnings`.
   */
  maxPasses?: number;
  /** Response size threshold in characters; null disables; default 100000. */
  threshold?: number | null;
  /** Do not send cookies from the jar implicitly (`sheet-inhibit-cookies`). */
  inhibitCookies?: boolean;
  /** Per-request timeout in ms; 0 = none (default). */
  timeoutMs?: number;
  /** Follow redirects (default true). */
  followRedirects?: boolean;
  /**
   * Follow at most this many redirects, then `too-many-redirects` (default 50, curl's limit).
   * sheet-mode sends restclient.el's `url-max-redirections` here when it is not its default.
   */
  maxRedirects?: number;
  /** Persist the cookie jar to this file, in the Netscape format curl reads and writes. */
  cookieJarFile?: string | null;
  /** Accept any TLS certificate (curl's `-k`; `sheet run --insecure`); default false. */
  insecure?: boolean;
  /**
   * The proxy (docs/networks.md); null or absent (default): the proxy variables of the
   * engine's environment, by curl's rules (`http_proxy`, `https_proxy`, `ALL_PROXY`, `NO_PROXY`).
   */
  proxy?: ProxySetting | null;
  /**
   * A file of PEM certificates of the authorities that verify servers (curl's `--cacert`;
   * `sheet run --cacert`, Emacs' `sheet-ca-file`): over `CURL_CA_BUNDLE` and `SSL_CERT_FILE`,
   * replacing the default authorities; `NODE_EXTRA_CA_CERTS` still adds to them. `~` expanded,
   * relative to the engine's directory. null (default): the environment's (docs/networks.md).
   */
  caFile?: string | null;
}

/**
 * A proxy setting (engine/src/rpc/proxy-setting.ts), in one of two forms:
 * `all` (+ `noProxy`), as curl's `-x` (+ `--noproxy`) and `sheet run --proxy`; or `http` /
 * `https` (+ `noProxyRegexp`), as url.el's `url-proxy-services`, which sheet-mode sends when the
 * user set it: then the environment is not read and a scheme without a proxy goes direct.
 * Proxies are `host:port` or URLs (`http://user:password@host:port`; no scheme: `http://`, no
 * port: 1080, as curl reads them); only http:// and https:// proxies.
 */
export interface ProxySetting {
  /** One proxy for every URL; the environment's NO_PROXY still applies unless `noProxy`. */
  all?: string;
  /** curl's `--noproxy` list (host names, their subdomains, IP ranges; `*` every host). */
  noProxy?: string;
  /** url.el's "http" entry: the proxy of http:// URLs. */
  http?: string;
  /** url.el's "https" entry: the proxy of https:// URLs. */
  https?: string;
  /** url.el's "no_proxy" entry: an Emacs regexp; hosts it matches go direct. */
  noProxyRegexp?: string;
}

/**
 * A value the client chooses for one request (`sheet/send`, `sheet/variables`, `sheet/curl`);
 * the engine echoes it in every `lisp/eval` it sends while serving that request, so the client
 * knows which sheet buffer a `:=` form belongs to when several requests are in flight.
 */
export type RequestContext = string | number;

/** A body on the wire: text as a string, bytes as base64. */
export interface WireBody {
  encoding: 'utf-8' | 'base64';
  data: string;
}

/** The request as sent. */
export interface RequestInfo {
  method: string;
  url: string;
  headers: [string, string][];
  body?: WireBody;
  /** Sheet line of the request line. */
  line?: number;
}

/** Status line and headers of the response. */
export interface ResponseInfo {
  httpVersion: string;
  status: number;
  statusText: string;
  headers: [string, string][];
  /** Body size in bytes as received. */
  bytes: number;
}

/** The body made readable (see present/present.ts). */
export interface PresentationInfo {
  kind: 'text' | 'image' | 'binary';
  /** kind text: the body (pretty-printed unless raw). Absent when `file` holds it. */
  text?: string;
  /** kind image/binary: the bytes. Absent when `file` holds them. */
  base64?: string;
  /**
   * When the body was at least `bodyFileMin` long: the absolute path of a file that holds it
   * instead of `text`/`base64`, alone in a fresh private directory (0700, file 0600). The
   * client reads it, then deletes the file and the directory.
   */
  file?: string;
  /**
   * With `file`: `utf-8` when it holds the text (kind text) in UTF-8; `binary` when it holds
   * the bytes themselves (kind image/binary: what `base64` would have decoded to).
   */
  fileEncoding?: 'utf-8' | 'binary';
  /**
   * Asked with `received` and the body was pretty-printed (`formatted`): the body as
   * received, decoded from its charset. In `receivedFile` (UTF-8, same rules as `file`)
   * instead when the body goes in a file.
   */
  received?: string;
  receivedFile?: string;
  contentType: string;
  charset?: string;
  mode: Mode;
  formatted: boolean;
  /**
   * A JSON or XML body not pretty-printed although not asked raw: why, in words for the
   * trailer (`not valid JSON at byte 12: unexpected "}"`, `XML past 16 MiB is not ...`).
   */
  unformatted?: string;
  /**
   * kind text: characters (code points) in the body's longest line, as shown (pretty-printed
   * or not), line feeds not counted; for the client's long-line protections.
   */
  longestLine?: number;
  overThreshold: boolean;
}

export interface RedirectInfo {
  status: number;
  url: string;
  location: string;
}

/** What the request's hooks produced, and one assertion's result: defined with the hooks (hooks/results.ts). */
export type { Assertion, HookResults } from '../hooks/results.js';
import type { HookResults } from '../hooks/results.js';

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

export interface SendParams {
  /** The whole sheet text. */
  text: string;
  /** 1-based line of point. */
  line: number;
  /** The sheet's file name, for `< path` bodies; its extension picks the syntax (`.http`/`.rest`: docs/http-files.md). Default: the engine's cwd, sheet syntax. */
  path?: string;
  /**
   * `.http` files: the environment whose variables `{{name}}` uses (http-client.env.json,
   * VS Code's rest-client.environmentVariables, found above `path`; docs/http-files.md). Absent
   * or empty: the `$shared` values only. An unknown name is `bad-environment` listing the names.
   */
  env?: string;
  /** Return the body untouched (C-c C-r). */
  raw?: boolean;
  /** Per-call settings, over the session's. */
  settings?: Settings;
  /** Echoed in the `lisp/eval` requests sent while serving this request. */
  context?: RequestContext;
  /**
   * Hand the body over in a file (`presentation.file`) when the text is at least this many
   * characters (code points) long, or the base64 of an image/binary body at least this long.
   * Absent: always inside the answer.
   */
  bodyFileMin?: number;
  /**
   * Also return the body as received (decoded from its charset, not pretty-printed) when it
   * was pretty-printed: `presentation.received` (or `receivedFile`). sheet-mode asks for it
   * only when `sheet-response-received-hook` is set, which runs on the body as received.
   */
  received?: boolean;
  /**
   * `.http` files: answers to the request's `# @prompt name` lines, by name (without a colon).
   * An answer comes first in `{{name}}` lookup; a prompt with neither an answer nor an override
   * (`sheet/setVar`) is `bad-argument` naming it and its line.
   */
  prompts?: Record<string, string>;
}
export interface SendResult {
  request: RequestInfo;
  response: ResponseInfo;
  presentation: PresentationInfo;
  redirects: RedirectInfo[];
  /** From the start of sending to the last body byte, in ms. */
  durationMs: number;
  hooks: HookResults;
  /** The proxy the final request went through, e.g. `http://127.0.0.1:3128 (from http_proxy)`; absent: direct. */
  proxy?: string;
  /**
   * The variables the request used (declared above it, then the overrides), substituted, with
   * what its hooks set (`hooks.setVars`) over them: what `sheet-get-var` /
   * `restclient-get-var` answer in its `run-hook` forms and in its response buffer.
   */
  vars: Record<string, string>;
}
/** Parse the sheet, resolve the request at `line`, send it, present the response, run hooks. */
export const SheetSend = new RequestType<SendParams, SendResult, EngineErrorData>('sheet/send');

export interface OutlineParams {
  text: string;
  /** The file's name: its extension picks the syntax (`.http`/`.rest`), as in `sheet/send`. */
  path?: string;
}
export interface OutlineRequest {
  method: string;
  url: string;
  line: number;
  startLine: number;
  endLine: number;
  /** Where the body starts, when there is one (for outline hiding). */
  bodyLine?: number;
  /**
   * `.http` files: the request's `# @prompt name [description]` lines, when it has any; the
   * client asks for each value and sends the answers as `prompts` (`sheet/send`, `sheet/curl`).
   */
  prompts?: { name: string; description: string; line: number }[];
}
export interface OutlineVariable {
  name: string;
  kind: 'literal' | 'lisp';
  multiline: boolean;
  value: string;
  line: number;
  endLine: number;
}
export interface OutlineResult {
  requests: OutlineRequest[];
  variables: OutlineVariable[];
  diagnostics: { line: number; code: string; severity: 'error' | 'warning'; message: string; hint?: string }[];
}
/** The requests and variable declarations of a sheet (navigation, outline, helm). */
export const SheetOutline = new RequestType<OutlineParams, OutlineResult, EngineErrorData>('sheet/outline');

export interface VariablesParams {
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
export interface VariablesResult {
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
  /** Hook types the engine knows. */
  hookTypes: { name: string; args: string; doc: string }[];
}
/** Variables at point with resolved values, and the overrides (C-c C-i). */
export const SheetVariables = new RequestType<VariablesParams, VariablesResult, EngineErrorData>('sheet/variables');

export interface CompletionsParams {
  text: string;
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
  methods: string[];
  /** Request header names (the IANA HTTP Field Name Registry and a few de facto ones). */
  headers: string[];
  /** Common values by lower-case header name (`content-type`: `application/json`, ...). */
  headerValues: Record<string, string[]>;
  /** Hook types of the sheet syntax (`jq-set-var`, `expect-status`, ...); none in `.http` files. */
  hooks: { name: string; args: string }[];
}
/**
 * The names completion offers at point (issue 25 item 2; engine/src/rpc/completions.ts). A pure
 * look-up: no Lisp evaluated, nothing sent.
 */
export const SheetCompletions = new RequestType<CompletionsParams, CompletionsResult, EngineErrorData>('sheet/completions');

export interface CurlParams {
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
export interface CurlResult {
  /** A bash command line that reproduces the request exactly. */
  command: string;
  /** The request's URL after substitution. */
  url: string;
}
/** The request at point as a curl command line (C-c C-u). */
export const SheetCurl = new RequestType<CurlParams, CurlResult, EngineErrorData>('sheet/curl');

export interface FromCurlParams {
  /** A curl command line as typed in bash (`curl -H 'A: b' https://h/x`, `\` continuations allowed). */
  command: string;
  /** The file the request goes into: its name picks the syntax (docs/http-files.md "Which parser"). */
  path?: string;
  /** That file's text, for the first-line syntax marker. */
  text?: string;
}
export interface FromCurlResult {
  /** The request: `METHOD URL`, `Name: value` lines, an empty line and the body; ends with a newline. */
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

export interface EnvironmentsParams {
  /** The `.http` file; the environment files are looked for from its directory up. */
  path?: string;
}
export interface EnvironmentsResult {
  /** Every environment name the files define (without `$shared`), sorted. */
  names: string[];
  /** The environment files found, nearest first. */
  files: string[];
}
/** The environments a `.http` file can use (C-c C-e; docs/http-files.md "Environments"). */
export const SheetEnvironments = new RequestType<EnvironmentsParams, EnvironmentsResult, EngineErrorData>('sheet/environments');

export interface SetVarParams {
  /** With its colon, e.g. ":token". */
  name: string;
  value: string;
}
/** Set a variable override for later requests (`sheet-set-var`). */
export const SetVar = new RequestType<SetVarParams, null, EngineErrorData>('sheet/setVar');

// ---------------------------------------------------------------------------------------------
// Engine -> client

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
