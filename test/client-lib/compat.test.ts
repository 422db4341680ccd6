// Restangular 1.6 behaviours that code written for it relies on (issue 12), on AngularJS 1.5 and 1.8.
import { describe, it, expect } from 'vitest';
import { ng, settle, capture, angular } from './helpers/ng';

const json = (v: any) => (typeof v === 'string' ? JSON.parse(v) : v);

describe('getClientUrl', () => {
  it('answers on elements and collections, and on copies made by Client.copy and clone()', () => {
    const t = ng((p) => p.setBaseUrl('/api'));
    const coll = t.Client.all('accounts');
    const elem = t.Client.one('accounts', 7).one('buildings', 'b 1');
    expect(coll.getClientUrl()).toBe('/api/accounts');
    expect(elem.getClientUrl()).toBe('/api/accounts/7/buildings/b%201');
    expect(t.Client.copy(elem).getClientUrl()).toBe('/api/accounts/7/buildings/b%201');
    expect(elem.clone().getClientUrl()).toBe('/api/accounts/7/buildings/b%201');
    expect(t.Client.copy(coll).getClientUrl()).toBe('/api/accounts');
    expect(coll.clone().getClientUrl('x')).toBe('/api/accounts/x');
  });
});

describe('clientizeElement / clientizeCollection enhance in place', () => {
  it('an array given to clientizeCollection is itself the collection, its items elements', () => {
    const t = ng();
    const arr: any = [{ id: 0, name: 'a' }, { id: 1, name: 'b' }];
    const out = t.Client.clientizeCollection(null, arr, 'accounts', true);
    expect(out).toBe(arr);
    expect(typeof arr.getList).toBe('function');
    expect(arr.getClientUrl()).toBe('/accounts');
    expect(arr[0].getClientUrl()).toBe('/accounts/0');
    expect(arr.fromServer).toBe(true);
    expect(arr[0].fromServer).toBe(true);
    t.$httpBackend.expectGET('/accounts').respond(200, [{ id: 5 }]);
    expect(settle(t, arr.getList()).value[0].id).toBe(5);
  });

  it('a plain object given to clientizeElement is itself the element (fromServer as passed)', () => {
    const t = ng();
    const obj: any = { id: 3, name: 'x' };
    const out = t.Client.clientizeElement(null, obj, 'accounts', false);
    expect(out).toBe(obj);
    expect(obj.getClientUrl()).toBe('/accounts/3');
    expect(obj.fromServer).toBe(false);
    expect(JSON.stringify(obj)).toBe('{"id":3,"name":"x"}');
    t.$httpBackend.expectGET('/accounts/3').respond(200, { id: 3, name: 'y' });
    expect(settle(t, obj.get()).value.name).toBe('y');
  });

  it('a function given to clientizeElement keeps being callable and answers get and getClientUrl', () => {
    const t = ng();
    const fn: any = function () {
      return 42;
    };
    fn.id = 9;
    const out = t.Client.clientizeElement(t.Client.one('users', 1), fn, 'accounts', true);
    expect(out).toBe(fn);
    expect(fn()).toBe(42);
    expect(typeof fn.call).toBe('function');
    expect(fn.getClientUrl()).toBe('/users/1/accounts/9');
    expect(fn.fromServer).toBe(true);
    t.$httpBackend.expectGET('/users/1/accounts/9').respond(200, { id: 9 });
    expect(settle(t, fn.get()).value.id).toBe(9);
  });

  it('element transformers (extendModel, addElementTransformer) run on the given objects', () => {
    const t = ng((p) => {
      p.extendModel('accounts', (e: any) => ((e.model = true), e));
      p.addElementTransformer('accounts', true, (c: any) => ((c.coll = true), c));
    });
    const arr: any = [{ id: 1 }];
    t.Client.clientizeCollection(null, arr, 'accounts', true);
    expect([arr.coll, arr[0].model]).toEqual([true, true]);
    const obj: any = { id: 2 };
    expect(t.Client.clientizeElement(null, obj, 'accounts', true)).toBe(obj);
    expect(obj.model).toBe(true);
  });
});

describe('angular.copy of an element is still an element', () => {
  it('save() on a copy of a server element PUTs; route, parent, id and fromServer survive', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users/1/accounts/2').respond(200, { id: 2, name: 'a' });
    const orig = settle(t, t.Client.one('users', 1).one('accounts', 2).get()).value;
    const copy = angular.copy(orig);
    expect(copy).not.toBe(orig);
    expect([copy.route, copy.id, copy.fromServer, copy.parentResource.route]).toEqual(['accounts', 2, true, 'users']);
    expect(JSON.stringify(copy)).toBe('{"id":2,"name":"a"}');
    copy.name = 'edited';
    const seen = capture(t, 'PUT', '/users/1/accounts/2', 200, { id: 2, name: 'edited' });
    expect(settle(t, copy.save()).value.name).toBe('edited');
    expect(json(seen[0].data)).toEqual({ id: 2, name: 'edited' });
    expect(orig.name).toBe('a');
  });

  it('save() on a copy of a local element POSTs', () => {
    const t = ng();
    const local = t.Client.clientizeElement(null, { name: 'n' }, 'accounts', false);
    const copy = angular.copy(local);
    const seen = capture(t, 'POST', '/accounts', 201, { id: 5, name: 'n' });
    expect(settle(t, copy.save()).value.id).toBe(5);
    expect(json(seen[0].data)).toEqual({ name: 'n' });
  });

  it('an element nested in plain data is an element in the copy', () => {
    const t = ng();
    const form = { account: t.Client.one('accounts', 4) };
    const copy = angular.copy(form);
    expect(copy.account.getClientUrl()).toBe('/accounts/4');
  });
});

describe('several error interceptors', () => {
  it('each runs in the order added with the response; the promise rejects unless one returns false', () => {
    const order: any[] = [];
    const t = ng((p) => {
      p.addErrorInterceptor((r: any) => (order.push(['a', r.status]), true));
      p.addErrorInterceptor((r: any) => (order.push(['b', r.status]), undefined));
    });
    t.$httpBackend.expectGET('/users/9').respond(404, { error: 'nope' });
    const r = settle(t, t.Client.one('users', 9).get());
    expect(order).toEqual([
      ['a', 404],
      ['b', 404],
    ]);
    expect(r.error.status).toBe(404);
    expect(r.error.data).toEqual({ error: 'nope' });
  });

  it('one returning false stops the rejection and the ones after it', () => {
    const order: string[] = [];
    const t = ng((p) => {
      p.addErrorInterceptor(() => (order.push('a'), false));
      p.addErrorInterceptor(() => (order.push('b'), true));
    });
    t.$httpBackend.expectGET('/users/9').respond(404, {});
    const r = settle(t, t.Client.one('users', 9).get());
    expect(order).toEqual(['a']);
    expect(r.done).toBe(false);
  });
});

describe('service() of a withConfig client', () => {
  it('a collection method added by an element transformer exists on the service object', () => {
    const t = ng();
    const s = t.Client.withConfig((c: any) => {
      c.setBaseUrl('/v2');
      c.addElementTransformer('accounts', true, (coll: any) => {
        coll.addClientMethod('doSomething', 'get', 'do-something');
        return coll;
      });
    }).service('accounts');
    expect(typeof s.doSomething).toBe('function');
    t.$httpBackend.expectGET('/v2/accounts/do-something').respond(200, { ok: 1 });
    expect(settle(t, s.doSomething()).value.ok).toBe(1);
  });
});

describe('method overriders and remove()', () => {
  it("setMethodOverriders(['put']): POST on the wire with X-HTTP-Method-Override: PUT and the element as body", () => {
    const t = ng((p) => p.setMethodOverriders(['put']));
    const seen = capture(t, 'POST', '/users/1', 200, { id: 1 });
    const u = t.Client.clientizeElement(null, { id: 1, name: 'n' }, 'users', true);
    expect(settle(t, u.put()).value.id).toBe(1);
    expect(seen[0].headers['X-HTTP-Method-Override']).toBe('PUT');
    expect(json(seen[0].data)).toEqual({ id: 1, name: 'n' });
  });

  it('remove() sends {} as application/json unless a request interceptor returns null', () => {
    const t = ng();
    const seen = capture(t, 'DELETE', '/users/1', 200, {});
    settle(t, t.Client.one('users', 1).remove());
    expect(seen[0].data).toBe('{}');
    expect(seen[0].headers['Content-Type']).toMatch(/^application\/json/);
    const t2 = ng((p) => p.addRequestInterceptor((e: any, op: string) => (op === 'remove' ? null : e)));
    const seen2 = capture(t2, 'DELETE', '/users/1', 200, {});
    settle(t2, t2.Client.one('users', 1).remove());
    expect(seen2[0].data).toBeUndefined();
  });
});

describe('every rejected request is a ClientHttpError', () => {
  it('a $http interceptor that throws: REQUEST_FAILED with the error as cause', () => {
    const boom = new Error('token store unavailable');
    const t = ng((_p, $provide, $httpProvider) => {
      $provide.value('$exceptionHandler', () => undefined);
      $httpProvider.interceptors.push(() => ({
        request: () => {
          throw boom;
        },
      }));
    });
    const out: any = {};
    t.Client.one('users', 1)
      .get()
      .then(null, (e: any) => (out.error = e));
    t.$rootScope.$digest();
    expect(out.error.name).toBe('ClientHttpError');
    expect(out.error.code).toBe('REQUEST_FAILED');
    expect(out.error.cause).toBe(boom);
    expect(out.error.message).toBe('GET /users/1 failed: no request made or no answer handled: token store unavailable');
  });

  it('a 2xx JSON answer that does not parse (ngMock): BAD_RESPONSE with status and first bytes', () => {
    const t = ng((_p, $provide) => $provide.value('$exceptionHandler', () => undefined));
    t.$httpBackend.expectGET('/users/1').respond(200, '{"id": 1,,', { 'Content-Type': 'application/json' });
    const r = settle(t, t.Client.one('users', 1).get());
    expect([r.error.name, r.error.code, r.error.status]).toEqual(['ClientHttpError', 'BAD_RESPONSE', 200]);
    expect(r.error.message).toContain('{\\"id\\": 1,,');
  });

  it('a non-2xx answer that does not parse keeps its text and stays HTTP_ERROR', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users/1').respond(502, '{<html>bad gateway', { 'Content-Type': 'application/json' });
    const r = settle(t, t.Client.one('users', 1).get());
    expect([r.error.code, r.error.status, r.error.data]).toEqual(['HTTP_ERROR', 502, '{<html>bad gateway']);
  });
});
