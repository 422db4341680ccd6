/**
 * The internal contract between the parts of the core. `createService` (client.ts) makes one
 * `Core` per configuration; each part (urls, prototypes, enhance, promises, requests) adds its
 * functions to it, and calls the others' through it. Not public API.
 */
import type { Meta } from './meta.js';
import type { LazyDeferred } from './settle.js';
import type { ClientConfiguration, ClientPromise, ClientService, HttpConfig, HttpResponse, Deferred, Runtime } from './types.js';

/** Data that may carry the META slot: an element, a collection, a plain value. */
export type Enhanced = any;

export interface Core {
  readonly config: ClientConfiguration;
  readonly runtime: Runtime;
  /** The service object (given to `setOnElemClientized` hooks). */
  readonly service: ClientService;

  // urls.ts
  /** A META value, or for a plain object the field of that name (`clientFields`). */
  mget(x: Enhanced, key: keyof Meta): any;
  isClientized(x: unknown): boolean;
  encodeId(id: unknown): string;
  /** URL of the object, plus `/what` (`getClientUrl`). */
  fetchUrl(current: Enhanced, what?: unknown): string;
  /** URL with the request params and suffix (`getRequestedUrl`). */
  fetchRequestedUrl(current: Enhanced, what?: unknown): string;
  httpConfigFor(current: Enhanced, localHttpConfig: any, callHeaders: any, callParams: any, what: unknown, etag: unknown, callOperation: string, data: unknown, hasData: boolean, baseUrl?: string): HttpConfig;

  // prototypes.ts
  protoFor(isCollection: boolean): object;

  // enhance.ts
  runTransformers(elem: Enhanced, isCollection: boolean, route: string): Enhanced;
  /** `given`: the caller's data (`clientizeElement`): transformers run as on a server element. */
  clientizeElem(parent: Enhanced, element: Enhanced, route: string, fromServer?: unknown, collection?: unknown, reqParams?: unknown, given?: boolean): Enhanced;
  clientizeList(parent: Enhanced, data: any[], route: string, fromServer: boolean, reqParams: unknown, given?: boolean): Enhanced;
  /** Methods and fields as own non-enumerable properties (objects handed to the caller). */
  ownMembers(x: Enhanced): Enhanced;
  /** `Client.copy`: copyElement, or plain data copied and enhanced; members own. */
  copyGiven(x: Enhanced): Enhanced;
  one(parent: Enhanced, route: unknown, id?: unknown, singleOne?: unknown): Enhanced;
  all(parent: Enhanced, route: unknown): Enhanced;
  several(parent: Enhanced, route: unknown, ids: unknown[]): Enhanced;
  oneUrl(parent: Enhanced, route: unknown, url: unknown): Enhanced;
  allUrl(parent: Enhanced, route: unknown, url: unknown): Enhanced;
  strip(elem: Enhanced): any;
  copyElement(elem: Enhanced): Enhanced;

  // promises.ts
  enhancePromise<T>(promise: PromiseLike<T>, isCollection: boolean, valueToFill: unknown): ClientPromise<T>;
  fill(filled: unknown, data: unknown): void;
  resolvePromise(d: LazyDeferred, response: HttpResponse, data: unknown, filled: unknown): void;

  // requests.ts
  fetchFunction(self: Enhanced, what: unknown, reqParams?: unknown, headers?: unknown): ClientPromise<any>;
  elemFunction(self: Enhanced, operation: string, what: unknown, params: unknown, obj: unknown, headers: unknown): ClientPromise<any>;
  customFunction(self: Enhanced, operation: unknown, path: unknown, params: unknown, headers: unknown, elem: unknown): ClientPromise<any>;
  addClientMethod(self: Enhanced, name: string, operation: string, path?: unknown, defaultParams?: unknown, defaultHeaders?: unknown, defaultElem?: unknown): void;
  putElement(self: Enhanced, idx: number, params: unknown, headers: unknown): ClientPromise<any>;
  /** Set by toCurl() (record.ts) for one synchronous call: takes the request instead of sending it. */
  capture?: (config: HttpConfig) => void;
}
