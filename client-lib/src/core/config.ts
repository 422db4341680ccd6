/**
 * Configuration: the values and overridable functions of `Client.configuration`, and the
 * setters shared by the provider, the service and `withConfig`'s configurer.
 *
 * The overridable functions live on a shared prototype and use `this`, so a user override
 * (`configuration.getIdFromElem = fn`) is an own property that `withConfig` copies along.
 */
import type { ClientConfiguration, ClientConfigurer, ClientFields, FullRequest, FullRequestInterceptor } from './types.js';

/** Internal: where an element keeps its bookkeeping (route, parent, etag...). Never enumerable. */
export const META: unique symbol = Symbol('client.meta') as any;

export const DEFAULT_FIELDS: ClientFields = {
  id: 'id',
  route: 'route',
  parentResource: 'parentResource',
  clientCollection: 'clientCollection',
  cannonicalId: '__cannonicalId',
  etag: 'clientEtag',
  selfLink: 'href',
  get: 'get',
  getList: 'getList',
  put: 'put',
  post: 'post',
  remove: 'remove',
  head: 'head',
  trace: 'trace',
  options: 'options',
  patch: 'patch',
  getClientUrl: 'getClientUrl',
  getRequestedUrl: 'getRequestedUrl',
  putElement: 'putElement',
  addClientMethod: 'addClientMethod',
  getParentList: 'getParentList',
  clone: 'clone',
  ids: 'ids',
  httpConfig: '_$httpConfig',
  reqParams: 'reqParams',
  one: 'one',
  all: 'all',
  several: 'several',
  oneUrl: 'oneUrl',
  allUrl: 'allUrl',
  customPUT: 'customPUT',
  customPATCH: 'customPATCH',
  customPOST: 'customPOST',
  customDELETE: 'customDELETE',
  customGET: 'customGET',
  customGETLIST: 'customGETLIST',
  customOperation: 'customOperation',
  doPUT: 'doPUT',
  doPATCH: 'doPATCH',
  doPOST: 'doPOST',
  doDELETE: 'doDELETE',
  doGET: 'doGET',
  doGETLIST: 'doGETLIST',
  fromServer: 'fromServer',
  withConfig: 'withConfig',
  withHttpConfig: 'withHttpConfig',
  singleOne: 'singleOne',
  plain: 'plain',
  save: 'save',
  clientized: 'clientized',
};

/** The default element hooks (onBeforeElemClientized, onElemClientized): the element as given. */
export const DEFAULT_HOOK = (elem: any): any => elem;

const SAFE: Record<string, true> = { get: true, head: true, options: true, trace: true, getlist: true, getList: true, jsonp: true };
const ABSOLUTE = /^https?:\/\//i;

function isValidId(id: any): boolean {
  return id !== '' && id !== undefined && id !== null;
}

/** Default implementations; `this` is the configuration. */
const configurationProto: Partial<ClientConfiguration> & ThisType<ClientConfiguration> = {
  isSafe(operation: string) {
    return SAFE[operation] === true || (operation !== 'post' && operation !== 'put' && SAFE[String(operation).toLowerCase()] === true);
  },
  isAbsoluteUrl(url: string) {
    return this.absoluteUrl === undefined || this.absoluteUrl === null ? !!url && ABSOLUTE.test(url) : this.absoluteUrl;
  },
  isOverridenMethod(method: string, values?: string[]) {
    const search = values || this.methodOverriders;
    const m = String(method).toLowerCase();
    for (let i = 0; i < search.length; i++) if (String(search[i]).toLowerCase() === m) return true;
    return false;
  },
  isValidId,
  setFieldToElem(field: string, elem: any, value: any) {
    if (field.indexOf('.') < 0) {
      elem[field] = value;
      return this;
    }
    const props = field.split('.');
    let target = elem;
    for (let i = 0; i < props.length - 1; i++) {
      if (target[props[i]] === null || typeof target[props[i]] !== 'object') target[props[i]] = {};
      target = target[props[i]];
    }
    target[props[props.length - 1]] = value;
    return this;
  },
  getFieldFromElem(field: string, elem: any) {
    if (field.indexOf('.') < 0) return elem == null ? undefined : elem[field];
    const props = field.split('.');
    let value = elem;
    for (let i = 0; i < props.length && value != null; i++) value = value[props[i]];
    return value;
  },
  setIdToElem(elem: any, id: any) {
    this.setFieldToElem(this.clientFields.id, elem, id);
    return this;
  },
  getIdFromElem(elem: any) {
    return this.getFieldFromElem(this.clientFields.id, elem);
  },
  setUrlToElem(elem: any, url: any) {
    this.setFieldToElem(this.clientFields.selfLink, elem, url);
    return this;
  },
  getUrlFromElem(elem: any) {
    return this.getFieldFromElem(this.clientFields.selfLink, elem);
  },
  getCannonicalIdFromElem(elem: any) {
    const cannonical = elem[this.clientFields.cannonicalId];
    return this.isValidId(cannonical) ? cannonical : this.getIdFromElem(elem);
  },
  shouldSaveParent() {
    return true;
  },
  onBeforeElemClientized: DEFAULT_HOOK,
  onElemClientized: DEFAULT_HOOK,
  withHttpValues(local: any, obj: any) {
    return defaults(obj, local, this.defaultHttpFields);
  },
  defaultResponseInterceptor(data: any) {
    return data;
  },
  responseExtractor(data: any, operation: string, what: string, url: string, response: any, deferred: any) {
    let theData = data;
    const list = this.responseInterceptors.length ? this.responseInterceptors.slice() : this.responseInterceptors;
    for (let i = 0; i < list.length; i++) theData = list[i]!(theData, operation as any, what, url, response, deferred);
    return this.defaultResponseInterceptor(theData, operation, what, url, response, deferred);
  },
  fullRequestInterceptor(element: any, operation: string, what: string, url: string, headers: any, params: any, httpConfig: any): FullRequest {
    const request: FullRequest = { element, headers, params, httpConfig };
    const list = this.requestInterceptors.length ? this.requestInterceptors.slice() : this.requestInterceptors;
    for (let i = 0; i < list.length; i++) {
      const result = list[i]!(request.element, operation, what, url, request.headers!, request.params!, request.httpConfig!);
      if (result && typeof result === 'object') Object.assign(request, result);
    }
    return request;
  },
};
Object.defineProperty(configurationProto, 'requestParams', {
  get(this: ClientConfiguration) {
    return this.defaultRequestParams;
  },
});
Object.defineProperty(configurationProto, 'suffix', {
  get(this: ClientConfiguration) {
    return this.requestSuffix;
  },
  set(this: ClientConfiguration, v: string | null) {
    this.requestSuffix = v;
  },
});

/** `_.defaults`: fill keys of `obj` that are undefined from the sources in order. */
export function defaults(obj: any, ...sources: any[]): any {
  for (const src of sources) {
    if (!src) continue;
    for (const k in src) if (obj[k] === undefined) obj[k] = src[k];
  }
  return obj;
}

/** A fresh configuration with every default. */
export function createConfiguration(): ClientConfiguration {
  const c = Object.create(configurationProto) as ClientConfiguration;
  c.baseUrl = '';
  c.absoluteUrl = true;
  c.extraFields = [];
  c.defaultHttpFields = {};
  c.plainByDefault = false;
  c.encodeIds = true;
  c.defaultRequestParams = { get: {}, post: {}, put: {}, remove: {}, common: {} };
  c.defaultHeaders = {};
  c.methodOverriders = [];
  c.jsonp = false;
  c.urlCreator = 'path';
  c.clientFields = { ...DEFAULT_FIELDS };
  c.fieldsVersion = 0;
  c.responseInterceptors = [];
  c.requestInterceptors = [];
  c.errorInterceptors = [];
  c.clientizePromiseInterceptor = null;
  c.requestSuffix = null;
  c.transformers = {};
  c.matchTransformers = [];
  // Restangular 1.6.1 runs element transformers on one()/all() pointers too (issue 38).
  c.transformLocalElements = true;
  c.fullResponse = false;
  c.useCannonicalId = false;
  return c;
}

/** The copy `withConfig` starts from: inherits everything, shares nothing mutable. */
export function cloneConfiguration(src: ClientConfiguration): ClientConfiguration {
  const c = Object.create(configurationProto) as ClientConfiguration;
  for (const k of Object.keys(src)) {
    const v = (src as any)[k];
    if (Array.isArray(v)) (c as any)[k] = v.slice();
    else if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) (c as any)[k] = { ...v };
    else (c as any)[k] = v;
  }
  const rp: any = {};
  for (const k of Object.keys(src.defaultRequestParams)) rp[k] = { ...src.defaultRequestParams[k] };
  c.defaultRequestParams = rp;
  const tr: any = {};
  for (const k of Object.keys(src.transformers)) tr[k] = src.transformers[k].slice();
  c.transformers = tr;
  c.slots = { ...(src.slots || {}) };
  return c;
}

/**
 * Attach the setters to `target` (the provider, the service, or withConfig's configurer).
 * `onFieldsChange` lets the service rebuild its shared prototypes.
 */
export function attachConfigurer<T extends object>(target: T, config: ClientConfiguration): T & ClientConfigurer {
  const t: any = target;
  const def = (name: string, fn: (...args: any[]) => any) =>
    Object.defineProperty(t, name, { value: fn, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(t, 'configuration', { value: config, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(t, 'requestParams', { get: () => config.defaultRequestParams, configurable: true, enumerable: true });
  Object.defineProperty(t, 'defaultHeaders', { get: () => config.defaultHeaders, configurable: true, enumerable: true });

  // Deprecated set* interceptor forms own one slot each in the chain: a second call replaces.
  const slot = (list: any[], key: string, fn: any) => {
    config.slots = config.slots || {};
    const prev = config.slots[key];
    const i = prev ? list.indexOf(prev) : -1;
    if (i >= 0) list[i] = fn;
    else list.push(fn);
    config.slots[key] = fn;
  };
  const wrapRequest = (interceptor: any): FullRequestInterceptor => (elem, operation, what, url, headers, params, httpConfig) => ({
    headers,
    params,
    element: interceptor(elem, operation, what, url),
    httpConfig,
  });

  def('setSelfLinkAbsoluteUrl', function (this: any, value: boolean | null) {
    config.absoluteUrl = value;
    return this;
  });
  def('setBaseUrl', function (this: any, url: string) {
    config.baseUrl = /\/$/.test(url) ? url.substring(0, url.length - 1) : url;
    return this;
  });
  def('setExtraFields', function (this: any, fields: string[]) {
    config.extraFields = fields;
    return this;
  });
  def('setDefaultHttpFields', function (this: any, values: any) {
    config.defaultHttpFields = values;
    return this;
  });
  def('setPlainByDefault', function (this: any, value: boolean) {
    config.plainByDefault = value === true;
    return this;
  });
  def('setEncodeIds', function (this: any, encode: boolean) {
    config.encodeIds = encode;
    return this;
  });
  def('setDefaultRequestParams', function (this: any, param1: any, param2?: any) {
    let methods: string[] = [];
    const params = param2 || param1;
    if (param2 !== undefined) methods = Array.isArray(param1) ? param1 : [param1];
    else methods.push('common');
    for (const m of methods) config.defaultRequestParams[m] = params;
    return this;
  });
  def('setDefaultHeaders', function (this: any, headers: any) {
    config.defaultHeaders = headers;
    return this;
  });
  def('setMethodOverriders', function (this: any, values: string[]) {
    const overriders = values.slice();
    if (config.isOverridenMethod('delete', overriders)) overriders.push('remove');
    config.methodOverriders = overriders;
    return this;
  });
  def('setJsonp', function (this: any, active: boolean) {
    config.jsonp = active;
    return this;
  });
  def('setUrlCreator', function (this: any, name: string) {
    if (name !== 'path') throw new Error("URL Path selected isn't valid");
    config.urlCreator = name;
    return this;
  });
  def('setClientFields', function (this: any, fields: Partial<ClientFields>) {
    config.clientFields = Object.assign(config.clientFields, fields);
    config.fieldsVersion = (config.fieldsVersion || 0) + 1;
    return this;
  });
  def('addResponseInterceptor', function (this: any, fn: any) {
    config.responseInterceptors.push(fn);
    return this;
  });
  def('setResponseInterceptor', function (this: any, fn: any) {
    slot(config.responseInterceptors, 'response', fn);
    return this;
  });
  t.setResponseExtractor = t.setResponseInterceptor;
  def('addErrorInterceptor', function (this: any, fn: any) {
    config.errorInterceptors.push(fn);
    return this;
  });
  t.setErrorInterceptor = t.addErrorInterceptor;
  def('addRequestInterceptor', function (this: any, fn: any) {
    config.requestInterceptors.push(wrapRequest(fn));
    return this;
  });
  def('setRequestInterceptor', function (this: any, fn: any) {
    slot(config.requestInterceptors, 'request', wrapRequest(fn));
    return this;
  });
  def('addFullRequestInterceptor', function (this: any, fn: any) {
    config.requestInterceptors.push(fn);
    return this;
  });
  def('setFullRequestInterceptor', function (this: any, fn: any) {
    slot(config.requestInterceptors, 'fullRequest', fn);
    return this;
  });
  def('setOnBeforeElemClientized', function (this: any, fn: any) {
    config.onBeforeElemClientized = fn;
    return this;
  });
  def('setClientizePromiseInterceptor', function (this: any, fn: any) {
    config.clientizePromiseInterceptor = fn;
    return this;
  });
  def('setOnElemClientized', function (this: any, fn: any) {
    config.onElemClientized = fn;
    return this;
  });
  def('setParentless', function (this: any, values: boolean | string[]) {
    if (Array.isArray(values)) config.shouldSaveParent = (route: string) => values.indexOf(route) < 0;
    else if (typeof values === 'boolean') config.shouldSaveParent = () => !values;
    return this;
  });
  def('setRequestSuffix', function (this: any, suffix: string | null) {
    config.requestSuffix = suffix;
    return this;
  });
  def('addElementTransformer', function (this: any, type: string | RegExp, second: any, third?: any) {
    let isCollection: boolean | null = null;
    let transformer: any;
    if (third === undefined && typeof second === 'function') transformer = second;
    else {
      transformer = third;
      isCollection = second;
    }
    const fn = (coll: boolean, elem: any) => (isCollection === null || coll === isCollection ? transformer(elem) : elem);
    if (type instanceof RegExp) config.matchTransformers.push({ regexp: type, transformer: fn });
    else (config.transformers[type] = config.transformers[type] || []).push(fn);
    return this;
  });
  def('extendCollection', function (this: any, route: any, fn: any) {
    return t.addElementTransformer.call(this, route, true, fn);
  });
  def('extendModel', function (this: any, route: any, fn: any) {
    return t.addElementTransformer.call(this, route, false, fn);
  });
  def('setTransformOnlyServerElements', function (this: any, active: boolean) {
    config.transformLocalElements = !active;
    return this;
  });
  def('setFullResponse', function (this: any, full: boolean) {
    config.fullResponse = full;
    return this;
  });
  def('setUseCannonicalId', function (this: any, value: boolean) {
    config.useCannonicalId = value;
    return this;
  });
  return t;
}
