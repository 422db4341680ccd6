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
  | 'NETWORK_ERROR' // no response (status 0/-1: connection refused, CORS headers missing...)
  | 'ABORTED' // cancelled through the `timeout` promise of the HTTP config
  | 'TIMEOUT' // the `timeout` in ms of the HTTP config elapsed
  | 'NOT_AN_ARRAY' // a getList answer was not an array (after the response interceptors)
  | 'INVALID_ROUTE' // one()/all() called with a number or nothing where a route name belongs
  | 'UNKNOWN_OPERATION' // customOperation() with an operation that is not an HTTP method name
  | 'JSONP_UNSUPPORTED' // JSONP asked from the fetch transport
  | 'NOT_CLIENTIZED'; // a request method called on a copy that lost its bookkeeping (angular.copy, spread)

export class ClientError extends Error {
  readonly code: ClientErrorCode;
  /** HTTP method of the request, when the error belongs to one. */
  readonly method?: string;
  /** URL of the request, when the error belongs to one. */
  readonly url?: string;
  constructor(code: ClientErrorCode, message: string, extra: { method?: string; url?: string } = {}) {
    super(message);
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
  constructor(response: HttpResponse) {
    const config = response.config || ({} as HttpConfig);
    const method = String(config.method || 'GET').toUpperCase();
    const url = String(config.url || '');
    const status = typeof response.status === 'number' ? response.status : 0;
    const code = codeOf(status, response.xhrStatus);
    const what =
      code === 'HTTP_ERROR'
        ? `status ${status}${response.statusText ? ' ' + response.statusText : ''}`
        : code === 'ABORTED'
          ? `status ${status} (aborted)`
          : code === 'TIMEOUT'
            ? `status ${status} (timed out)`
            : `status ${status} (no response: network error, or cross-origin headers missing)`;
    super(code, `${method} ${url} failed with ${what}`, { method, url });
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

function codeOf(status: number, xhrStatus?: string): ClientErrorCode {
  if (xhrStatus === 'abort') return 'ABORTED';
  if (xhrStatus === 'timeout') return 'TIMEOUT';
  if (xhrStatus === 'error') return 'NETWORK_ERROR';
  if (status === -1) return 'ABORTED';
  if (status <= 0) return 'NETWORK_ERROR';
  return 'HTTP_ERROR';
}

/** Wrap a transport's error response (already-wrapped errors pass through). */
export function toHttpError(response: any): ClientError {
  if (response instanceof ClientError) return response;
  if (response instanceof Error) return response as ClientError;
  return new ClientHttpError(response || { status: 0, config: {} });
}
