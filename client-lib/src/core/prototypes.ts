/**
 * The two prototypes shared by every element and every collection of a service: the library
 * fields as accessors on the META slot, and the methods (get, put, getList, customGET...), named
 * after `setClientFields` and rebuilt lazily when the names change.
 */
import { META } from './config.js';
import type { Core } from './context.js';
import { metaOf, Meta, LIBRARY_PROTO } from './meta.js';
import { curlOf } from './record.js';
import { defineLegacyFields } from './legacy-fields.js';

/** Adds this part's functions to `c` (see context.ts). */
export function installPrototypes(c: Core): void {
  const { config } = c;
  const F = () => config.clientFields;
  let protoVersion = -1;
  let elemProto: any;
  let collProto: any;
  const legacyWarned = new Set<string>();

  function buildPrototypes(): void {
    const f = F();
    elemProto = Object.create(Object.prototype);
    collProto = Object.create(Array.prototype);
    const both = [elemProto, collProto];
    const def = (obj: any, name: string | symbol, value: any) =>
      Object.defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
    for (const p of both) def(p, LIBRARY_PROTO, true);
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
    defineLegacyFields(both, f, legacyWarned, (m) => console.warn(m));
    for (const p of both) {
      Object.defineProperty(p, f.clientized!, { get: () => true, configurable: true, enumerable: false });
      def(p, f.getClientUrl!, function (this: any, what?: any) {
        return c.fetchUrl(this, what);
      });
      def(p, 'toCurl', function (this: any, operation?: string) {
        return curlOf(c, this, operation);
      });
      def(p, f.getRequestedUrl!, function (this: any, what?: any) {
        return c.fetchRequestedUrl(this, what);
      });
      def(p, f.addClientMethod!, function (this: any, ...args: any[]) {
        return c.addClientMethod(this, args[0], args[1], args[2], args[3], args[4], args[5]);
      });
      def(p, f.clone!, function (this: any) {
        return c.copyElement(this);
      });
      // angular.copy (1.x) hands an object with a cloneNode method to it instead of copying its
      // own enumerable keys: so an angular.copy of an element is an element (route, parent, id,
      // fromServer kept), as in Restangular where that bookkeeping is enumerable data.
      def(p, 'cloneNode', function (this: any) {
        return c.copyElement(this);
      });
      def(p, f.withHttpConfig!, function (this: any, httpConfig: any) {
        const m = metaOf(this);
        if (m) m.httpConfig = httpConfig;
        return this;
      });
      def(p, f.plain!, function (this: any) {
        return c.strip(this);
      });
      def(p, f.one!, function (this: any, route: any, id?: any, singleOne?: any) {
        return c.one(this, route, id, singleOne);
      });
      def(p, f.all!, function (this: any, route: any) {
        return c.all(this, route);
      });
      def(p, f.several!, function (this: any, route: any, ...ids: any[]) {
        return c.several(this, route, ids);
      });
      def(p, f.oneUrl!, function (this: any, route: any, url: any) {
        return c.oneUrl(this, route, url);
      });
      def(p, f.allUrl!, function (this: any, route: any, url: any) {
        return c.allUrl(this, route, url);
      });
      def(p, f.remove!, function (this: any, params?: any, headers?: any) {
        return c.elemFunction(this, 'remove', undefined, params, undefined, headers);
      });
      def(p, f.head!, function (this: any, params?: any, headers?: any) {
        return c.elemFunction(this, 'head', undefined, params, undefined, headers);
      });
      def(p, f.trace!, function (this: any, params?: any, headers?: any) {
        return c.elemFunction(this, 'trace', undefined, params, undefined, headers);
      });
      def(p, f.options!, function (this: any, params?: any, headers?: any) {
        return c.elemFunction(this, 'options', undefined, params, undefined, headers);
      });
      def(p, f.patch!, function (this: any, elem: any, params?: any, headers?: any) {
        return c.elemFunction(this, 'patch', undefined, params, elem, headers);
      });
      def(p, f.customOperation!, function (this: any, operation: any, path?: any, params?: any, headers?: any, elem?: any) {
        return c.customFunction(this, operation, path, params, headers, elem);
      });
      for (const alias of ['custom', 'do']) {
        def(p, f[alias + 'GET']!, function (this: any, path?: any, params?: any, headers?: any) {
          return c.customFunction(this, 'get', path, params, headers, undefined);
        });
        def(p, f[alias + 'DELETE']!, function (this: any, path?: any, params?: any, headers?: any) {
          return c.customFunction(this, 'remove', path, params, headers, undefined);
        });
        for (const op of ['post', 'put', 'patch']) {
          def(p, f[alias + op.toUpperCase()]!, function (this: any, elem?: any, path?: any, params?: any, headers?: any) {
            return c.customFunction(this, op, path, params, headers, elem);
          });
        }
        def(p, f[alias + 'GETLIST']!, function (this: any, path?: any, params?: any, headers?: any) {
          return c.fetchFunction(this, path, params, headers);
        });
      }
    }
    // Elements only.
    def(elemProto, f.get!, function (this: any, params?: any, headers?: any) {
      return c.elemFunction(this, 'get', undefined, params, undefined, headers);
    });
    def(elemProto, f.getList!, function (this: any, what?: any, params?: any, headers?: any) {
      return c.fetchFunction(this, what, params, headers);
    });
    def(elemProto, f.put!, function (this: any, params?: any, headers?: any) {
      return c.elemFunction(this, 'put', undefined, params, undefined, headers);
    });
    def(elemProto, f.post!, function (this: any, what: any, elem: any, params?: any, headers?: any) {
      return c.elemFunction(this, 'post', what, params, elem, headers);
    });
    def(elemProto, f.save!, function (this: any, params?: any, headers?: any) {
      // Restangular's rule: PUT when the element came from the server, else POST.
      if (c.mget(this, 'fromServer')) return this[F().put!](params, headers);
      return c.elemFunction(this, 'post', undefined, params, undefined, headers);
    });
    def(elemProto, f.getParentList!, function (this: any) {
      return c.mget(this, 'parentList');
    });
    // Collections only.
    def(collProto, f.getList!, function (this: any, params?: any, headers?: any) {
      return c.fetchFunction(this, null, params, headers);
    });
    def(collProto, f.get!, function (this: any, id: any, params?: any, headers?: any) {
      return c.elemFunction(this, 'get', c.encodeId(id), params, undefined, headers);
    });
    def(collProto, f.post!, function (this: any, elem: any, params?: any, headers?: any) {
      return c.elemFunction(this, 'post', null, params, elem, headers);
    });
    def(collProto, f.putElement!, function (this: any, idx: number, params?: any, headers?: any) {
      return c.putElement(this, idx, params, headers);
    });
    protoVersion = config.fieldsVersion;
  }

  function protoFor(isCollection: boolean): any {
    if (protoVersion !== config.fieldsVersion) buildPrototypes();
    return isCollection ? collProto : elemProto;
  }

  c.protoFor = protoFor;
}
