// Request behaviours, states and transitions, errors, enhanced promises, AngularJS integration.
import { describe, it, expect } from 'vitest';
import { ng, settle, capture, ngVersion, angular } from './helpers/ng';

const json = (v: any) => (typeof v === 'string' ? JSON.parse(v) : v);
const ng16plus = Number(ngVersion.split('.')[1]) >= 6;

describe('ETags', () => {
  it('the received ETag is stored in the etag field (not in the data) and sent as If-None-Match on the next GET', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 }, { ETag: '"abc"' });
    const el = settle(t, t.Client.one('x', 1).get()).value;
    expect(el.clientEtag).toBe('"abc"');
    expect(JSON.stringify(el)).toBe('{"id":1}');
    const seen = capture(t, 'GET', '/x/1', 200, { id: 1 });
    settle(t, el.get());
    expect(seen[0].headers['If-None-Match']).toBe('"abc"');
  });

  it('a collection keeps its ETag and sends If-None-Match; 304 resolves with the same collection', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x').respond(200, [{ id: 1 }], { ETag: 'W/"l1"' });
    const l = settle(t, t.Client.all('x').getList()).value;
    expect(l.clientEtag).toBe('W/"l1"');
    const seen = capture(t, 'GET', '/x', 304, '');
    const r = settle(t, l.getList());
    expect(seen[0].headers['If-None-Match']).toBe('W/"l1"');
    expect(r.value).toBe(l);
  });

  it('304 on an element GET resolves with the element itself', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1, v: 1 }, { ETag: '"e"' });
    const el = settle(t, t.Client.one('x', 1).get()).value;
    t.$httpBackend.expectGET('/x/1').respond(304, '');
    expect(settle(t, el.get()).value).toBe(el);
  });

  it('PUT of an element with an ETag sends If-Match', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 }, { ETag: '"e1"' });
    const el = settle(t, t.Client.one('x', 1).get()).value;
    const seen = capture(t, 'PUT', '/x/1', 200, { id: 1 });
    settle(t, el.put());
    expect(seen[0].headers['If-Match']).toBe('"e1"');
    expect(json(seen[0].data)).toEqual({ id: 1 });
  });
});

describe('method overriders', () => {
  it('listed methods go out as POST with X-HTTP-Method-Override holding the real method', () => {
    const t = ng((p) => p.setMethodOverriders(['patch', 'get']));
    const seen = capture(t, 'POST', '/x/1', 200, { id: 1 });
    settle(t, t.Client.one('x', 1).patch({ a: 1 }));
    settle(t, t.Client.one('x', 1).get());
    expect(seen[0].headers['X-HTTP-Method-Override']).toBe('PATCH');
    expect(json(seen[0].data)).toEqual({ a: 1 });
    expect(seen[1].headers['X-HTTP-Method-Override']).toBe('GET');
    expect(json(seen[1].data)).toEqual({});
  });
});

describe('JSONP', () => {
  it(`get and getList use JSONP when setJsonp(true) (angular ${ngVersion})`, () => {
    const t = ng((p, $provide) => {
      p.setJsonp(true);
      // AngularJS < 1.6 needs the placeholder; 1.6+ adds the callback param itself.
      if (!ng16plus) p.setDefaultRequestParams('jsonp', { callback: 'JSON_CALLBACK' });
    });
    t.$httpBackend.expectJSONP('/x?callback=JSON_CALLBACK').respond(200, [{ id: 1 }]);
    const l = settle(t, t.Client.all('x').getList()).value;
    expect(l[0].id).toBe(1);
    t.$httpBackend.expectJSONP('/x/1?callback=JSON_CALLBACK').respond(200, { id: 1 });
    settle(t, t.Client.one('x', 1).get());
    t.$httpBackend.expectPUT('/x/1').respond(200, {});
    settle(t, l[0].put());
  });
});

describe('$object', () => {
  it('of a getList promise: an empty array before the answer, the same array filled after', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x').respond(200, [{ id: 1 }, { id: 2 }]);
    const p = t.Client.all('x').getList();
    const obj = p.$object;
    expect(obj).toEqual([]);
    t.$httpBackend.flush();
    expect(p.$object).toBe(obj);
    expect(obj.length).toBe(2);
    expect(obj[1].id).toBe(2);
    expect(typeof obj.getList).toBe('function');
  });

  it('of a single element: an empty object before, filled in place after, usable as an element', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1, name: 'n' });
    const p = t.Client.one('x', 1).get();
    const obj = p.$object;
    expect(obj).toEqual({});
    t.$httpBackend.flush();
    expect(obj.name).toBe('n');
    t.$httpBackend.expectPUT('/x/1', { id: 1, name: 'n' }).respond(200, {});
    settle(t, obj.put());
  });
});

describe('enhanced promises', () => {
  it('call(methodName, params) is a promise of the previous value after calling the method', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x').respond(200, [{ id: 3 }, { id: 1 }]);
    const r = settle(t, t.Client.all('x').getList().call('sort', (a: any, b: any) => a.id - b.id));
    expect(r.value.map((e: any) => e.id)).toEqual([1, 3]);
  });

  it('get(fieldName) is a promise of that field', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1, name: 'n' });
    const p = t.Client.one('x', 1).get().get('name');
    const r = settle(t, p);
    expect(r.value).toBe('n');
  });

  it('push(object) only on promises of arrays', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x').respond(200, [{ id: 1 }]);
    const lp = t.Client.all('x').getList();
    expect(typeof lp.push).toBe('function');
    const r = settle(t, lp.push({ id: 2 }));
    expect(r.value.length).toBe(2);
    t.$httpBackend.expectGET('/x/1').respond(200, {});
    const ep = t.Client.one('x', 1).get();
    expect(ep.push).toBeUndefined();
    settle(t, ep);
  });

  it('call() and get() propagate a failure', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x').respond(500, '');
    const r = settle(t, t.Client.all('x').getList().call('reverse'));
    expect(r.error.status).toBe(500);
  });
});

describe('errors', () => {
  it('a failed request rejects; the error callback gets the response with status, and a typed error', () => {
    const t = ng((p) => p.setBaseUrl('/api'));
    t.$httpBackend.expectDELETE('/api/x/1').respond(409, { reason: 'locked' });
    const r = settle(t, t.Client.one('x', 1).remove());
    expect(r.error.status).toBe(409);
    expect(r.error.data).toEqual({ reason: 'locked' });
    expect(r.error.code).toBe('HTTP_ERROR');
    expect(r.error).toBeInstanceOf(Error);
    expect(r.error.message).toBe('DELETE /api/x/1 failed with status 409');
    expect(r.error.config.method).toBe('DELETE');
    expect(typeof r.error.headers).toBe('function');
  });

  it('status 0 is a NETWORK_ERROR whose message names the missing cross-origin headers', () => {
    const t = ng();
    t.$httpBackend.expectGET('http://other.example/x').respond(0, '');
    const r = settle(t, t.Client.allUrl('x', 'http://other.example/x').getList());
    expect(r.error.status).toBe(0);
    expect(r.error.code).toBe('NETWORK_ERROR');
    expect(r.error.message).toContain('GET http://other.example/x');
    expect(r.error.message).toContain('cross-origin');
  });
});

describe('cancellation and digests', () => {
  it('resolving the timeout promise of the HTTP config cancels the request in flight', () => {
    const t = ng();
    const canceler = t.$q.defer();
    t.$httpBackend.whenGET('/slow').respond(200, []);
    const out: any = {};
    t.Client.all('slow')
      .withHttpConfig({ timeout: canceler.promise })
      .getList()
      .then(
        (v: any) => (out.value = v),
        (e: any) => (out.error = e),
      );
    t.$rootScope.$digest();
    canceler.resolve();
    t.$rootScope.$digest();
    expect(out.value).toBeUndefined();
    expect(out.error.status).toBe(-1);
    expect(out.error.code).toBe('ABORTED');
    t.$httpBackend.verifyNoOutstandingRequest();
  });

  it('a request started outside a digest goes out without a manual $apply', async () => {
    const t = ng();
    t.$httpBackend.whenGET('/late/1').respond(200, { id: 1 });
    let result: any;
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        t.Client.one('late', 1)
          .get()
          .then((v: any) => (result = v));
        resolve();
      }, 0),
    );
    // Nothing ran a digest yet: the request waits for one.
    expect(() => t.$httpBackend.verifyNoOutstandingRequest(false)).not.toThrow();
    // $http's $q chain scheduled one (in a browser: setTimeout 0; with ngMock: $timeout.flush()).
    t.$timeout.flush();
    expect(() => t.$httpBackend.verifyNoOutstandingRequest(false)).toThrow();
    t.$httpBackend.flush();
    expect(result.id).toBe(1);
  });
});

describe('AngularJS integration', () => {
  it("requests go through $http: the app's $http interceptors and defaults apply", () => {
    const t = ng((p, $provide, $httpProvider) => {
      $httpProvider.defaults.headers.common['X-App-Default'] = 'd';
      $httpProvider.interceptors.push(() => ({
        request: (cfg: any) => {
          cfg.headers['X-App-Interceptor'] = 'i';
          return cfg;
        },
      }));
    });
    const seen = capture(t, 'GET', '/x/1', 200, {});
    settle(t, t.Client.one('x', 1).get());
    expect(seen[0].headers['X-App-Default']).toBe('d');
    expect(seen[0].headers['X-App-Interceptor']).toBe('i');
  });

  it('promises are $q promises', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x/1').respond(200, {});
    const p = t.Client.one('x', 1).get();
    expect(typeof p.finally).toBe('function');
    expect(typeof p.catch).toBe('function');
    settle(t, p);
  });

  it('full response for getList carries the enhanced collection in data', () => {
    const t = ng((p) => p.setFullResponse(true));
    t.$httpBackend.expectGET('/x').respond(200, [{ id: 1 }], { 'X-Total-Count': '1' });
    const r = settle(t, t.Client.all('x').getList());
    expect(r.value.headers('X-Total-Count')).toBe('1');
    expect(r.value.data[0].getClientUrl()).toBe('/x/1');
  });

  it('the module is registered once on the angular global', () => {
    expect(angular.module('client').name).toBe('client');
  });
});

describe('shared prototypes', () => {
  it('elements of a list share one prototype and carry no own functions', () => {
    const t = ng();
    const data = Array.from({ length: 50 }, (_, i) => ({ id: i }));
    t.$httpBackend.expectGET('/x').respond(200, data);
    const l = settle(t, t.Client.all('x').getList()).value;
    const protos = new Set(l.map((e: any) => Object.getPrototypeOf(e)));
    expect(protos.size).toBe(1);
    for (const e of l) for (const k of Object.getOwnPropertyNames(e)) expect(typeof e[k]).not.toBe('function');
  });
});

describe('copies that lost the bookkeeping', () => {
  it('a spread copy keeps the data; calling a request method on it throws NOT_CLIENTIZED (use clone())', () => {
    const t = ng();
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1, n: 'a' });
    const el = settle(t, t.Client.one('x', 1).get()).value;
    const c: any = Object.setPrototypeOf({ ...el }, Object.getPrototypeOf(el));
    expect(angular.equals(c, el)).toBe(true);
    expect(angular.equals(angular.copy(el), el)).toBe(true);
    expect(() => c.put()).toThrowError(expect.objectContaining({ code: 'NOT_CLIENTIZED' }));
    t.$httpBackend.expectPUT('/x/1', { id: 1, n: 'a' }).respond(200, {});
    settle(t, el.clone().put());
  });

  it("what users write: a spread copy is plain data (no put: TypeError); lodash's _.clone keeps the prototype and throws NOT_CLIENTIZED naming it", async () => {
    const _ = (await import('lodash')).default;
    const t = ng();
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1, n: 'a' });
    const el = settle(t, t.Client.one('x', 1).get()).value;
    const spread: any = { ...el };
    expect([spread.n, typeof spread.put]).toEqual(['a', 'undefined']);
    expect(() => spread.put()).toThrowError(TypeError);
    for (const copy of [_.clone(el), _.cloneDeep(el)]) {
      expect(() => copy.put()).toThrowError(
        expect.objectContaining({ code: 'NOT_CLIENTIZED', message: "put(): this object is not enhanced by the client: a copy that kept the element's prototype but not its bookkeeping (lodash's _.clone or _.cloneDeep, Object.create); use elem.clone(), Client.copy(elem) or angular.copy(elem)" }),
      );
    }
  });
});
