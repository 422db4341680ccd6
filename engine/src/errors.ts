/**
 * The engine's one error type. Every failure a user can cause (bad sheet text, unreadable file,
 * refused connection, jq error, ...) is an {@link EngineError} with a stable string `code`, the
 * 1-based sheet `line` where it applies, and a `hint` that says what to do. Callers match on
 * `code`, never on `instanceof` or message text. Over JSON-RPC it travels as a ResponseError
 * whose `data` is {@link EngineErrorData} (see docs/protocol.md and docs/errors.md).
 */
export type ErrorCode =
  // sheet text (parse)
  | 'no-request-at-point'
  | 'unknown-method'
  | 'missing-url'
  | 'unterminated-multiline'
  | 'unterminated-hook-form'
  | 'bad-header'
  | 'ignored-lines'
  | 'sent-as-body' // warning: a hook or request line inside a body
  // .http files (engine/src/http-file/)
  | 'unsupported-construct'
  | 'unknown-variable'
  | 'bad-environment'
  | 'handler-error'
  // resolve
  | 'vars-too-large'
  | 'vars-cycle' // warning: the request was sent
  | 'vars-unresolved' // warning: the request was sent
  | 'lisp-unavailable'
  | 'lisp-error'
  | 'file-unreadable'
  | 'invalid-url'
  // http
  | 'connection-refused'
  | 'unknown-host'
  | 'timeout'
  | 'cancelled'
  | 'tls-error'
  | 'network-error'
  | 'too-many-redirects'
  | 'bad-proxy'
  | 'bad-ca-file'
  | 'bad-client-cert'
  | 'bad-netrc'
  | 'bad-auth'
  // gRPC (engine/src/grpc/)
  | 'bad-proto'
  | 'unknown-grpc-method'
  | 'bad-grpc-message'
  | 'no-reflection'
  // OAuth2 and token auth (engine/src/tokens/): nothing was sent to the API
  | 'unknown-auth'
  | 'bad-auth-config'
  | 'token-request-failed'
  | 'token-cache-unwritable' // warning: the token was used, not kept
  // cookie jar (a warning: the request was sent)
  | 'cookie-jar-unwritable'
  | 'cookie-jar-unreadable'
  // a warning: a body spilled to a file was not read by the hooks
  | 'body-not-read'
  // hooks
  | 'jq-error'
  | 'unknown-hook'
  // cli / options
  | 'bad-option'
  | 'bad-argument'
  // sheet run --untrusted: a file carries code (Lisp, run-hook, a .http handler)
  | 'untrusted-code'
  // anything else
  | 'internal-error';

/** The JSON shape of an error's data, over JSON-RPC and in the CLI's `--json` output. */
export interface EngineErrorData {
  code: ErrorCode;
  /** 1-based sheet line the error is about, when there is one. */
  line?: number;
  /** What the user can do about it. */
  hint?: string;
  /** Extra machine-readable details (e.g. `url`, `variables`). */
  details?: Record<string, unknown>;
}

/**
 * An error a user can act on. `message` starts with `line N: ` when there is a line.
 * @see docs/errors.md for every code, when it happens and its hint.
 */
export class EngineError extends Error {
  readonly code: ErrorCode;
  readonly line?: number;
  readonly hint?: string;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, opts: { line?: number; hint?: string; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(opts.line !== undefined ? `line ${opts.line}: ${message}` : message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'EngineError';
    this.code = code;
    this.line = opts.line;
    this.hint = opts.hint;
    this.details = opts.details;
  }

  toData(): EngineErrorData {
    const d: EngineErrorData = { code: this.code };
    if (this.line !== undefined) d.line = this.line;
    if (this.hint !== undefined) d.hint = this.hint;
    if (this.details !== undefined) d.details = this.details;
    return d;
  }
}

/** True when `e` is an engine error (matched by shape, so it works across bundles). */
export function isEngineError(e: unknown): e is EngineError {
  return typeof e === 'object' && e !== null && typeof (e as EngineError).code === 'string' && (e as Error).name === 'EngineError';
}

/** Wrap anything thrown into an EngineError, keeping engine errors as they are. */
export function toEngineError(e: unknown): EngineError {
  if (isEngineError(e)) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new EngineError('internal-error', msg, { hint: 'This is a bug in the engine; the engine log (stderr) has the stack.', cause: e });
}
