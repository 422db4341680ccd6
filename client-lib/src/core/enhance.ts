/**
 * Enhancing data: an object, array or function gets its prototype and META slot in place; the
 * element transformers and hooks run; `one`, `all`, `several`, `oneUrl`, `allUrl` make local
 * pointers; `strip` and `copyElement` undo and duplicate.
 */
import { DEFAULT_HOOK, META } from './config.js';
import type { Core } from './context.js';
import { ClientError } from './errors.js';
import { isObject, isEnhanceable, adoptPrototype, keepsPrototype, isEmpty, metaOf, setMeta, deepCopy, Meta } from './meta.js';

/** Adds this part's functions to `c` (see context.ts). */
export function installEnhance(c: Core): void {
  const { config, service } = c;
  /** Snapshot of a parent kept by its children (Restangular picks route, singleOne, parent, extra fields, id, self link). */
  function parentRef(parent: any, route: any): any {
    if (!parent || !config.shouldSaveParent(route)) return null;
    const ref: any = {};
    for (const f of config.extraFields) if (f in parent) ref[f] = parent[f];
    const parentId = config.useCannonicalId ? config.getCannonicalIdFromElem(parent) : config.getIdFromElem(parent);
    const parentUrl = config.getUrlFromElem(parent);
    if (config.isValidId(parentId)) config.setIdToElem(ref, parentId, route);
    if (config.isValidId(parentUrl)) config.setUrlToElem(ref, parentUrl, route);
    Object.setPrototypeOf(ref, c.protoFor(false));
    setMeta(ref, {
      route: c.mget(parent, 'route'),
      singleOne: c.mget(parent, 'singleOne'),
      parentResource: c.mget(parent, 'parentResource') || null,
      clientCollection: false,
      fromServer: !!c.mget(parent, 'fromServer'),
      reqParams: null,
    });
    return ref;
  }

  function clientizeBase(ref: any, elem: any, route: any, reqParams: any, fromServer: any, isCollection: boolean): any {
    const old = elem[META] as Meta | undefined;
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
    // The slot before the prototype: V8 adds a property to a JSON.parse object about twice as
    // fast before a prototype switch as after it (test/bench/client-lib.bench.mjs, issue 23).
    setMeta(elem, m);
    const proto = c.protoFor(isCollection);
    if (keepsPrototype(elem)) adoptPrototype(elem, proto);
    // A prototype switch costs the object its map (V8): only when it is another prototype.
    else if (Object.getPrototypeOf(elem) !== proto) Object.setPrototypeOf(elem, proto);
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

  /** `given`: the caller's own data (`clientizeElement`), transformed as a server element is. */
  function clientizeElem(parent: any, element: any, route: any, fromServer?: any, collection?: any, reqParams?: any, given?: boolean): any {
    const elem = clientizeElemRaw(parentRef(parent, route), element, route, fromServer, collection, reqParams);
    if (!isEnhanceable(elem)) return elem;
    return transformElem(elem, false, route, !!fromServer || !!given);
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

  /**
   * Collection first, then each element (hooks in that order); elements share one parent snapshot.
   * `given`: the caller's own data (`clientizeCollection`), transformed as server data is.
   */
  function clientizeList(parent: any, data: any[], route: any, fromServer: boolean, reqParams: any, given?: boolean): any {
    const ref = parentRef(parent, route);
    const transform = fromServer || !!given;
    for (let i = 0; i < data.length; i++) if (data[i]) data[i] = clientizeElemRaw(ref, data[i], route, fromServer, data, undefined);
    let coll = clientizeCollectionRaw(ref, data, route, fromServer, reqParams);
    coll = transformElem(coll, true, route, transform);
    for (let i = 0; i < coll.length; i++) if (isObject(coll[i]) && metaOf(coll[i])) coll[i] = transformElem(coll[i], false, route, transform);
    return coll;
  }

  /**
   * Give an enhanced object, and a collection's elements, the prototype's methods and fields as
   * own non-enumerable properties: what lodash's `_.has(x, 'get')` and other hasOwnProperty
   * checks look for (Restangular's elements own them). Only for objects handed to the caller by
   * `clientizeElement`, `clientizeCollection` and `copy`; the elements the library makes keep
   * the shared prototype alone (no copies per element on the request path).
   */
  function ownMembers(x: any): any {
    const m = metaOf(x);
    if (!m || keepsPrototype(x)) return x; // it owns them already (adoptPrototype)
    adoptPrototype(x, c.protoFor(m.clientCollection));
    if (m.clientCollection) for (let i = 0; i < x.length; i++) if (isObject(x[i]) && metaOf(x[i])) ownMembers(x[i]);
    return x;
  }

  /** `Client.copy`: an element's copy (copyElement), or, as in Restangular, plain data copied and enhanced with the fields it holds. */
  function copyGiven(x: any): any {
    if (!isEnhanceable(x) || metaOf(x)) return ownMembers(copyElement(x));
    const data = deepCopy(x, copyElement);
    const parent = c.mget(x, 'parentResource');
    const route = c.mget(x, 'route');
    const fromServer = !!c.mget(x, 'fromServer');
    const out = Array.isArray(data) ? clientizeList(parent, data, route, fromServer, c.mget(x, 'reqParams')) : clientizeElem(parent, data, route, fromServer, undefined, c.mget(x, 'reqParams'));
    return ownMembers(out);
  }

  function one(parent: any, route: any, id?: any, singleOne?: any): any {
    if (typeof route === 'number' || typeof parent === 'number') {
      throw new ClientError('INVALID_ROUTE', "one(): the route must be a name, not the number " + (typeof route === 'number' ? route : parent) + " (you can't call .one(12))");
    }
    if (route === undefined || route === null || route === '') throw new ClientError('INVALID_ROUTE', 'one(): a route name is required (you can\'t call .one())');
    // Made with the element prototype when nothing looks at it before it is enhanced: no
    // prototype switch (onBeforeElemClientized, when set, gets a plain object as before).
    const elem: any = config.onBeforeElemClientized === DEFAULT_HOOK ? Object.create(c.protoFor(false)) : {};
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
      for (let i = 0; i < elem.length; i++) out[i] = c.isClientized(elem[i]) ? strip(elem[i]) : elem[i];
      return out;
    }
    if (!isObject(elem)) return elem;
    return Object.assign({}, elem);
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

  c.all = all;
  c.allUrl = allUrl;
  c.clientizeElem = clientizeElem;
  c.clientizeList = clientizeList;
  c.copyElement = copyElement;
  c.copyGiven = copyGiven;
  c.ownMembers = ownMembers;
  c.one = one;
  c.oneUrl = oneUrl;
  c.runTransformers = runTransformers;
  c.several = several;
  c.strip = strip;
}
