/**
 * Public types of the client library. The names follow Restangular 1.6 with `restangular`
 * replaced by `client` (see README's migration table). The transport contract is in
 * http-types.ts, the configuration setters in configurer-types.ts; both are re-exported here.
 */
import type { ClientConfigurer } from './configurer-types.js';
import type { Deferred, Headers, HttpConfig, HttpResponse, QueryParams } from './http-types.js';

export type { ClientConfigurer } from './configurer-types.js';
export type { Deferred, Headers, HttpConfig, HttpResponse, QueryParams, Runtime } from './http-types.js';

/** Operation names as the interceptors see them. */
export type Operation = 'get' | 'getList' | 'put' | 'post' | 'remove' | 'head' | 'trace' | 'options' | 'patch' | 'jsonp';

/**
 * Property names of the library fields and methods on enhanced objects
 * (Restangular's `restangularFields`). Change them with `setClientFields`.
 */
export interface ClientFields {
  /** @default 'id' */
  id: string;
  /** @default 'route' */
  route: string;
  /** @default 'parentResource' */
  parentResource: string;
  /** @default 'clientCollection' */
  clientCollection: string;
  /** @default '__cannonicalId' */
  cannonicalId: string;
  /** @default 'clientEtag' */
  etag: string;
  /** Dotted path allowed, e.g. `'_links.self.href'`. @default 'href' */
  selfLink: string;
  [methodOrField: string]: string;
}

export type ResponseInterceptor = (data: any, operation: string, what: string, url: string, response: HttpResponse, deferred: Deferred) => any;
export type RequestInterceptor = (element: any, operation: string, what: string, url: string) => any;
export interface FullRequest {
  element?: any;
  headers?: Headers;
  params?: QueryParams;
  httpConfig?: HttpConfig;
}
export type FullRequestInterceptor = (
  element: any,
  operation: string,
  what: string,
  url: string,
  headers: Headers,
  params: QueryParams,
  httpConfig: HttpConfig,
) => FullRequest | undefined | void;
export type ErrorInterceptor = (response: any, deferred: Deferred, responseHandler: (response: HttpResponse) => void) => boolean | void | any;
export type ElementTransformer = (element: any) => any;
export type OnElemClientized = (elem: any, isCollection: boolean, what: string, client: ClientService) => any;

/** Configuration values (`Client.configuration`, `ClientProvider.configuration`). */
export interface ClientConfiguration {
  /** @default '' */
  baseUrl: string;
  /** true: every self link is used as-is; false: relative ones are appended to the parent path; null: decide by `http(s)://`. @default true */
  absoluteUrl: boolean | null;
  /** @default [] */
  extraFields: string[];
  /** @default {} */
  defaultHttpFields: HttpConfig;
  /** @default false */
  plainByDefault: boolean;
  /** @default true */
  encodeIds: boolean;
  /** Per operation (`common`, `get`, `post`, `put`, `remove`, `jsonp`, ...). @default {get:{},post:{},put:{},remove:{},common:{}} */
  defaultRequestParams: Record<string, QueryParams>;
  /** Alias of `defaultRequestParams`. */
  readonly requestParams: Record<string, QueryParams>;
  /** @default {} */
  defaultHeaders: Headers;
  /** @default [] */
  methodOverriders: string[];
  /** @default false */
  jsonp: boolean;
  /** @default null */
  requestSuffix: string | null;
  /** Alias of `requestSuffix` (Restangular's name). */
  suffix: string | null;
  /** @default false */
  useCannonicalId: boolean;
  /** @default false */
  fullResponse: boolean;
  /** Opposite of setTransformOnlyServerElements. @default true (Restangular 1.6.1 transforms local pointers) */
  transformLocalElements: boolean;
  clientFields: ClientFields;
  responseInterceptors: ResponseInterceptor[];
  requestInterceptors: FullRequestInterceptor[];
  errorInterceptors: ErrorInterceptor[];
  isSafe(operation: string): boolean;
  isAbsoluteUrl(url: string): boolean;
  isOverridenMethod(method: string, values?: string[]): boolean;
  isValidId(id: any): boolean;
  setFieldToElem(field: string, elem: any, value: any): ClientConfiguration;
  getFieldFromElem(field: string, elem: any): any;
  setIdToElem(elem: any, id: any, route?: string): ClientConfiguration;
  /** Override to read ids differently per route. */
  getIdFromElem(elem: any): any;
  setUrlToElem(elem: any, url: any, route?: string): ClientConfiguration;
  getUrlFromElem(elem: any): any;
  getCannonicalIdFromElem(elem: any): any;
  shouldSaveParent(route: string): boolean;
  [option: string]: any;
}

/**
 * A promise as both runtimes give it: a `$q` promise (AngularJS) or a native Promise, each with
 * `then`, `catch` and `finally`. Shaped so that it is also an `angular.IPromise` to the type
 * checker (`$q.all([...])`, an `IPromise<T>` slot, `.then().catch()` chains), as
 * @types/restangular's promises were.
 */
export interface ChainPromise<T> extends PromiseLike<T> {
  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => PromiseLike<never> | PromiseLike<R1> | R1) | null,
    onRejected?: ((reason: any) => PromiseLike<never> | PromiseLike<R2> | R2) | null,
    /** `$q` only: progress of `deferred.notify`. */
    onNotify?: (state: any) => any,
  ): ChainPromise<R1 | R2>;
  catch<R = never>(onRejected?: ((reason: any) => PromiseLike<never> | PromiseLike<R> | R) | null): ChainPromise<T | R>;
  finally<R = never>(onFinally?: (() => any) | null): ChainPromise<T | R>;
  /**
   * Declared so a promise of the library is assignable to `Promise<T>` (`const p: Promise<User> =
   * one('users', 1).get<User>()`, issue 38). The fetch transport's promises are native and have
   * it ('Promise'); `$q`'s promises have none at run time: do not read it.
   */
  readonly [Symbol.toStringTag]: string;
}

/**
 * A promise of the library, enhanced (Restangular's "enhanced promises"). An intersection, not an
 * interface extending ChainPromise: TypeScript then infers `T` through `$q.all([...])`.
 */
export type ClientPromise<T> = ChainPromise<T> & EnhancedPromise<T>;

/** What Restangular adds to its promises. */
export interface EnhancedPromise<T> {
  /** New promise of the previous value, resolved after `value[method](...args)` was called. */
  call(method: string, ...args: any[]): ClientPromise<T>;
  /** Promise of one field of the result. */
  get(field: string): ClientPromise<any>;
  /** Arrays only: `call('push', ...)`. */
  push?(...items: any[]): ClientPromise<T>;
  /** Filled in place when the server answers (empty array/object before). */
  $object: T;
}

/** Methods and fields that elements and collections share (one shared prototype at run time). */
export interface ClientCommon {
  one<U = any>(route: string, id?: any, singleOne?: boolean): ClientElement<U>;
  all<U = any>(route: string): ClientCollection<U>;
  several<U = any>(route: string, ...ids: any[]): ClientCollection<U>;
  oneUrl<U = any>(route: string, url: string): ClientElement<U>;
  allUrl<U = any>(route: string, url: string): ClientCollection<U>;
  getClientUrl(what?: string): string;
  getRequestedUrl(what?: string): string;
  /**
   * The curl command (bash) of the request `operation` would send now, without sending it:
   * default `getList` on a collection, `get` on an element (engine/src/curl/to-curl.ts).
   * @example Client.one('users', 1).toCurl('put') // "curl -X PUT -H 'Accept: ...' ... http://h/users/1"
   */
  toCurl(operation?: 'get' | 'getList' | 'post' | 'put' | 'remove' | 'head' | 'options' | 'patch' | 'trace'): string;
  /**
   * This element or collection with `config` merged into its requests' HTTP config. With
   * `responseType: 'blob'` or `'arraybuffer'` its `get`/`customGET` are typed as resolving to
   * the `Blob` / `ArrayBuffer` they give (docs/client-lib.md, "Binary answers").
   * @example const png: Blob = await Client.one('images', 1).withHttpConfig({ responseType: 'blob' }).get();
   */
  withHttpConfig<C extends HttpConfig>(config: C): C extends { responseType: 'blob' } ? BinaryCalls<Blob> & this : C extends { responseType: 'arraybuffer' } ? BinaryCalls<ArrayBuffer> & this : this;
  addClientMethod(name: string, operation: string, path?: string, params?: QueryParams, headers?: Headers, elem?: any): void;
  head(params?: QueryParams, headers?: Headers): ClientPromise<any>;
  trace(params?: QueryParams, headers?: Headers): ClientPromise<any>;
  options(params?: QueryParams, headers?: Headers): ClientPromise<any>;
  patch(object: any, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  remove(params?: QueryParams, headers?: Headers): ClientPromise<any>;
  /** `customGET<User>('me')` resolves to `ClientElement<User>`; untyped to `any` (the body may be anything). */
  customGET<U = any>(path: string, params?: QueryParams, headers?: Headers): ClientPromise<ElementOf<U>>;
  customGETLIST<U = any>(path: string, params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<U>>;
  customDELETE(path: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customPOST(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customPUT(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customPATCH(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customOperation(operation: string, path?: string, params?: QueryParams, headers?: Headers, elem?: any): ClientPromise<any>;
  doGET<U = any>(path: string, params?: QueryParams, headers?: Headers): ClientPromise<ElementOf<U>>;
  doGETLIST<U = any>(path: string, params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<U>>;
  doDELETE(path: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  doPOST(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  doPUT(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  doPATCH(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  clone(): this;
  readonly route: string;
  readonly parentResource: any;
  readonly clientCollection: boolean;
}

/**
 * The reads of an element or collection made with `withHttpConfig({ responseType })` binary: they
 * resolve to the `Blob` / `ArrayBuffer` itself, with the element members on it (non-enumerable).
 */
export interface BinaryCalls<B> {
  get(params?: QueryParams, headers?: Headers): ClientPromise<B & ClientElementMethods<any>>;
  customGET(path: string, params?: QueryParams, headers?: Headers): ClientPromise<B & ClientElementMethods<any>>;
}

/** Methods shared by elements and collections, with an element's own fields. */
export interface ClientBase extends ClientCommon {
  plain<U = any>(): U;
  readonly fromServer: boolean;
  readonly reqParams: QueryParams | null;
  clientEtag?: string;
  [field: string]: any;
}

/** The methods and library fields of an element whose data is `T` (no index signature). */
export interface ClientElementMethods<T = any> extends ClientCommon {
  /** `get<User>()` (the type argument of @types/restangular) types the answer as `one<User>()` does. */
  get<U = T>(params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<U>>;
  getList<U = any>(subElement?: string, params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<U>>;
  put(params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<T>>;
  post<U = any>(subElement: string, elementToPost: any, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<U>>;
  save(params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<T>>;
  getParentList(): ClientCollection<T> | undefined;
  /** The data only, as a plain object (`plain<User>()` as in @types/restangular). */
  plain<U = T>(): U;
  readonly fromServer: boolean;
  readonly reqParams: QueryParams | null;
  clientEtag?: string;
}

/** Any field, for elements whose data type is not given. */
export interface LooseFields {
  [field: string]: any;
}

/** `true` when `T` is `any`. */
type IsAny<T> = 0 extends 1 & T ? true : false;

/**
 * An enhanced element. Data fields are its own enumerable properties. Untyped
 * (`ClientElement`) any field is allowed; typed (`one<User>('users', 1)`) the fields are `T`'s,
 * so a misspelt field is a compile error.
 */
export type ClientElement<T = any> = ClientElementMethods<T> & (IsAny<T> extends true ? LooseFields : T);

/**
 * What `post` of a typed collection accepts: the fields of `T`, each optional (the server may
 * fill in `id` and the rest), so a misspelt field or a wrong type is a compile error; untyped
 * (`any`) accepts anything, as in Restangular code.
 * @example Client.all<User>('users').post({ name: 'Ada' }); // post({ nmae: 'Ada' }) does not compile
 */
export type PostBody<T> = IsAny<T> extends true ? any : Partial<T>;

/** `T`, but not a place TypeScript infers `T` from (so `post(body)` keeps the default type argument). */
type NoInference<T> = [T][T extends any ? 0 : never];

/** What a typed custom GET resolves to: `ClientElement<U>`, or `any` untyped. */
type ElementOf<U> = IsAny<U> extends true ? any : ClientElement<U>;

/** An enhanced collection of elements of `T`: a real array whose prototype carries the collection methods. */
export interface ClientCollection<T = any> extends Array<ClientElement<T>>, ClientCommon {
  /** `getList<User>()` (the type argument of @types/restangular) types the answer as `all<User>()` does. */
  getList<U = T>(params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<U>>;
  get<U = T>(id: any, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<U>>;
  /** `post<User>(body)` checks the body as `all<User>(route).post(body)` does; never inferred from the body. */
  post<U = T>(elementToPost: PostBody<NoInference<U>>, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<U>>;
  putElement(idx: number, params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<T>>;
  plain<U = T>(): U[];
  [field: string]: any;
}

/** `Client.service(route)` result. */
export interface ClientRouteService<T = any> {
  one(id: any): ClientElement<T>;
  get<U = T>(id: any, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<U>>;
  getList<U = T>(params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<U>>;
  post<U = T>(elementToPost: PostBody<NoInference<U>>, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<U>>;
  withHttpConfig(config: HttpConfig): ClientCollection<T>;
  [customMethod: string]: any;
}

/** The `Client` service. */
export interface ClientService extends ClientConfigurer {
  /** @example const u = await Client.one<User>('users', 1).get(); u.name; // ClientElement<User> */
  one<T = any>(route: string, id?: any, singleOne?: boolean): ClientElement<T>;
  /** @example const users = await Client.all<User>('users').getList(); // ClientCollection<User> */
  all<T = any>(route: string): ClientCollection<T>;
  several<T = any>(route: string, ...ids: any[]): ClientCollection<T>;
  oneUrl<T = any>(route: string, url: string): ClientElement<T>;
  allUrl<T = any>(route: string, url: string): ClientCollection<T>;
  copy<T>(fromElement: T): T;
  /** Enhances `element` itself (object, array or function) and returns it. */
  clientizeElement<T = any>(parent: any, element: T, route: string, fromServer?: boolean, collection?: any, reqParams?: QueryParams): ClientElement<T>;
  /** Enhances `element` itself (and its items) and returns it. */
  clientizeCollection<T = any>(parent: any, element: T[], route: string, fromServer?: boolean, reqParams?: QueryParams): ClientCollection<T>;
  service<T = any>(route: string, parent?: any): ClientRouteService<T>;
  withConfig(fn: (configurer: ClientConfigurer) => void): ClientService;
  stripClient<T = any>(elem: T): any;
  /** Is this object enhanced by this library? */
  isClientized(obj: any): boolean;
  /** Start recording the requests this client (and its `withConfig` copies) send. */
  record(): void;
  /**
   * Stop recording: the requests sent since `record()` as sheet text (docs/sheet-format.md),
   * each followed by a `#` line; run it with `sheet run FILE` or paste it into sheet-mode.
   */
  stop(): string;
}
