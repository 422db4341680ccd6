// The root service: copy, clientize*, service(), withConfig, stripClient.
import { describe, it, expect } from 'vitest';
import { ng, settle, capture } from './helpers/ng';

describe('root methods and the service object', () => {
  it('copy(fromElement) gives a copy whose bound methods refer to the copy', () => {
    const t = ng();
    const el = t.Client.one('users', 1);
    el.name = 'a';
    const c = t.Client.copy(el);
    c.id = 2;
    c.name = 'b';
    t.$httpBackend.expectPUT('/users/2', { id: 2, name: 'b' }).respond(200, {});
    settle(t, c.put());
    expect(el.id).toBe(1);
  });

  it('copy of a collection is a collection', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1 }]);
    const l = settle(t, t.Client.all('users').getList()).value;
    const c = t.Client.copy(l);
    expect(Array.isArray(c)).toBe(true);
    expect(c.clientCollection).toBe(true);
    expect(c[0].getClientUrl()).toBe('/users/1');
    expect(c[0]).not.toBe(l[0]);
  });

  it('clientizeElement(parent, element, route, fromServer, collection, reqParams) enhances a plain object in place', () => {
    const t = ng();
    const parent = t.Client.one('accounts', 1);
    const plain = { id: 3, name: 'x' };
    const coll: any[] = [];
    const el = t.Client.clientizeElement(parent, plain, 'users', true, coll, { q: 1 });
    expect(el).toBe(plain);
    expect(el.getClientUrl()).toBe('/accounts/1/users/3');
    expect(el.fromServer).toBe(true);
    expect(el.getParentList()).toBe(coll);
    expect(el.getRequestedUrl()).toBe('/accounts/1/users/3?q=1');
    expect(JSON.stringify(el)).toBe('{"id":3,"name":"x"}');
  });

  it('clientizeCollection(parent, element, route, fromServer) enhances an array and its elements', () => {
    const t = ng();
    const arr = [{ id: 1 }, { id: 2 }];
    const c = t.Client.clientizeCollection(null, arr, 'users', true);
    expect(c).toBe(arr);
    expect(c.clientCollection).toBe(true);
    expect(c[1].getClientUrl()).toBe('/users/2');
    t.$httpBackend.expectGET('/users').respond(200, []);
    settle(t, c.getList());
  });

  it('stripClient(elem) gives plain data', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1, a: { b: 1 } }]);
    const l = settle(t, t.Client.all('users').getList()).value;
    const p = t.Client.stripClient(l);
    expect(p).toEqual([{ id: 1, a: { b: 1 } }]);
    expect(Object.getPrototypeOf(p)).toBe(Array.prototype);
    expect(Object.getPrototypeOf(p[0])).toBe(Object.prototype);
  });

  it('service(route) has getList, get(id), one(id).get(), post(data), withHttpConfig', () => {
    const t = ng();
    const users = t.Client.service('users');
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1 }]);
    expect(settle(t, users.getList()).value[0].id).toBe(1);
    t.$httpBackend.expectGET('/users/2').respond(200, { id: 2 });
    const u2 = settle(t, users.get(2)).value;
    expect(u2.id).toBe(2);
    t.$httpBackend.expectGET('/users/3').respond(200, { id: 3 });
    settle(t, users.one(3).get());
    t.$httpBackend.expectPOST('/users', { name: 'n' }).respond(201, { id: 4, name: 'n' });
    const created = settle(t, users.post({ name: 'n' })).value;
    t.$httpBackend.expectPUT('/users/4', { id: 4, name: 'n' }).respond(200, {});
    settle(t, created.put());
    const seen = capture(t, 'GET', '/users', 200, []);
    expect(typeof users.withHttpConfig({ headers: {} })).toBe('object');
    settle(t, users.getList());
    expect(seen.length).toBe(1);
  });

  it('service(route, parent) nests the route under the parent', () => {
    const t = ng();
    const s = t.Client.service('buildings', t.Client.one('accounts', 1));
    t.$httpBackend.expectGET('/accounts/1/buildings').respond(200, [{ id: 9 }]);
    const l = settle(t, s.getList()).value;
    expect(l[0].getClientUrl()).toBe('/accounts/1/buildings/9');
    t.$httpBackend.expectGET('/accounts/1/buildings/9').respond(200, { id: 9 });
    settle(t, s.one(9).get());
  });

  it('service() carries methods that extendCollection added to the collection', () => {
    const t = ng((p) => {
      p.setTransformOnlyServerElements(false);
      p.extendCollection('users', (c: any) => {
        c.active = function (this: any) {
          return this.customGETLIST('active');
        };
        return c;
      });
    });
    t.$httpBackend.expectGET('/users/active').respond(200, []);
    settle(t, t.Client.service('users').active());
  });

  it('withConfig(fn) returns a scoped service that inherits and overrides, leaving the global one unchanged', () => {
    const t = ng((p) => {
      p.setBaseUrl('/api');
      p.setDefaultHeaders({ 'X-Global': 'g' });
    });
    const scoped = t.Client.withConfig((c: any) => {
      c.setBaseUrl('/other');
      c.setRequestSuffix('.json');
    });
    const seen = capture(t, 'GET', '/other/users/1.json', 200, { id: 1 });
    const u = settle(t, scoped.one('users', 1).get()).value;
    expect(seen[0].headers['X-Global']).toBe('g');
    expect(u.getClientUrl()).toBe('/other/users/1');
    t.$httpBackend.expectGET('/api/users/1').respond(200, { id: 1 });
    settle(t, t.Client.one('users', 1).get());
    expect(t.Client.configuration.requestSuffix).toBe(null);
    expect(scoped.configuration.baseUrl).toBe('/other');
  });

  it('withConfig keeps a configuration.getIdFromElem override and scopes interceptors', () => {
    const t = ng((p) => {
      p.configuration.getIdFromElem = (e: any) => e._id;
    });
    const calls: string[] = [];
    const scoped = t.Client.withConfig((c: any) =>
      c.addResponseInterceptor((d: any) => {
        calls.push('scoped');
        return d;
      }),
    );
    t.$httpBackend.expectGET('/users').respond(200, [{ _id: 'a' }]);
    const l = settle(t, scoped.all('users').getList()).value;
    expect(l[0].getClientUrl()).toBe('/users/a');
    t.$httpBackend.expectGET('/users').respond(200, []);
    settle(t, t.Client.all('users').getList());
    expect(calls).toEqual(['scoped']);
  });
});
