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
  /**
   * `$http`: `true` or a `$cacheFactory` cache caches GET answers. The fetch transport
   * (`ClientLib`, Node) takes fetch's `RequestCache` names instead (`'no-store'`, `'reload'`,
   * ...); a boolean or cache object means nothing to fetch and is ignored there.
   * @default undefined
   */
  cache?: boolean | RequestCacheName | { get(key: string): any; put(key: string, value: any): any };
  /**
   * `$http`'s name: send cookies and HTTP authentication cross-origin (`credentials: 'include'`
   * in the fetch transport). @default false
   */
  withCredentials?: boolean;
  /**
   * fetch's name, honoured by the fetch transport (`ClientLib`, `createClient`): `'include'`
   * sends the page's cookies cross-origin, `'omit'` sends none. Wins over `withCredentials`
   * when both are given. `$http` has no such option (use `withCredentials`). Meaningless in
   * Node (cookies come from `cookieJar`). @default undefined (fetch's `'same-origin'`)
   * @example createClient({ baseUrl: 'https://api.example' }).one('me').withHttpConfig({ credentials: 'include' }).get()
   */
  credentials?: 'omit' | 'same-origin' | 'include';
  /** fetch's `mode`, passed to fetch by the fetch transport (browsers). @default undefined ('cors') */
  mode?: 'cors' | 'no-cors' | 'same-origin' | 'navigate';
  /**
   * fetch's `redirect`: `'follow'`, `'manual'` (the 3xx answer itself; in Node the engine does
   * not follow it), `'error'` (a redirect fails with `NETWORK_ERROR`). The fetch transport and
   * the Node engine honour it. @default undefined ('follow')
   */
  redirect?: 'follow' | 'manual' | 'error';
  /** fetch's `referrerPolicy`, passed to fetch by the fetch transport (browsers). @default undefined */
  referrerPolicy?: '' | 'no-referrer' | 'no-referrer-when-downgrade' | 'origin' | 'origin-when-cross-origin' | 'same-origin' | 'strict-origin' | 'strict-origin-when-cross-origin' | 'unsafe-url';
  /** fetch's `keepalive` (the request may outlive the page), passed on by the fetch transport. @default undefined */
  keepalive?: boolean;
  /** `$http`: e.g. `'blob'`, `'arraybuffer'`: the answer as a Blob / ArrayBuffer, in every transport. */
  responseType?: '' | 'arraybuffer' | 'blob' | 'document' | 'json' | 'text';
  transformRequest?: ((data: any, headersGetter?: any) => any) | Array<(data: any, headersGetter?: any) => any>;
  transformResponse?: ((data: any, headersGetter?: any, status?: number) => any) | Array<(data: any, headersGetter?: any, status?: number) => any>;
  /** `$http`'s serializer of `params` (a function, or a service name such as `'$httpParamSerializerJQLike'`). */
  paramSerializer?: string | ((params: QueryParams) => string);
  /** `$http`'s XSRF header and cookie names. */
  xsrfHeaderName?: string;
  xsrfCookieName?: string;
  /** `$http`: listeners on the XMLHttpRequest and its upload (progress). */
  eventHandlers?: Record<string, (event: any) => void>;
  uploadEventHandlers?: Record<string, (event: any) => void>;
  /** `$http` (1.6+): the name of the JSONP callback query parameter. */
  jsonpCallbackParam?: string;
}

/** fetch's `RequestCache` values (the DOM type, repeated so the package needs no DOM lib). */
export type RequestCacheName = 'default' | 'force-cache' | 'no-cache' | 'no-store' | 'only-if-cached' | 'reload';

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
