/**
 * The framework-free core: builds the `Client` service for one configuration on top of a
 * {@link Runtime} (AngularJS `$http`/`$q`, or fetch/native Promise).
 *
 * Enhanced objects keep their data as own enumerable properties. Library bookkeeping lives in
 * one non-enumerable symbol slot (META) and is exposed through accessors on a prototype shared
 * by every element of a service, with the methods; so `JSON.stringify(elem)` is the data, and a
 * list of 10,000 elements costs 10,000 small bookkeeping objects, not 10,000 sets of closures.
 */
import { META, attachConfigurer, cloneConfiguration, defaults } from './config.js';
import { ClientError, ClientHttpError, toHttpError } from './errors.js';
import { encodeUriQuery, normalizeUrl } from './url.js';
import type {
  ClientConfiguration,
  ClientConfigurer,
  ClientPromise,
  ClientService,
  Deferred,
  HttpConfig,
  HttpResponse,
  Runtime,
} from './types.js';

/** Bookkeeping of one enhanced object. */
interface Meta {
  route: any;
  parentResource: any;
  clientCollection: boolean;
  fromServer: boolean;
  reqParams: any;
  etag?: any;
  httpConfig?: any;
  singleOne?: any;
  ids?: any[];
  cannonicalId?: any;
  parentList?: any;
}

const HTTP_METHOD: Record<string, string> = {
  get: 'GET',
  getList: 'GET',
  jsonp: 'JSONP',
  put: 'PUT',
  post: 'POST',
  remove: 'DELETE',
  head: 'HEAD',
  trace: 'TRACE',
  options: 'OPTIONS',
  patch: 'PATCH',
};
const OPERATIONS: Record<string, string> = {
  get: 'get',
  getlist: 'getList',
  post: 'post',
  put: 'put',
  remove: 'remove',
  delete: 'remove',
  head: 'head',
  options: 'options',
  patch: 'patch',
  trace: 'trace',
};

const hasOwn = Object.prototype.hasOwnProperty;
const isObject = (v: any): boolean => v !== null && typeof v === 'object';
/** What can be enhanced: objects, arrays and (as in Restangular) functions. */
const isEnhanceable = (v: any): boolean => v !== null && (typeof v === 'object' || typeof v === 'function');

/**
 * Give `fn` the members of `proto` as own non-enumerable properties: a function keeps
 * Function.prototype (call, apply, bind) and still answers the element methods.
 */
function adoptPrototype(fn: any, proto: any): void {
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor' || key === 'length') continue;
    const own = Object.getOwnPropertyDescriptor(fn, key);
    if (own && !own.configurable) continue;
    Object.defineProperty(fn, key, Object.getOwnPropertyDescriptor(proto, key)!);
  }
}
const isEmpty = (o: any): boolean => {
  if (!o) return true;
  for (const k in o) if (hasOwn.call(o, k)) return false;
  return true;
};

const hasHeader = (headers: Record<string, any>, name: string): boolean => {
  const lower = name.toLowerCase();
  for (const k in headers) if (k.toLowerCase() === lower) return true;
  return false;
};
const isBinaryBody = (d: any): boolean =>
  (typeof FormData !== 'undefined' && d instanceof FormData) ||
  (typeof Blob !== 'undefined' && d instanceof Blob) ||
  (typeof URLSearchParams !== 'undefined' && d instanceof URLSearchParams) ||
  d instanceof ArrayBuffer ||
  ArrayBuffer.isView(d);

/** The meta slot of an enhanced object (undefined for plain values). */
export function metaOf(x: any): Meta | undefined {
  return x !== null && (typeof x === 'object' || typeof x === 'function') ? x[META] : undefined;
}

function setMeta(x: any, m: Meta): void {
  Object.defineProperty(x, META, { value: m, writable: true, configurable: true, enumerable: false });
}

function deepCopy(v: any, copyElement: (e: any) => any): any {
  if (!isObject(v)) return v;
  if (metaOf(v)) return copyElement(v);
  if (v instanceof Date) return new Date(v.getTime());
  if (v instanceof RegExp) return new RegExp(v.source, v.flags);
  if (Array.isArray(v)) return v.map((x) => deepCopy(x, copyElement));
  const out: any = Object.create(Object.getPrototypeOf(v));
  for (const k of Object.keys(v)) out[k] = deepCopy(v[k], copyElement);
  return out;
}

/**
 * Build the `Client` service for `config` on `runtime`. The setters of `config` are attached
 * to the returned service (run phase).
 */
export function createService(config: ClientConfiguration, runtime: Runtime): ClientService {
  const service: any = {};
  const F = () => config.clientFields;

  // ---------------------------------------------------------------- field access
  // Meta values of enhanced objects; for plain objects given by the user, the named field.
  const mget = (x: any, key: keyof Meta): any => {
    const m = metaOf(x);
    if (m) return m[key];
    if (x == null) return undefined;
    const name = key === 'parentList' ? undefined : F()[key === 'etag' ? 'etag' : key];
    return name ? x[name] : undefined;
  };
  const isClientized = (obj: any): boolean => !!metaOf(obj);

  // ---------------------------------------------------------------- URLs
  function parentsArray(current: any): any[] {
    const parents: any[] = [];
    while (current) {
      parents.push(current);
      current = mget(current, 'parentResource');
    }
    return parents.reverse();
  }

  function base(current: any): string {
    const parents = parentsArray(current);
    let acum: string = config.baseUrl;
    for (const elem of parents) {
      let elemUrl: string;
      const selfLink = config.getUrlFromElem(elem);
      if (selfLink) {
        if (config.isAbsoluteUrl(selfLink)) {
          acum = selfLink;
          continue;
        }
        elemUrl = selfLink;
      } else {
        elemUrl = mget(elem, 'route');
        if (mget(elem, 'clientCollection')) {
          const ids = mget(elem, 'ids');
          if (ids) elemUrl += '/' + ids.map((id: any) => encodeId(id)).join(',');
        } else {
          const id = config.useCannonicalId ? config.getCannonicalIdFromElem(elem) : config.getIdFromElem(elem);
          if (config.isValidId(id) && !mget(elem, 'singleOne')) elemUrl += '/' + encodeId(id);
        }
      }
      acum = normalizeUrl(acum.replace(/\/$/, '') + '/' + elemUrl);
    }
    return acum;
  }

  const encodeId = (id: any): string => (config.encodeIds ? encodeURIComponent(id) : String(id));

  function fetchUrl(current: any, what?: any): string {
    let url = base(current);
    if (what) url += '/' + what;
    return url;
  }

  function fetchRequestedUrl(current: any, what?: any): string {
    const url = fetchUrl(current, what);
    const params = mget(current, 'reqParams');
    const suffix = config.requestSuffix || '';
    if (!params) return url + suffix;
    const parts: string[] = [];
    for (const key of Object.keys(params).sort()) {
      let value = params[key];
      if (value === null || value === undefined) continue;
      if (!Array.isArray(value)) value = [value];
      for (let v of value) {
        if (isObject(v)) v = JSON.stringify(v);
        parts.push(encodeUriQuery(key) + '=' + encodeUriQuery(v));
      }
    }
    return url + suffix + (url.indexOf('?') === -1 ? '?' : '&') + parts.join('&');
  }

  /** The `$http` config of one call (Restangular's `resource()`). */
  function httpConfigFor(
    current: any,
    localHttpConfig: any,
    callHeaders: any,
    callParams: any,
    what: any,
    etag: any,
    callOperation: string,
    data: any,
    hasData: boolean,
  ): HttpConfig {
    const params = Object.assign({}, config.defaultRequestParams.common, config.defaultRequestParams[callOperation === 'getList' ? 'get' : callOperation], callParams);
    const headers = defaults(Object.assign({}, callHeaders), config.defaultHeaders);
    if (etag) {
      if (!config.isSafe(callOperation)) headers['If-Match'] = etag;
      else headers['If-None-Match'] = etag;
    }
    let url = base(current);
    if (what || what === 0) url += (/\/$/.test(url) ? '' : '/') + what;
    const suffix = config.requestSuffix;
    if (suffix && url.indexOf(suffix, url.length - suffix.length) === -1 && !config.getUrlFromElem(current)) url += suffix;
    const m = metaOf(current);
    if (m) m.httpConfig = undefined;
    const cfg: any = { method: HTTP_METHOD[callOperation], headers, url };
    if (!isEmpty(params)) cfg.params = params;
    if (hasData && data !== undefined && data !== null) {
      cfg.data = data;
      // $http only defaults a JSON Content-Type for POST, PUT and PATCH; a DELETE (or overridden
      // GET) with a JSON body would go as text/plain.
      if (isObject(data) && !hasHeader(headers, 'Content-Type') && !isBinaryBody(data)) headers['Content-Type'] = 'application/json;charset=utf-8';
    }
    return config.withHttpValues(localHttpConfig, cfg);
  }

  // ---------------------------------------------------------------- prototypes
  let protoVersion = -1;
  let elemProto: any;
  let collProto: any;

  function buildPrototypes(): void {
    const f = F();
    elemProto = Object.create(Object.prototype);
    collProto = Object.create(Array.prototype);
    const both = [elemProto, collProto];
    const def = (obj: any, name: string, value: any) =>
      Object.defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
    const accessor = (key: keyof Meta, name: string, map?: (v: any) => any) => {
      for (const p of both)
        Object.defineProperty(p, name, {
          get(this: any) {
            const m = this[META];
            return m ? (map ? map(m[key]) : m[key]) : undefined;
          },
          set(this: any, v: any) {
            const m = this[META];
            if (m) (m as any)[key] = v;
            else Object.defineProperty(this, name, { value: v, writable: true, configurable: true, enumerable: true });
          },
          configurable: true,
          enumerable: false,
        });
    };
    accessor('route', f.route);
    accessor('parentResource', f.parentResource);
    accessor('clientCollection', f.clientCollection);
    accessor('fromServer', f.fromServer);
    accessor('reqParams', f.reqParams);
    accessor('etag', f.etag);
    accessor('httpConfig', f.httpConfig!);
    accessor('singleOne', f.singleOne!);
    accessor('ids', f.ids!);
    accessor('cannonicalId', f.cannonicalId);
    for (const p of both) {
      Object.defineProperty(p, f.clientized!, { get: () => true, configurable: true, enumerable: false });
      def(p, f.getClientUrl!, function (this: any, what?: any) {
        return fetchUrl(this, what);
      });
      def(p, f.getRequestedUrl!, function (this: any, what?: any) {
        return fetchRequestedUrl(this, what);
      });
      def(p, f.addClientMethod!, function (this: any, ...args: any[]) {
        return addClientMethod(this, args[0], args[1], args[2], args[3], args[4], args[5]);
      });
      def(p, f.clone!, function (this: any) {
        return copyElement(this);
      });
      // angular.copy (1.x) hands an object with a cloneNode method to it instead of copying its
      // own enumerable keys: so an angular.copy of an element is an element (route, parent, id,
      // fromServer kept), as in Restangular where that bookkeeping is enumerable data.
      def(p, 'cloneNode', function (this: any) {
        return copyElement(this);
      });
      def(p, f.withHttpConfig!, function (this: any, httpConfig: any) {
        const m = metaOf(this);
        if (m) m.httpConfig = httpConfig;
        return this;
      });
      def(p, f.plain!, function (this: any) {
        return strip(this);
      });
      def(p, f.one!, function (this: any, route: any, id?: any, singleOne?: any) {
        return one(this, route, id, singleOne);
      });
      def(p, f.all!, function (this: any, route: any) {
        return all(this, route);
      });
      def(p, f.several!, function (this: any, route: any, ...ids: any[]) {
        return several(this, route, ids);
      });
      def(p, f.oneUrl!, function (this: any, route: any, url: any) {
        return oneUrl(this, route, url);
      });
      def(p, f.allUrl!, function (this: any, route: any, url: any) {
        return allUrl(this, route, url);
      });
      def(p, f.remove!, function (this: any, params?: any, headers?: any) {
        return elemFunction(this, 'remove', undefined, params, undefined, headers);
      });
      def(p, f.head!, function (this: any, params?: any, headers?: any) {
        return elemFunction(this, 'head', undefined, params, undefined, headers);
      });
      def(p, f.trace!, function (this: any, params?: any, headers?: any) {
        return elemFunction(this, 'trace', undefined, params, undefined, headers);
      });
      def(p, f.options!, function (this: any, params?: any, headers?: any) {
        return elemFunction(this, 'options', undefined, params, undefined, headers);
      });
      def(p, f.patch!, function (this: any, elem: any, params?: any, headers?: any) {
        return elemFunction(this, 'patch', undefined, params, elem, headers);
      });
      def(p, f.customOperation!, function (this: any, operation: any, path?: any, params?: any, headers?: any, elem?: any) {
        return customFunction(this, operation, path, params, headers, elem);
      });
      for (const alias of ['custom', 'do']) {
        def(p, f[alias + 'GET']!, function (this: any, path?: any, params?: any, headers?: any) {
          return customFunction(this, 'get', path, params, headers, undefined);
        });
        def(p, f[alias + 'DELETE']!, function (this: any, path?: any, params?: any, headers?: any) {
          return customFunction(this, 'remove', path, params, headers, undefined);
        });
        for (const op of ['post', 'put', 'patch']) {
          def(p, f[alias + op.toUpperCase()]!, function (this: any, elem?: any, path?: any, params?: any, headers?: any) {
            return customFunction(this, op, path, params, headers, elem);
          });
        }
        def(p, f[alias + 'GETLIST']!, function (this: any, path?: any, params?: any, headers?: any) {
          return fetchFunction(this, path, params, headers);
        });
      }
    }
    // Elements only.
    def(elemProto, f.get!, function (this: any, params?: any, headers?: any) {
      return elemFunction(this, 'get', undefined, params, undefined, headers);
    });
    def(elemProto, f.getList!, function (this: any, what?: any, params?: any, headers?: any) {
      return fetchFunction(this, what, params, headers);
    });
    def(elemProto, f.put!, function (this: any, params?: any, headers?: any) {
      return elemFunction(this, 'put', undefined, params, undefined, headers);
    });
    def(elemProto, f.post!, function (this: any, what: any, elem: any, params?: any, headers?: any) {
      return elemFunction(this, 'post', what, params, elem, headers);
    });
    def(elemProto, f.save!, function (this: any, params?: any, headers?: any) {
      // Restangular's rule: PUT when the element came from the server, else POST.
      if (mget(this, 'fromServer')) return this[F().put!](params, headers);
      return elemFunction(this, 'post', undefined, params, undefined, headers);
    });
    def(elemProto, f.getParentList!, function (this: any) {
      return mget(this, 'parentList');
    });
    // Collections only.
    def(collProto, f.getList!, function (this: any, params?: any, headers?: any) {
      return fetchFunction(this, null, params, headers);
    });
    def(collProto, f.get!, function (this: any, id: any, params?: any, headers?: any) {
      return elemFunction(this, 'get', encodeId(id), params, undefined, headers);
    });
    def(collProto, f.post!, function (this: any, elem: any, params?: any, headers?: any) {
      return elemFunction(this, 'post', null, params, elem, headers);
    });
    def(collProto, f.putElement!, function (this: any, idx: number, params?: any, headers?: any) {
      return putElement(this, idx, params, headers);
    });
    protoVersion = config.fieldsVersion;
  }

  function protoFor(isCollection: boolean): any {
    if (protoVersion !== config.fieldsVersion) buildPrototypes();
    return isCollection ? collProto : elemProto;
  }

  // ---------------------------------------------------------------- enhancing
  /** Snapshot of a parent kept by its children (Restangular picks route, singleOne, parent, extra fields, id, self link). */
  function parentRef(parent: any, route: any): any {
    if (!parent || !config.shouldSaveParent(route)) return null;
    const ref: any = {};
    for (const f of config.extraFields) if (f in parent) ref[f] = parent[f];
    const parentId = config.useCannonicalId ? config.getCannonicalIdFromElem(parent) : config.getIdFromElem(parent);
    const parentUrl = config.getUrlFromElem(parent);
    if (config.isValidId(parentId)) config.setIdToElem(ref, parentId, route);
    if (config.isValidId(parentUrl)) config.setUrlToElem(ref, parentUrl, route);
    Object.setPrototypeOf(ref, protoFor(false));
    setMeta(ref, {
      route: mget(parent, 'route'),
      singleOne: mget(parent, 'singleOne'),
      parentResource: mget(parent, 'parentResource') || null,
      clientCollection: false,
      fromServer: !!mget(parent, 'fromServer'),
      reqParams: null,
    });
    return ref;
  }

  function clientizeBase(ref: any, elem: any, route: any, reqParams: any, fromServer: any, isCollection: boolean): any {
    const old = elem[META] as Meta | undefined;
    if (typeof elem === 'function') adoptPrototype(elem, protoFor(isCollection));
    else Object.setPrototypeOf(elem, protoFor(isCollection));
    const m: Meta = {
      route,
      parentResource: ref,
      clientCollection: isCollection,
      fromServer: !!fromServer,
      reqParams: isEmpty(reqParams) ? null : reqParams,
      etag: old ? old.etag : undefined,
      httpConfig: undefined,
      singleOne: old ? old.singleOne : undefined,
      ids: old ? old.ids : undefined,
      cannonicalId: undefined,
      parentList: undefined,
    };
    setMeta(elem, m);
    return m;
  }

  /** The element transformers of `route` (addElementTransformer, extendModel, extendCollection), in order. */
  function runTransformers(elem: any, isCollection: boolean, route: any): any {
    let changed = elem;
    const mt = config.matchTransformers;
    for (let i = 0; i < mt.length; i++) if (mt[i].regexp.test(route)) changed = mt[i].transformer(isCollection, changed);
    const tt = config.transformers[route];
    if (tt) for (let i = 0; i < tt.length; i++) changed = tt[i](isCollection, changed);
    return changed;
  }

  function transformElem(elem: any, isCollection: boolean, route: any, fromServer: boolean): any {
    const changed = fromServer || config.transformLocalElements ? runTransformers(elem, isCollection, route) : elem;
    const r = config.onElemClientized(changed, isCollection, route, service);
    return r === undefined ? changed : r;
  }

  /** Enhance without running transformers/hooks (the list path runs them in order afterwards). */
  function clientizeElemRaw(ref: any, element: any, route: any, fromServer: any, collection: any, reqParams: any): any {
    const elem = config.onBeforeElemClientized(element, false, route);
    if (!isEnhanceable(elem)) return elem;
    const m = clientizeBase(ref, elem, route, reqParams, fromServer, false);
    if (config.useCannonicalId) m.cannonicalId = config.getIdFromElem(elem);
    if (collection) m.parentList = collection;
    return elem;
  }

  function clientizeElem(parent: any, element: any, route: any, fromServer?: any, collection?: any, reqParams?: any): any {
    const elem = clientizeElemRaw(parentRef(parent, route), element, route, fromServer, collection, reqParams);
    if (!isEnhanceable(elem)) return elem;
    return transformElem(elem, false, route, !!fromServer);
  }

  function clientizeCollectionRaw(ref: any, element: any, route: any, fromServer: any, reqParams: any): any {
    const elem = config.onBeforeElemClientized(element, true, route);
    if (!isEnhanceable(elem)) return elem;
    clientizeBase(ref, elem, route, reqParams, fromServer, true);
    return elem;
  }

  function clientizeCollection(parent: any, element: any, route: any, fromServer?: any, reqParams?: any): any {
    const elem = clientizeCollectionRaw(parentRef(parent, route), element, route, fromServer, reqParams);
    if (!isEnhanceable(elem)) return elem;
    return transformElem(elem, true, route, !!fromServer);
  }

  /** Collection first, then each element (hooks in that order); elements share one parent snapshot. */
  function clientizeList(parent: any, data: any[], route: any, fromServer: boolean, reqParams: any): any {
    const ref = parentRef(parent, route);
    for (let i = 0; i < data.length; i++) if (data[i]) data[i] = clientizeElemRaw(ref, data[i], route, fromServer, data, undefined);
    let coll = clientizeCollectionRaw(ref, data, route, fromServer, reqParams);
    coll = transformElem(coll, true, route, fromServer);
    for (let i = 0; i < coll.length; i++) if (isObject(coll[i]) && metaOf(coll[i])) coll[i] = transformElem(coll[i], false, route, fromServer);
    return coll;
  }

  function one(parent: any, route: any, id?: any, singleOne?: any): any {
    if (typeof route === 'number' || typeof parent === 'number') {
      throw new ClientError('INVALID_ROUTE', "one(): the route must be a name, not the number " + (typeof route === 'number' ? route : parent) + " (you can't call .one(12))");
    }
    if (route === undefined || route === null || route === '') throw new ClientError('INVALID_ROUTE', 'one(): a route name is required (you can\'t call .one())');
    const elem: any = {};
    config.setIdToElem(elem, id, route);
    const out = clientizeElem(parent, elem, route, false);
    if (singleOne !== undefined) metaOf(out)!.singleOne = singleOne;
    return out;
  }

  function all(parent: any, route: any): any {
    if (typeof route === 'number' || !route) throw new ClientError('INVALID_ROUTE', 'all(): a route name is required, got ' + String(route));
    return clientizeCollection(parent, [], route, false);
  }

  function several(parent: any, route: any, ids: any[]): any {
    if (typeof route === 'number' || !route) throw new ClientError('INVALID_ROUTE', 'several(): a route name is required, got ' + String(route));
    const collection: any[] = [];
    const out = clientizeCollection(parent, collection, route, false);
    metaOf(out)!.ids = ids;
    return out;
  }

  function oneUrl(parent: any, route: any, url: any): any {
    if (!route) throw new ClientError('INVALID_ROUTE', 'oneUrl(): a route name is required');
    const elem: any = {};
    config.setUrlToElem(elem, url, route);
    return clientizeElem(parent, elem, route, false);
  }

  function allUrl(parent: any, route: any, url: any): any {
    if (!route) throw new ClientError('INVALID_ROUTE', 'allUrl(): a route name is required');
    const elem: any = [];
    config.setUrlToElem(elem, url, route);
    return clientizeCollection(parent, elem, route, false);
  }

  function strip(elem: any): any {
    if (Array.isArray(elem)) {
      const out = new Array(elem.length);
      for (let i = 0; i < elem.length; i++) out[i] = isClientized(elem[i]) ? strip(elem[i]) : elem[i];
      return out;
    }
    if (!isObject(elem)) return elem;
    const out: any = {};
    for (const k of Object.keys(elem)) out[k] = elem[k];
    return out;
  }

  function copyElement(element: any): any {
    const m = metaOf(element);
    if (!m) return deepCopy(element, copyElement);
    const data: any = Array.isArray(element) ? [] : {};
    if (Array.isArray(element)) for (let i = 0; i < element.length; i++) data[i] = deepCopy(element[i], copyElement);
    for (const k of Object.keys(element)) if (!Array.isArray(element) || !/^\d+$/.test(k)) data[k] = deepCopy(element[k], copyElement);
    let out: any;
    if (m.clientCollection) out = clientizeCollection(m.parentResource, data, m.route, m.fromServer, m.reqParams);
    else out = clientizeElem(m.parentResource, data, m.route, m.fromServer, undefined, m.reqParams);
    const om = metaOf(out);
    if (om) {
      om.etag = m.etag;
      om.singleOne = m.singleOne;
      om.ids = m.ids ? m.ids.slice() : m.ids;
      if (m.cannonicalId !== undefined) om.cannonicalId = m.cannonicalId;
    }
    return out;
  }

  // ---------------------------------------------------------------- promises
  function enhancePromise<T>(promise: any, isCollection: boolean, valueToFill: any): ClientPromise<T> {
    promise.call = promiseCall;
    promise.get = promiseGet;
    promise[F().clientCollection] = isCollection;
    if (isCollection) promise.push = promisePush;
    promise.$object = valueToFill;
    if (config.clientizePromiseInterceptor) config.clientizePromiseInterceptor(promise);
    return promise;
  }

  function promiseCall(this: any, method: string, ...params: any[]): ClientPromise<any> {
    const d = runtime.defer();
    const filled = {};
    this.then(
      (val: any) => {
        try {
          val[method].apply(val, params);
          d.resolve(val);
        } catch (e) {
          d.reject(e);
        }
      },
      (e: any) => d.reject(e),
    );
    return enhancePromise(d.promise, this[F().clientCollection], filled);
  }
  function promisePush(this: any, ...items: any[]): ClientPromise<any> {
    return promiseCall.call(this, 'push', ...items);
  }
  function promiseGet(this: any, what: string): ClientPromise<any> {
    const d = runtime.defer();
    this.then(
      (val: any) => d.resolve(val == null ? undefined : val[what]),
      (e: any) => d.reject(e),
    );
    return enhancePromise(d.promise, this[F().clientCollection], {});
  }

  function fill(filled: any, data: any): void {
    if (!isObject(data) || !isObject(filled)) return;
    if (Array.isArray(filled) && Array.isArray(data)) {
      for (let i = 0; i < data.length; i++) filled[i] = data[i];
    } else {
      for (const k of Object.keys(data)) filled[k] = data[k];
    }
    const m = metaOf(data);
    if (m) {
      Object.setPrototypeOf(filled, Object.getPrototypeOf(data));
      setMeta(filled, m);
    }
  }

  function resolvePromise(d: Deferred, response: HttpResponse, data: any, filled: any): void {
    fill(filled, data);
    if (config.fullResponse) d.resolve(Object.assign(response, { data }));
    else d.resolve(data);
  }

  /** Run the response interceptors; returns the data and the ETag to store. */
  function parseResponse(resData: any, operation: string, route: any, url: string, response: HttpResponse, d: Deferred) {
    const data = config.responseExtractor(resData, operation, route, url, response, d);
    const etag = typeof response.headers === 'function' ? response.headers('ETag') : undefined;
    return { data, etag };
  }

  function storeEtag(data: any, etag: any): void {
    if (!etag || !isObject(data)) return;
    const m = metaOf(data);
    if (m) m.etag = etag;
    else Object.defineProperty(data, F().etag, { value: etag, writable: true, configurable: true, enumerable: false });
  }

  function failWith(d: Deferred, response: any, cfg: HttpConfig, okCallback: (r: HttpResponse) => void): void {
    const error = toHttpError(response, cfg);
    const list = config.errorInterceptors.slice();
    for (let i = 0; i < list.length; i++) if (list[i]!(error, d, okCallback) === false) return;
    d.reject(error);
  }

  // ---------------------------------------------------------------- requests
  function send(cfg: HttpConfig, ok: (r: HttpResponse) => void, err: (r: any) => void, d: Deferred): void {
    let p: PromiseLike<HttpResponse>;
    try {
      p = runtime.http(cfg);
    } catch (e) {
      d.reject(toHttpError(e, cfg));
      return;
    }
    p.then(
      (r) => {
        try {
          ok(r);
        } catch (e) {
          d.reject(e);
        }
      },
      (r) => {
        try {
          err(r);
        } catch (e) {
          d.reject(e);
        }
      },
    );
  }

  function metaFor(self: any, method: string): Meta {
    const m = metaOf(self);
    if (!m) {
      throw new ClientError('NOT_CLIENTIZED', `${method}(): this object is not enhanced by the client (a copy made with a spread or Object.assign loses the library bookkeeping; use elem.clone(), Client.copy(elem) or angular.copy(elem))`);
    }
    return m;
  }

  function fetchFunction(self: any, what: any, reqParams?: any, headers?: any): ClientPromise<any> {
    const m = metaFor(self, 'getList');
    const d = runtime.defer();
    const operation = 'getList';
    const url = fetchUrl(self, what);
    const whatFetched = what || m.route;
    const request = config.fullRequestInterceptor(null, operation, whatFetched, url, headers || {}, reqParams || {}, m.httpConfig || {});
    const filled: any[] = [];
    const callOperation = config.jsonp ? 'jsonp' : 'getList';
    const isColl = m.clientCollection;

    const okCallback = (response: HttpResponse) => {
      const fullParams = response.config && response.config.params;
      let { data, etag } = parseResponse(response.data, operation, whatFetched, url, response, d);
      if (data === undefined || data === '') data = [];
      if (!Array.isArray(data)) {
        throw new ClientHttpError(Object.assign({}, response, { config: response.config || cfg }), {
          code: 'NOT_AN_ARRAY',
          detail: `getList: the answer SHOULD be an array, got ${data === null ? 'null' : typeof data} after the response interceptors`,
        });
      }
      if (config.plainByDefault === true) {
        storeEtag(data, etag);
        return resolvePromise(d, response, data, filled);
      }
      const coll = isColl ? clientizeList(m.parentResource, data, m.route, true, fullParams) : clientizeList(self, data, what, true, fullParams);
      storeEtag(coll, etag);
      resolvePromise(d, response, coll, filled);
    };
    const errorCallback = (response: any) => {
      if (response && response.status === 304 && isColl) resolvePromise(d, response, self, filled);
      else failWith(d, response, cfg, okCallback);
    };
    const cfg = httpConfigFor(self, request.httpConfig, request.headers, request.params, what, m.etag, callOperation, undefined, false);
    send(cfg, okCallback, errorCallback, d);
    return enhancePromise(d.promise, true, filled);
  }

  function elemFunction(self: any, operation: string, what: any, params: any, obj: any, headers: any): ClientPromise<any> {
    const m = metaFor(self, operation);
    const d = runtime.defer();
    const route = what || m.route;
    const fetchU = fetchUrl(self, what);
    let callObj = obj || self;
    const etag = mget(callObj, 'etag') || (operation !== 'post' ? m.etag : null);
    if (operation === 'remove' && !obj) callObj = {};
    else if (isObject(callObj) && isClientized(callObj)) callObj = strip(callObj);
    const request = config.fullRequestInterceptor(callObj, operation, route, fetchU, headers || {}, params || {}, m.httpConfig || {});
    const filled: any = {};

    const okCallback = (response: HttpResponse) => {
      const fullParams = response.config && response.config.params;
      const { data: elem, etag: newEtag } = parseResponse(response.data, operation, route, fetchU, response, d);
      if (elem === null || elem === undefined || elem === '') return resolvePromise(d, response, undefined, filled);
      if (config.plainByDefault === true) {
        storeEtag(elem, newEtag);
        return resolvePromise(d, response, elem, filled);
      }
      let data: any;
      if (operation === 'post' && !m.clientCollection) {
        // element.post('sub', obj): the created element lives under this element.
        data = what ? clientizeElem(self, elem, route, true, null, fullParams) : clientizeElem(m.parentResource, elem, route, true, null, fullParams);
      } else {
        data = clientizeElem(m.parentResource, elem, m.route, true, null, fullParams);
        const dm = metaOf(data);
        if (dm) dm.singleOne = m.singleOne;
      }
      storeEtag(data, newEtag);
      resolvePromise(d, response, data, filled);
    };
    const errorCallback = (response: any) => {
      if (response && response.status === 304 && config.isSafe(operation)) resolvePromise(d, response, self, filled);
      else failWith(d, response, cfg, okCallback);
    };

    let callOperation = operation;
    const callHeaders = Object.assign({}, request.headers);
    const override = config.isOverridenMethod(operation);
    if (override) {
      callOperation = 'post';
      callHeaders['X-HTTP-Method-Override'] = operation === 'remove' ? 'DELETE' : operation.toUpperCase();
    } else if (config.jsonp && callOperation === 'get') {
      callOperation = 'jsonp';
    }
    let data: any;
    let hasData = false;
    if (config.isSafe(operation)) {
      if (override) {
        data = {};
        hasData = true;
      }
    } else {
      data = request.element;
      hasData = true;
    }
    const cfg = httpConfigFor(self, request.httpConfig, callHeaders, request.params, what, etag, callOperation, data, hasData);
    send(cfg, okCallback, errorCallback, d);
    return enhancePromise(d.promise, false, filled);
  }

  function customFunction(self: any, operation: any, path: any, params: any, headers: any, elem: any): ClientPromise<any> {
    const op = OPERATIONS[String(operation).toLowerCase()];
    if (!op) throw new ClientError('UNKNOWN_OPERATION', `customOperation(): unknown operation '${operation}' (one of get, post, put, remove, head, options, patch, trace)`);
    if (op === 'getList') return fetchFunction(self, path, params, headers);
    return elemFunction(self, op, path, params, elem, headers);
  }

  function addClientMethod(self: any, name: string, operation: string, path?: any, defaultParams?: any, defaultHeaders?: any, defaultElem?: any): void {
    const created = (params: any, headers: any, elem: any) =>
      customFunction(
        self,
        operation,
        path,
        params === undefined ? defaultParams : params,
        headers === undefined ? defaultHeaders : headers,
        elem === undefined ? defaultElem : elem,
      );
    const fn = config.isSafe(operation) ? created : (elem: any, params: any, headers: any) => created(params, headers, elem);
    Object.defineProperty(self, name, { value: fn, writable: true, configurable: true, enumerable: false });
  }

  function putElement(self: any, idx: number, params: any, headers: any): ClientPromise<any> {
    const elemToPut = self[idx];
    const d = runtime.defer();
    const filled: any[] = [];
    elemToPut[F().put!](params, headers).then(
      (serverElem: any) => {
        const newArray = copyElement(self);
        newArray[idx] = serverElem;
        fill(filled, newArray);
        d.resolve(newArray);
      },
      (response: any) => d.reject(response),
    );
    return enhancePromise(d.promise, true, filled);
  }

  // ---------------------------------------------------------------- service
  function withConfig(fn: (configurer: ClientConfigurer) => void): ClientService {
    const newConfig = cloneConfiguration(config);
    const configurer = attachConfigurer({}, newConfig);
    fn(configurer);
    return createService(newConfig, runtime);
  }

  function toService(route: string, parent?: any): any {
    let collection = all(parent || null, route);
    // Restangular 1.6 runs the collection transformers of the route on this local collection
    // (so a method an element transformer adds with addClientMethod is on the service).
    if (!config.transformLocalElements) collection = runTransformers(collection, true, route);
    const f = F();
    const serv: any = {};
    serv.one = (id: any) => one(parent || null, route, id);
    serv.post = (...a: any[]) => collection[f.post!](...a);
    serv.getList = (...a: any[]) => collection[f.getList!](...a);
    serv.withHttpConfig = (...a: any[]) => collection[f.withHttpConfig!](...a);
    serv.get = (...a: any[]) => collection[f.get!](...a);
    for (const prop of Object.getOwnPropertyNames(collection)) {
      if (prop === 'length' || /^\d+$/.test(prop)) continue;
      const v = collection[prop];
      if (typeof v === 'function' && !(prop in serv)) serv[prop] = v.bind(collection);
    }
    return serv;
  }

  attachConfigurer(service, config);
  service.copy = (el: any) => copyElement(el);
  service.service = toService;
  service.withConfig = withConfig;
  service.one = (route: any, id?: any, singleOne?: any) => one(null, route, id, singleOne);
  service.all = (route: any) => all(null, route);
  service.several = (route: any, ...ids: any[]) => several(null, route, ids);
  service.oneUrl = (route: any, url: any) => oneUrl(null, route, url);
  service.allUrl = (route: any, url: any) => allUrl(null, route, url);
  service.stripClient = strip;
  service.clientizeElement = (parent: any, element: any, route: any, fromServer?: any, collection?: any, reqParams?: any) =>
    clientizeElem(parent, element, route, fromServer, collection, reqParams);
  service.clientizeCollection = (parent: any, element: any, route: any, fromServer?: any, reqParams?: any) =>
    clientizeList(parent, element, route, !!fromServer, reqParams);
  service.isClientized = isClientized;
  return service as ClientService;
}
