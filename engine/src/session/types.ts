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
import type { Exchange } from '../model.js';
import type { Environment } from '../http-file/environment.js';
import type { HandlerTestResult } from '../http-file/handlers.js';

export type { Assertion, HookResults } from '../hooks/results.js';
import type { JqFilterResult, JqFilterSpec } from '../hooks/jq-filter.js';
import type { WebSocketRecord } from './websocket.js';
import type { WsMessage } from '../ws/connect.js';
import type { RequestContext, Settings } from './settings-types.js';
import type { StreamBatch, StreamInfo } from './stream.js';
export type { JqFilterResult, JqFilterSpec } from '../hooks/jq-filter.js';
export type { StreamBatch, StreamEnd, StreamInfo } from './stream.js';

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
  /** A streamed body (SSE, NDJSON, `# @accept chunked`; issue 40): how many events, how it ended; the body is the kept events' text. */
  stream?: StreamInfo;
  /** `.http` files: where the `>> path` / `>>! path` lines saved the response body (absolute files, in line order); absent when none was saved. */
  saved?: { line: number; file: string }[];
  /** A WebSocket request (issue 40): its messages both ways, its close and why it ended (websocket.ts). */
  websocket?: WebSocketRecord;
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
  /** A streamed body's events as they arrive, in batches, the head first (stream.ts; sheet-mode's `sheet/streamEvents`). */
  onStream?: (b: StreamBatch) => void;
  /** A WebSocket request's received messages as they arrive (a live front end; websocket.ts). */
  onWebSocketMessage?: (m: WsMessage) => void;
}

/** `Session.sendDetailed`'s answer: `send`'s, with what it leaves out for a program. */
export interface SendDetail {
  output: SendOutput;
  /** The exchange itself: the request as sent, the response with its body bytes (empty when spilled to `output.presentation.file`). */
  exchange: Exchange;
  /** The `.http` scripts' tests (also in `output.hooks.assertions`) and their `client.log` lines (also `output.logs`). */
  scripts: ScriptOutcome;
}

export type * from './settings-types.js';
export type * from './query-types.js';
