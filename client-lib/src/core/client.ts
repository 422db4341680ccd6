/**
 * The framework-free core: builds the `Client` service for one configuration on top of a
 * {@link Runtime} (AngularJS `$http`/`$q`, or fetch/native Promise).
 *
 * Enhanced objects keep their data as own enumerable properties. Library bookkeeping lives in
 * one non-enumerable symbol slot (META, meta.ts) and is exposed through accessors on a prototype
 * shared by every element of a service, with the methods (prototypes.ts); so
 * `JSON.stringify(elem)` is the data, and a list of 10,000 elements costs 10,000 small
 * bookkeeping objects, not 10,000 sets of closures. The parts: urls.ts, prototypes.ts,
 * enhance.ts, promises.ts, requests.ts, joined through a `Core` (context.ts).
 */
import { attachConfigurer, cloneConfiguration } from './config.js';
import type { Core } from './context.js';
import { installEnhance } from './enhance.js';
import { installPromises } from './promises.js';
import { installPrototypes } from './prototypes.js';
import { startRecording, stopRecording } from './record.js';
import { installRequests } from './requests.js';
import type { ClientConfiguration, ClientConfigurer, ClientService, Runtime } from './types.js';
import { installUrls } from './urls.js';

export { metaOf } from './meta.js';

/**
 * Build the `Client` service for `config` on `runtime`. The setters of `config` are attached
 * to the returned service (run phase).
 */
export function createService(config: ClientConfiguration, runtime: Runtime): ClientService {
  const service: any = {};
  const c = { config, runtime, service } as Core;
  installUrls(c);
  installPrototypes(c);
  installEnhance(c);
  installPromises(c);
  installRequests(c);
  const F = () => config.clientFields;

  function withConfig(fn: (configurer: ClientConfigurer) => void): ClientService {
    const newConfig = cloneConfiguration(config);
    const configurer = attachConfigurer({}, newConfig);
    fn(configurer);
    return createService(newConfig, runtime);
  }

  function toService(route: string, parent?: any): any {
    let collection = c.all(parent || null, route);
    // Restangular 1.6 runs the collection transformers of the route on this local collection
    // (so a method an element transformer adds with addClientMethod is on the service).
    if (!config.transformLocalElements) collection = c.runTransformers(collection, true, route);
    const f = F();
    const serv: any = {};
    serv.one = (id: any) => c.one(parent || null, route, id);
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
  service.copy = (el: any) => c.copyGiven(el);
  service.service = toService;
  service.withConfig = withConfig;
  service.one = (route: any, id?: any, singleOne?: any) => c.one(null, route, id, singleOne);
  service.all = (route: any) => c.all(null, route);
  service.several = (route: any, ...ids: any[]) => c.several(null, route, ids);
  service.oneUrl = (route: any, url: any) => c.oneUrl(null, route, url);
  service.allUrl = (route: any, url: any) => c.allUrl(null, route, url);
  service.stripClient = c.strip;
  service.clientizeElement = (parent: any, element: any, route: any, fromServer?: any, collection?: any, reqParams?: any) =>
    c.ownMembers(c.clientizeElem(parent, element, route, fromServer, collection, reqParams, true));
  service.clientizeCollection = (parent: any, element: any, route: any, fromServer?: any, reqParams?: any) =>
    c.ownMembers(c.clientizeList(parent, element, route, !!fromServer, reqParams, true));
  service.isClientized = c.isClientized;
  service.record = () => startRecording(runtime);
  service.stop = () => stopRecording(runtime);
  return service as ClientService;
}
