/** The setters of the configuration (`ClientProvider`, `Client`, `withConfig`): part of the public types (re-exported by types.ts). */
import type { QueryParams, Headers, HttpConfig } from './http-types.js';
import type { ClientFields, ClientPromise, ResponseInterceptor, RequestInterceptor, FullRequestInterceptor, ErrorInterceptor, ElementTransformer, OnElemClientized, ClientConfiguration } from './types.js';

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
   * Run element transformers only for elements that came from the server (`true`), or also on
   * local pointers made by `one()`, `all()`, `several()` (`false`, Restangular 1.6.1's behaviour).
   * @default false
   * @example Client.setTransformOnlyServerElements(true);
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
