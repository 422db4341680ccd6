/**
 * Enhanced promises: `$object` filled in place, `call`, `get`, `push` (Restangular's
 * restangularizePromise), and how a result resolves (data or full response).
 */
import type { Core } from './context.js';
import { isObject, metaOf, setMeta } from './meta.js';
import { RESOLVED, type LazyDeferred } from './settle.js';
import type { ClientPromise, HttpResponse } from './types.js';

/** Adds this part's functions to `c` (see context.ts). */
export function installPromises(c: Core): void {
  const { config, runtime } = c;
  const F = () => config.clientFields;
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
      // Object.assign: the own enumerable keys, in Object.keys order, set one by one, as a loop
      // would (the META slot is not enumerable), in a builtin's fast path.
      Object.assign(filled, data);
    }
    const m = metaOf(data);
    if (m) {
      const proto = Object.getPrototypeOf(data);
      if (Object.getPrototypeOf(filled) !== proto) Object.setPrototypeOf(filled, proto);
      setMeta(filled, m);
    }
  }

  function resolvePromise(d: LazyDeferred, response: HttpResponse, data: any, filled: any): void {
    fill(filled, data);
    d.settle(RESOLVED, config.fullResponse ? Object.assign(response, { data }) : data);
  }

  c.enhancePromise = enhancePromise;
  c.fill = fill;
  c.resolvePromise = resolvePromise;
}
