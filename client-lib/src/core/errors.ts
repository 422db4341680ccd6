/**
 * Typed errors. Callers match on `code`, not on `instanceof`.
 *
 * A failed request rejects with a {@link ClientHttpError}: it is an `Error` and at the same
 * time carries the response fields a Restangular user expects on the rejection value
 * (`status`, `data`, `headers()`, `config`, `statusText`), so `function (response) {
 * response.status }` error callbacks and `$http(response.config)` replays keep working.
 */
import type { HttpConfig, HttpResponse } from './types.js';

/** Stable error codes. */
export type ClientErrorCode =
  | 'HTTP_ERROR' // the server answered with a non-2xx status
  | 'NETWORK_ERROR' // no response (status -1 or 0: connection refused, host not found, invalid URL, CORS headers missing...)
  | 'ABORTED' // cancelled through the `timeout` promise of the HTTP config
  | 'TIMEOUT' // the `timeout` in ms of the HTTP config elapsed
  | 'BAD_RESPONSE' // a 2xx answer declared JSON whose body does not parse (AngularJS's $http:baddata)
  | 'REQUEST_FAILED' // the transport threw without a response (a $http interceptor or transform threw); see `cause`
  | 'INVALID_BASE_URL' // createClient() with a relative baseUrl where there is no page origin to resolve it against
  | 'NOT_AN_ARRAY' // a getList answer was not an array (after the response interceptors)
  | 'INVALID_ROUTE' // one()/all() called with a number or nothing where a route name belongs
  | 'UNKNOWN_OPERATION' // customOperation() with an operation that is not an HTTP method name
  | 'JSONP_UNSUPPORTED' // JSONP asked from the fetch transport
  | 'INVALID_PARAM_SERIALIZER' // a paramSerializer the fetch transport cannot resolve (a service name other than AngularJS's two)
  | 'NO_ANGULAR' // module `client` cannot be registered: what was given (or imported) is not AngularJS's `angular`
  | 'NOT_CLIENTIZED'; // a request method called on a copy that kept the prototype but lost the bookkeeping (lodash _.clone, Object.create)

export class ClientError extends Error {
  readonly code: ClientErrorCode;
  /** HTTP method of the request, when the error belongs to one. */
  readonly method?: string;
  /** URL of the request, when the error belongs to one. */
  readonly url?: string;
  constructor(code: ClientErrorCode, message: string, extra: { method?: string; url?: string; cause?: unknown } = {}) {
    super(message);
    if (extra.cause !== undefined) Object.defineProperty(this, 'cause', { value: extra.cause, writable: true, configurable: true, enumerable: false });
    this.name = 'ClientError';
    this.code = code;
    if (extra.method !== undefined) this.method = extra.method;
    if (extra.url !== undefined) this.url = extra.url;
  }
}

/** Rejection value of a failed request: an Error that also looks like the HTTP response. */
export class ClientHttpError extends ClientError implements HttpResponse {
  readonly status: number;
  readonly statusText: string;
  data: any;
  readonly config: HttpConfig;
  readonly xhrStatus?: string;
  /** The untouched response object of the transport ($http or fetch). */
  readonly response: HttpResponse;
  /** The error of the layer below (fetch's TypeError, AngularJS's $http:baddata...), when there is one. */
  declare readonly cause?: unknown;
  /**
   * @param response the transport's response (or a stand-in with `status`, `config`, `xhrStatus`)
   * @param options.code forces the code (else from status and xhrStatus, see docs/client-lib.md)
   * @param options.detail what happened, in words, put after the status in the message
   * @param options.cause the underlying error
   */
  constructor(response: HttpResponse, options: { code?: ClientErrorCode; detail?: string; cause?: unknown } = {}) {
    const config = response.config || ({} as HttpConfig);
    const method = String(config.method || 'GET').toUpperCase();
    const url = String(config.url || '');
    const status = statusOf(response.status);
    const code = options.code || codeOf(status, response.xhrStatus, config);
    // No answer (status -1 or 0): say what happened, in one sentence, without the status.
    const what =
      status <= 0
        ? `: ${options.detail !== undefined ? options.detail : code === 'ABORTED' ? 'aborted' : code === 'TIMEOUT' ? 'timed out' : 'no response: network error, or cross-origin headers missing'}`
        : options.detail !== undefined
          ? ` with status ${status} (${options.detail})`
          : ` with status ${status}${code === 'HTTP_ERROR' && response.statusText ? ' ' + response.statusText : ''}`;
    super(code, `${method} ${url} failed${what}`, { method, url, cause: options.cause });
    this.name = 'ClientHttpError';
    this.status = status;
    this.statusText = response.statusText || '';
    this.data = response.data;
    this.config = config;
    if (response.xhrStatus !== undefined) this.xhrStatus = response.xhrStatus;
    this.response = response;
  }
  /** Response header (case-insensitive), or all headers without a name, as `$http` gives them. */
  headers(name?: string): any {
    return typeof this.response.headers === 'function' ? this.response.headers(name as string) : name ? null : {};
  }
}

/**
 * The status as a number: a mock backend (angular-mocks, as Restangular's own spec) may answer
 * with the string `'404'`, which `$http` passes on unchanged.
 */
function statusOf(status: unknown): number {
  if (typeof status === 'number') return status;
  const n = typeof status === 'string' && /^\s*-?\d+\s*$/.test(status) ? Number(status) : NaN;
  return Number.isFinite(n) ? n : 0;
}

/**
 * The code of a response without a status of the server. AngularJS >= 1.6 and the fetch
 * transport say why in `xhrStatus`; AngularJS 1.5 gives status -1 for all three causes, so
 * there a request that had a `timeout` counts as ABORTED (a promise) or TIMEOUT (ms), any
 * other as NETWORK_ERROR.
 */
function codeOf(status: number, xhrStatus: string | undefined, config: HttpConfig): ClientErrorCode {
  if (xhrStatus === 'abort') return 'ABORTED';
  if (xhrStatus === 'timeout') return 'TIMEOUT';
  if (xhrStatus === 'error') return 'NETWORK_ERROR';
  if (status > 0) return 'HTTP_ERROR';
  if (status === -1 && xhrStatus === undefined && config.timeout) return typeof config.timeout === 'number' ? 'TIMEOUT' : 'ABORTED';
  return 'NETWORK_ERROR';
}

/** The first `n` characters of a body, for a message. */
export function firstBytes(text: unknown, n = 60): string {
  const s = typeof text === 'string' ? text : String(text);
  return JSON.stringify(s.length > n ? s.slice(0, n) + '...' : s);
}

/**
 * Internal: thrown by a transport's response transform when a 2xx answer declared JSON does not
 * parse; {@link toHttpError} makes it a ClientHttpError with the request's config.
 */
export class BadResponse extends Error {
  constructor(
    readonly body: unknown,
    readonly status: number,
    readonly headersGetter: any,
    readonly parseError: unknown,
  ) {
    super(`status ${status}: the answer is declared JSON but does not parse: ${firstBytes(body)}`);
    this.name = 'BadResponse';
  }
}

/**
 * Wrap what a transport rejected with: a response becomes a {@link ClientHttpError}; an error
 * thrown on the way ($http:baddata, a throwing interceptor) becomes one too, with the error as
 * `cause`; ClientErrors pass through.
 */
export function toHttpError(response: any, config?: HttpConfig): ClientError {
  if (response instanceof ClientError) return response;
  if (response instanceof BadResponse) {
    return new ClientHttpError(
      { data: response.body, status: response.status, statusText: '', headers: response.headersGetter, config: config || ({} as HttpConfig) },
      { code: 'BAD_RESPONSE', detail: 'the answer is declared JSON but does not parse: ' + firstBytes(response.body), cause: response.parseError },
    );
  }
  if (response instanceof Error) {
    const bad = response.name === 'SyntaxError' || /\$http[:/]baddata|baddata/.test(response.message);
    return new ClientHttpError(
      { data: undefined, status: bad ? 200 : 0, statusText: '', headers: () => null, config: config || ({} as HttpConfig) },
      bad
        ? { code: 'BAD_RESPONSE', detail: 'the answer is not valid JSON: ' + response.message.split('\n')[0], cause: response }
        : { code: 'REQUEST_FAILED', detail: 'no request made or no answer handled: ' + response.message.split('\n')[0], cause: response },
    );
  }
  return new ClientHttpError(response || { status: 0, config: config || {} });
}
