/**
 * Public types of the client library. The names follow Restangular 1.6 with `restangular`
 * replaced by `client` (see README's migration table).
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
  /** Opposite of setTransformOnlyServerElements. @default false */
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

/** Setters shared by `ClientProvider` (config phase), `Client` (run phase) and `withConfig`'s configurer. Each returns the object it was called on. */
export interface ClientConfigurer {
  readonly configuration: ClientConfiguration;
  /** Alias of `configuration.defaultRequestParams`. */
  readonly requestParams: Record<string, QueryParams>;
  /** Alias of `configuration.defaultHeaders`. */
  readonly defaultHeaders: Headers;
  /**
   * Base URL of every request; a trailing slash is dropped.
   * @default ''
   * @example ClientProvider.setBaseUrl('/api/v1');
   */
  setBaseUrl(url: string): this;
  /**
   * Fields of a parent copied into the `parentResource` of its children.
   * @default []
   * @example ClientProvider.setExtraFields(['name']);
   */
  setExtraFields(fields: string[]): this;
  /**
   * `true`: no element keeps its parent in URLs; array: only these routes.
   * @default false
   * @example ClientProvider.setParentless(['buildings']);
   */
  setParentless(values: boolean | string[]): this;
  /**
   * Options of the HTTP facility used on every call.
   * @default {}
   * @example ClientProvider.setDefaultHttpFields({cache: true});
   */
  setDefaultHttpFields(values: HttpConfig): this;
  /**
   * Run element transformers only for elements that came from the server.
   * @default true
   * @example Client.setTransformOnlyServerElements(false);
   */
  setTransformOnlyServerElements(active: boolean): this;
  /**
   * Use JSONP for get and getList.
   * @default false
   * @example ClientProvider.setJsonp(true); ClientProvider.setDefaultRequestParams('jsonp', {callback: 'JSON_CALLBACK'});
   */
  setJsonp(active: boolean): this;
  /**
   * Default query params for all (`common`) or some operations; call params win.
   * @default {}
   * @example ClientProvider.setDefaultRequestParams(['get', 'remove'], {apiKey: 'k'});
   */
  setDefaultRequestParams(methods: string | string[], params: QueryParams): this;
  setDefaultRequestParams(params: QueryParams): this;
  /**
   * Resolve with `{data, status, headers, config}` instead of the data.
   * @default false
   * @example ClientProvider.setFullResponse(true);
   */
  setFullResponse(full: boolean): this;
  /**
   * Headers sent on every request.
   * @default {}
   * @example ClientProvider.setDefaultHeaders({Authorization: 'Bearer t'});
   */
  setDefaultHeaders(headers: Headers): this;
  /**
   * Appended to request URLs (not to self links).
   * @default null
   * @example ClientProvider.setRequestSuffix('.json');
   */
  setRequestSuffix(suffix: string | null): this;
  /**
   * Use the id received from the server in URLs even after the element's id was changed.
   * @default false
   * @example ClientProvider.setUseCannonicalId(true);
   */
  setUseCannonicalId(value: boolean): this;
  /**
   * Resolve with plain data, without library methods.
   * @default false
   * @example ClientProvider.setPlainByDefault(true);
   */
  setPlainByDefault(value: boolean): this;
  /**
   * URL-encode ids.
   * @default true
   * @example ClientProvider.setEncodeIds(false);
   */
  setEncodeIds(encode: boolean): this;
  /**
   * Operations sent as POST with `X-HTTP-Method-Override`. `delete` covers `remove`.
   * @default []
   * @example ClientProvider.setMethodOverriders(['put', 'delete']);
   */
  setMethodOverriders(methods: string[]): this;
  /**
   * Rename fields and methods of enhanced objects.
   * @default see ClientFields
   * @example ClientProvider.setClientFields({id: '_id', selfLink: '_links.self.href'});
   */
  setClientFields(fields: Partial<ClientFields>): this;
  /**
   * How self links are treated; see `ClientConfiguration.absoluteUrl`.
   * @default true
   * @example ClientProvider.setSelfLinkAbsoluteUrl(false);
   */
  setSelfLinkAbsoluteUrl(value: boolean | null): this;
  /** Only `'path'` exists. @default 'path' */
  setUrlCreator(name: string): this;
  /**
   * Transform elements (and/or collections) of a route after they were enhanced; the result
   * replaces the element. `isCollection` true/false limits it to collections/elements.
   * @default none
   * @example ClientProvider.addElementTransformer('users', false, (u) => { u.fullName = u.first + ' ' + u.last; return u; });
   */
  addElementTransformer(route: string | RegExp, transformer: ElementTransformer): this;
  addElementTransformer(route: string | RegExp, isCollection: boolean, transformer: ElementTransformer): this;
  /**
   * `addElementTransformer(route, true, fn)`.
   * @example ClientProvider.extendCollection('users', (c) => { c.active = () => c.filter((u) => u.active); return c; });
   */
  extendCollection(route: string | RegExp, fn: ElementTransformer): this;
  /**
   * `addElementTransformer(route, false, fn)`.
   * @example ClientProvider.extendModel('users', (u) => { u.addClientMethod('ban', 'put', 'ban'); return u; });
   */
  extendModel(route: string | RegExp, fn: ElementTransformer): this;
  /**
   * Called for every enhanced object: a collection first, then each of its elements.
   * @default none
   * @example ClientProvider.setOnElemClientized((elem, isCollection, what, Client) => { elem.loadedAt = Date.now(); });
   */
  setOnElemClientized(fn: OnElemClientized): this;
  /**
   * Called with the raw object before it is enhanced; returns the object to enhance.
   * @default identity
   * @example ClientProvider.setOnBeforeElemClientized((elem) => elem);
   */
  setOnBeforeElemClientized(fn: (elem: any, isCollection: boolean, what: string) => any): this;
  /**
   * Called with every enhanced promise (to add members to promises).
   * @default none
   * @example ClientProvider.setClientizePromiseInterceptor((promise) => { promise.$loading = true; });
   */
  setClientizePromiseInterceptor(fn: (promise: ClientPromise<any>) => void): this;
  /**
   * After each response, in the order added: returns the data to enhance.
   * @default none
   * @example ClientProvider.addResponseInterceptor((data, operation) => operation === 'getList' ? Object.assign(data.items, {meta: data.meta}) : data.item);
   */
  addResponseInterceptor(fn: ResponseInterceptor): this;
  /**
   * Before sending: returns the element to send; `null` sends no body.
   * @default none
   * @example ClientProvider.addRequestInterceptor((elem, operation) => operation === 'remove' ? null : elem);
   */
  addRequestInterceptor(fn: RequestInterceptor): this;
  /**
   * Before sending: returns any of `{element, headers, params, httpConfig}`; omitted ones keep their value.
   * @default none
   * @example ClientProvider.addFullRequestInterceptor((elem, op, what, url, headers) => ({headers: {...headers, 'X-Trace': '1'}}));
   */
  addFullRequestInterceptor(fn: FullRequestInterceptor): this;
  /**
   * On every error, in the order added; returning `false` stops the request's promise from completing.
   * @default none
   * @example ClientProvider.addErrorInterceptor((response, deferred, responseHandler) => { if (response.status === 401) { refresh().then(() => $http(response.config).then(responseHandler, deferred.reject)); return false; } return true; });
   */
  addErrorInterceptor(fn: ErrorInterceptor): this;
  /** Same as addErrorInterceptor. @example ClientProvider.setErrorInterceptor((response) => response.status !== 404); */
  setErrorInterceptor(fn: ErrorInterceptor): this;
  /** @deprecated single slot (a second call replaces); use addResponseInterceptor */
  setResponseInterceptor(fn: ResponseInterceptor): this;
  /** @deprecated alias of setResponseInterceptor; use addResponseInterceptor */
  setResponseExtractor(fn: ResponseInterceptor): this;
  /** @deprecated single slot (a second call replaces); use addRequestInterceptor */
  setRequestInterceptor(fn: RequestInterceptor): this;
  /** @deprecated single slot (a second call replaces); use addFullRequestInterceptor */
  setFullRequestInterceptor(fn: FullRequestInterceptor): this;
}

/** A promise of the library: `$q` promise (AngularJS) or native Promise, enhanced. */
export interface ClientPromise<T> extends PromiseLike<T> {
  /** New promise of the previous value, resolved after `value[method](...args)` was called. */
  call(method: string, ...args: any[]): ClientPromise<T>;
  /** Promise of one field of the result. */
  get(field: string): ClientPromise<any>;
  /** Arrays only: `call('push', ...)`. */
  push?(...items: any[]): ClientPromise<T>;
  /** Filled in place when the server answers (empty array/object before). */
  $object: T;
  catch<R = never>(onRejected?: ((reason: any) => R | PromiseLike<R>) | null): PromiseLike<T | R>;
  finally?(fn: () => any): PromiseLike<T>;
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
  withHttpConfig(config: HttpConfig): this;
  addClientMethod(name: string, operation: string, path?: string, params?: QueryParams, headers?: Headers, elem?: any): void;
  head(params?: QueryParams, headers?: Headers): ClientPromise<any>;
  trace(params?: QueryParams, headers?: Headers): ClientPromise<any>;
  options(params?: QueryParams, headers?: Headers): ClientPromise<any>;
  patch(object: any, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  remove(params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customGET(path: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customGETLIST(path: string, params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection>;
  customDELETE(path: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customPOST(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customPUT(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customPATCH(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  customOperation(operation: string, path?: string, params?: QueryParams, headers?: Headers, elem?: any): ClientPromise<any>;
  doGET(path: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  doGETLIST(path: string, params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection>;
  doDELETE(path: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  doPOST(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  doPUT(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  doPATCH(elem?: any, path?: string, params?: QueryParams, headers?: Headers): ClientPromise<any>;
  clone(): this;
  readonly route: string;
  readonly parentResource: any;
  readonly clientCollection: boolean;
}

/** Methods shared by elements and collections, with an element's own fields. */
export interface ClientBase extends ClientCommon {
  plain(): any;
  readonly fromServer: boolean;
  readonly reqParams: QueryParams | null;
  clientEtag?: string;
  [field: string]: any;
}

/** The methods and library fields of an element whose data is `T` (no index signature). */
export interface ClientElementMethods<T = any> extends ClientCommon {
  get(params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<T>>;
  getList<U = any>(subElement?: string, params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<U>>;
  put(params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<T>>;
  post<U = any>(subElement: string, elementToPost: any, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<U>>;
  save(params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<T>>;
  getParentList(): ClientCollection<T> | undefined;
  /** The data only, as a plain object. */
  plain(): T;
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

/** An enhanced collection of elements of `T`: a real array whose prototype carries the collection methods. */
export interface ClientCollection<T = any> extends Array<ClientElement<T>>, ClientCommon {
  getList(params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<T>>;
  get(id: any, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<T>>;
  post(elementToPost: PostBody<T>, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<T>>;
  putElement(idx: number, params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<T>>;
  plain(): T[];
  [field: string]: any;
}

/** `Client.service(route)` result. */
export interface ClientRouteService<T = any> {
  one(id: any): ClientElement<T>;
  get(id: any, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<T>>;
  getList(params?: QueryParams, headers?: Headers): ClientPromise<ClientCollection<T>>;
  post(elementToPost: PostBody<T>, params?: QueryParams, headers?: Headers): ClientPromise<ClientElement<T>>;
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
