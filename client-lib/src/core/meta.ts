/**
 * The bookkeeping slot of enhanced objects and the small helpers every part of the core uses.
 * One non-enumerable symbol-keyed slot (META) per object holds route, parent, flags; the field
 * names users see are accessors on the shared prototypes (prototypes.ts).
 */
import { META } from './config.js';

/** Bookkeeping of one enhanced object. */
export interface Meta {
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

export const HTTP_METHOD: Record<string, string> = {
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
export const OPERATIONS: Record<string, string> = {
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

export const hasOwn = Object.prototype.hasOwnProperty;
export const isObject = (v: any): boolean => v !== null && typeof v === 'object';
/** What can be enhanced: objects, arrays and (as in Restangular) functions. */
export const isEnhanceable = (v: any): boolean => v !== null && (typeof v === 'object' || typeof v === 'function');

/** Marks the library's shared prototypes (prototypes.ts), of every service instance. */
export const LIBRARY_PROTO = Symbol('client.proto');

/**
 * Does `x` keep its own prototype when enhanced? Functions (Function.prototype's call, apply),
 * and objects that are not plain data: an ArrayBuffer or Blob answer (`responseType`), a Date,
 * a class instance. They get the members as own properties (adoptPrototype), as Restangular
 * extended them; plain objects and arrays (what JSON gives), and objects already on a library
 * prototype, switch to the shared prototype.
 */
export function keepsPrototype(x: any): boolean {
  if (typeof x === 'function') return true;
  if (Array.isArray(x)) return false;
  const p = Object.getPrototypeOf(x);
  return p !== null && p !== Object.prototype && !hasOwn.call(p, LIBRARY_PROTO);
}

/**
 * Give `fn` the members of `proto` as own non-enumerable properties: a function keeps
 * Function.prototype (call, apply, bind) and still answers the element methods.
 */
export function adoptPrototype(fn: any, proto: any): void {
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor' || key === 'length') continue;
    const own = Object.getOwnPropertyDescriptor(fn, key);
    if (own && !own.configurable) continue;
    Object.defineProperty(fn, key, Object.getOwnPropertyDescriptor(proto, key)!);
  }
}
export const isEmpty = (o: any): boolean => {
  if (!o) return true;
  for (const k in o) if (hasOwn.call(o, k)) return false;
  return true;
};

export const hasHeader = (headers: Record<string, any>, name: string): boolean => {
  const lower = name.toLowerCase();
  for (const k in headers) if (k.toLowerCase() === lower) return true;
  return false;
};
export const isBinaryBody = (d: any): boolean =>
  (typeof FormData !== 'undefined' && d instanceof FormData) ||
  (typeof Blob !== 'undefined' && d instanceof Blob) ||
  (typeof URLSearchParams !== 'undefined' && d instanceof URLSearchParams) ||
  d instanceof ArrayBuffer ||
  ArrayBuffer.isView(d);

/** The meta slot of an enhanced object (undefined for plain values). */
export function metaOf(x: any): Meta | undefined {
  return x !== null && (typeof x === 'object' || typeof x === 'function') ? x[META] : undefined;
}

const slot: PropertyDescriptor = { value: undefined, writable: true, configurable: true, enumerable: false };
export function setMeta(x: any, m: Meta): void {
  slot.value = m;
  Object.defineProperty(x, META, slot);
  slot.value = undefined;
}

export function deepCopy(v: any, copyElement: (e: any) => any): any {
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
