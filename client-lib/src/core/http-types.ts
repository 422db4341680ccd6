/**
 * The transport contract: an `$http`-shaped config and response, the deferred, and the
 * `Runtime` the core sends through (`$http`/`$q`, or fetch and native Promises). Part of the
 * public types (re-exported by types.ts).
 */

/** Query parameters: name to value (arrays repeat the name, objects are sent as JSON). */
export type QueryParams = Record<string, any>;
/** Request headers: name to value; `undefined` removes a default header. */
export type Headers = Record<string, any>;

/** Options of the HTTP facility (`$http` config, or the same shape for the fetch transport). */
export interface HttpConfig {
  method?: string;
  url?: string;
  params?: QueryParams;
  headers?: Headers;
  data?: any;
  /**
   * Milliseconds (the request fails with code `TIMEOUT`), or a promise whose resolution aborts
   * the request (code `ABORTED`). @default undefined (no limit)
   * @example Client.one('users', 1).withHttpConfig({ timeout: 5000 }).get()
   */
  timeout?: number | PromiseLike<any>;
  /**
   * An `AbortSignal` (`AbortController`, `AbortSignal.timeout(ms)`): when it aborts, the request
   * fails with code `ABORTED` (`TIMEOUT` when its reason is a `TimeoutError`), in every
   * transport: `$http`, fetch, the Node engine. An already aborted signal sends nothing.
   * @default undefined
   * @example
   * const ctrl = new AbortController();
   * Client.all('users').withHttpConfig({ signal: ctrl.signal }).getList();
   * ctrl.abort();
   */
  signal?: AbortSignal;
  cache?: any;
  withCredentials?: boolean;
  responseType?: string;
  transformRequest?: ((data: any, headersGetter?: any) => any) | Array<(data: any, headersGetter?: any) => any>;
  transformResponse?: ((data: any, headersGetter?: any, status?: number) => any) | Array<(data: any, headersGetter?: any, status?: number) => any>;
  [option: string]: any;
}

/** A response as `$http` gives it (the fetch transport gives the same shape). */
export interface HttpResponse<T = any> {
  data: T;
  status: number;
  statusText: string;
  headers: (name?: string) => any;
  config: HttpConfig;
  xhrStatus?: string;
}

/** `$q.defer()`-like deferred. */
export interface Deferred<T = any> {
  promise: PromiseLike<T>;
  resolve(value?: T | PromiseLike<T>): void;
  reject(reason?: any): void;
  notify?(value?: any): void;
}

/** The framework the core talks to: how to send a request and how to make promises. */
export interface Runtime {
  /** Send a request; resolve with the response on 2xx, reject with the response otherwise. */
  http(config: HttpConfig): PromiseLike<HttpResponse>;
  defer<T = any>(): Deferred<T>;
}
