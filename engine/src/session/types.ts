/**
 * The session's own inputs and outputs (issue 24): the settings, what one request of a sheet
 * needs to be sent, and what comes back (the request as sent, the response, its presentation,
 * what the hooks did). Plain data, JSON-ready, so every front end can hand it on as it is: the
 * JSON-RPC server for Emacs names these types in its protocol (emacs/protocol.ts re-exports
 * them under the protocol's names, docs/protocol.md), `sheet run` keeps them in its reports.
 * Nothing here knows JSON-RPC, the shell or the CLI.
 *
 * Conventions (docs/protocol.md): lines are 1-based; durations in ms; sizes in bytes unless
 * said; text bodies as strings, binary ones as base64 with an explicit `encoding`.
 */
import type { Mode } from '../present/present.js';
import type { HookResults } from '../hooks/results.js';
import type { VarDecl } from '../sheet/ast.js';
import type { Exchange } from '../model.js';
import type { Environment } from '../http-file/environment.js';
import type { HandlerTestResult } from '../http-file/handlers.js';

export type { Assertion, HookResults } from '../hooks/results.js';
import type { JqFilterResult, JqFilterSpec } from '../hooks/jq-filter.js';
export type { JqFilterResult, JqFilterSpec } from '../hooks/jq-filter.js';

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
  /**
   * A `.netrc` file whose credentials are sent (curl's `--netrc-file`; `"~/.netrc"` is curl's
   * `-n`; `sheet run --netrc`, Emacs' `sheet-netrc`): for a request without an Authorization of
   * its own and without a password in its URL, by curl's rules (docs/networks.md,
   * "Credentials"). `~` expanded, relative to the engine's directory; unreadable: `bad-netrc`,
   * nothing sent. null (default): none, as curl without `-n`.
   */
  netrc?: string | null;
  /**
   * A client certificate for every host (curl's `--cert`/`--key`/`--pass`; `sheet run --cert`),
   * over `clientCertificates` (docs/networks.md). null (default): none.
   */
  clientCert?: ClientCertSetting | null;
  /**
   * Client certificates by host (`host` or `host:port`, any case): Emacs's
   * `sheet-client-certificates`; a `.http` environment's `clientCertificates` /
   * `SSLConfiguration` come after these. null (default): none.
   */
  clientCertificates?: Record<string, ClientCertSetting> | null;
  /** Offer HTTP/2 to https:// servers by ALPN (curl's `--http2`; `sheet-http2`); default false. */
  http2?: boolean;
  /** Connect to this Unix socket instead of the URL's host (curl's `--unix-socket`); null: none. */
  unixSocket?: string | null;
}

/**
 * A client certificate for mutual TLS (docs/networks.md): PEM files, `~` expanded, relative to
 * the engine's directory. `key` absent: the key is read from the `cert` file, as curl does.
 */
export interface ClientCertSetting {
  cert: string;
  key?: string;
  /** The key's passphrase. */
  pass?: string;
}

/**
 * A proxy setting (proxy-setting.ts), in one of two forms:
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
  /** The status line as curl prints it (`HTTP/1.0 200 OK`, `HTTP/2 200`; trace.ts), for a trailer. */
  statusLine: string;
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
   * trailer (`not valid JSON at byte 12: unexpected "}"`, `not well-formed XML at line 3: ...`).
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

/**
 * One request of a sheet to send (`Session.send`; `sheet/send` over JSON-RPC, each request of
 * `sheet run`): the text, the line of point and how to present the answer.
 */
export interface SendInput {
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
  /**
   * Run this jq filter on the response body as text (sheet-mode's Org Babel `:jq` and
   * `:jq-args`; hooks/jq-filter.ts); the answer's `jq` holds the output or the error.
   */
  jq?: JqFilterSpec;
}

/** What `Session.send` gives back: the exchange, its presentation and what its hooks did. */
export interface SendOutput {
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
  /** When `jq` was asked: the filter's output (`output`) or why there is none (`error`). */
  jq?: JqFilterResult;
  /** `.http` files: the `client.log` lines of the request's pre-request scripts and response handlers, in order; absent when none. */
  logs?: string[];
}

/** What a `.http` request's scripts leave besides `client.global` values (session/http-file.ts): their tests (failed `client.assert`s and script errors included) and their `client.log` lines. */
export interface ScriptOutcome {
  tests: HandlerTestResult[];
  logs: string[];
}

/**
 * What a program adds to a {@link SendInput} that no protocol carries (`Session.sendDetailed`;
 * http-file-runner.ts): an environment it loaded itself, the time limit of the `.http` scripts.
 */
export interface SendLocal {
  /** The `.http` environment to use instead of `SendInput.env`'s (`loadEnvironment`'s result). */
  environment?: Environment;
  /** Time limit of each `.http` pre-request script and response handler, in ms (default 2000). */
  handlerTimeoutMs?: number;
}

/** `Session.sendDetailed`'s answer: `send`'s, with what it leaves out for a program. */
export interface SendDetail {
  output: SendOutput;
  /** The exchange itself: the request as sent, the response with its body bytes (empty when spilled to `output.presentation.file`). */
  exchange: Exchange;
  /** The `.http` scripts' tests (also in `output.hooks.assertions`) and their `client.log` lines (also `output.logs`). */
  scripts: ScriptOutcome;
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
