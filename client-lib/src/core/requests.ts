/**
 * Requests: the element and collection operations (get, getList, put, post, remove, custom
 * methods) through the runtime's `http`, response interceptors, ETags, error interceptors.
 */
import type { Core } from './context.js';
import { ClientError, ClientHttpError, toHttpError } from './errors.js';
import { OPERATIONS, isObject, metaOf, Meta } from './meta.js';
import { recordRequest } from './record.js';
import { LazyDeferred, REJECTED } from './settle.js';
import type { ClientPromise, Deferred, HttpConfig, HttpResponse } from './types.js';

/** Adds this part's functions to `c` (see context.ts). */
export function installRequests(c: Core): void {
  const { config, runtime } = c;
  const F = () => config.clientFields;
  /** Run the response interceptors; returns the data and the ETag to store. */
  function parseResponse(resData: any, operation: string, route: any, url: string, response: HttpResponse, d: LazyDeferred) {
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

  function failWith(d: LazyDeferred, response: any, cfg: HttpConfig, okCallback: (r: HttpResponse) => void): void {
    const error = toHttpError(response, cfg);
    const list = config.errorInterceptors.slice();
    for (let i = 0; i < list.length; i++) if (list[i]!(error, d, okCallback) === false) return;
    d.settle(REJECTED, error);
  }

  // ---------------------------------------------------------------- requests
  /**
   * Send `cfg`; `ok`/`err` settle `d`. Returns the call's promise: the `then` of the transport's
   * promise, which takes `d`'s outcome (settle.ts: no deferred made unless an interceptor holds it).
   */
  function send(cfg: HttpConfig, ok: (r: HttpResponse) => void, err: (r: any) => void, d: LazyDeferred): PromiseLike<any> {
    if (c.capture) {
      // toCurl(): the request is taken, not sent (the promise stays pending).
      c.capture(cfg);
      return d.promise;
    }
    recordRequest(runtime, cfg);
    let p: PromiseLike<HttpResponse>;
    try {
      p = runtime.http(cfg);
    } catch (e) {
      d.settle(REJECTED, toHttpError(e, cfg));
      return d.promise;
    }
    return p.then(
      (r) => {
        try {
          ok(r);
        } catch (e) {
          d.settle(REJECTED, e);
        }
        return d.outcome();
      },
      (r) => {
        try {
          err(r);
        } catch (e) {
          d.settle(REJECTED, e);
        }
        return d.outcome();
      },
    );
  }

  function metaFor(self: any, method: string): Meta {
    const m = metaOf(self);
    if (!m) {
      throw new ClientError('NOT_CLIENTIZED', `${method}(): this object is not enhanced by the client: a copy that kept the element's prototype but not its bookkeeping (lodash's _.clone or _.cloneDeep, Object.create); use elem.clone(), Client.copy(elem) or angular.copy(elem)`);
    }
    return m;
  }

  function fetchFunction(self: any, what: any, reqParams?: any, headers?: any): ClientPromise<any> {
    const m = metaFor(self, 'getList');
    const d = new LazyDeferred(runtime);
    const operation = 'getList';
    const baseUrl = c.fetchUrl(self);
    const url = what ? baseUrl + '/' + what : baseUrl;
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
        return c.resolvePromise(d, response, data, filled);
      }
      const coll = isColl ? c.clientizeList(m.parentResource, data, m.route, true, fullParams) : c.clientizeList(self, data, what, true, fullParams);
      storeEtag(coll, etag);
      c.resolvePromise(d, response, coll, filled);
    };
    const errorCallback = (response: any) => {
      if (response && response.status === 304 && isColl) c.resolvePromise(d, response, self, filled);
      else failWith(d, response, cfg, okCallback);
    };
    const cfg = c.httpConfigFor(self, request.httpConfig, request.headers, request.params, what, m.etag, callOperation, undefined, false, baseUrl);
    return c.enhancePromise(send(cfg, okCallback, errorCallback, d), true, filled);
  }

  function elemFunction(self: any, operation: string, what: any, params: any, obj: any, headers: any): ClientPromise<any> {
    const m = metaFor(self, operation);
    const d = new LazyDeferred(runtime);
    const route = what || m.route;
    const baseUrl = c.fetchUrl(self);
    const fetchU = what ? baseUrl + '/' + what : baseUrl;
    let callObj = obj || self;
    const etag = c.mget(callObj, 'etag') || (operation !== 'post' ? m.etag : null);
    if (operation === 'remove' && !obj) callObj = {};
    else if (isObject(callObj) && c.isClientized(callObj)) callObj = c.strip(callObj);
    const request = config.fullRequestInterceptor(callObj, operation, route, fetchU, headers || {}, params || {}, m.httpConfig || {});
    // Made with the element prototype now, so that filling it in needs no prototype switch.
    const filled: any = config.plainByDefault === true ? {} : Object.create(c.protoFor(false));

    const okCallback = (response: HttpResponse) => {
      const fullParams = response.config && response.config.params;
      const { data: elem, etag: newEtag } = parseResponse(response.data, operation, route, fetchU, response, d);
      if (elem === null || elem === undefined || elem === '') return c.resolvePromise(d, response, undefined, filled);
      if (config.plainByDefault === true) {
        storeEtag(elem, newEtag);
        return c.resolvePromise(d, response, elem, filled);
      }
      let data: any;
      if (operation === 'post' && !m.clientCollection) {
        // element.post('sub', obj): the created element lives under this element.
        data = what ? c.clientizeElem(self, elem, route, true, null, fullParams) : c.clientizeElem(m.parentResource, elem, route, true, null, fullParams);
      } else {
        data = c.clientizeElem(m.parentResource, elem, m.route, true, null, fullParams);
        const dm = metaOf(data);
        if (dm) dm.singleOne = m.singleOne;
      }
      storeEtag(data, newEtag);
      c.resolvePromise(d, response, data, filled);
    };
    const errorCallback = (response: any) => {
      if (response && response.status === 304 && config.isSafe(operation)) c.resolvePromise(d, response, self, filled);
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
    const cfg = c.httpConfigFor(self, request.httpConfig, callHeaders, request.params, what, etag, callOperation, data, hasData, baseUrl);
    return c.enhancePromise(send(cfg, okCallback, errorCallback, d), false, filled);
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
        const newArray = c.copyElement(self);
        newArray[idx] = serverElem;
        c.fill(filled, newArray);
        d.resolve(newArray);
      },
      (response: any) => d.reject(response),
    );
    return c.enhancePromise(d.promise, true, filled);
  }

  c.addClientMethod = addClientMethod;
  c.customFunction = customFunction;
  c.elemFunction = elemFunction;
  c.fetchFunction = fetchFunction;
  c.putElement = putElement;
}
