// Hooks and interceptors: arguments and handling of each result.
import { describe, it, expect } from 'vitest';
import { ng, settle, capture } from './helpers/ng';

const json = (v: any) => (typeof v === 'string' ? JSON.parse(v) : v);

describe('element transformers', () => {
  it('addElementTransformer(route, fn) runs for elements and collections of the route, after enhancement', () => {
    const seen: any[] = [];
    const t = ng((p) =>
      p.addElementTransformer('users', (e: any) => {
        seen.push([Array.isArray(e), typeof e.getClientUrl]);
        e.touched = true;
        return e;
      }),
    );
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1 }]);
    const l = settle(t, t.Client.all('users').getList()).value;
    // The local pointer all('users') first (Restangular 1.6.1's default), then the answer's list and its element.
    expect(seen).toEqual([
      [true, 'function'],
      [true, 'function'],
      [false, 'function'],
    ]);
    expect(l.touched).toBe(true);
    expect(l[0].touched).toBe(true);
  });

  it('addElementTransformer(route, true, fn) only for collections; (route, false, fn) only for elements', () => {
    const t = ng((p) => {
      p.addElementTransformer('users', true, (c: any) => ((c.isColl = true), c));
      p.addElementTransformer('users', false, (e: any) => ((e.isElem = true), e));
    });
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1 }]);
    const l = settle(t, t.Client.all('users').getList()).value;
    expect([l.isColl, l.isElem, l[0].isColl, l[0].isElem]).toEqual([true, undefined, undefined, true]);
  });

  it('a transformer may return a different object, which is used', () => {
    const t = ng((p) => p.extendModel('users', (e: any) => Object.assign(e, { full: e.first + ' ' + e.last })));
    t.$httpBackend.expectGET('/users/1').respond(200, { id: 1, first: 'A', last: 'L' });
    expect(settle(t, t.Client.one('users', 1).get()).value.full).toBe('A L');
  });

  it('extendCollection(route, fn) is addElementTransformer(route, true, fn)', () => {
    const t = ng((p) => p.extendCollection('users', (c: any) => ((c.total = c.length), c)));
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1 }, { id: 2 }]);
    const l = settle(t, t.Client.all('users').getList()).value;
    expect(l.total).toBe(2);
    expect(l[0].total).toBeUndefined();
  });

  it('extendModel(route, fn) is addElementTransformer(route, false, fn)', () => {
    const t = ng((p) =>
      p.extendModel('users', (u: any) => {
        u.greet = function () {
          return 'hi ' + this.name;
        };
        return u;
      }),
    );
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1, name: 'ada' }]);
    const l = settle(t, t.Client.all('users').getList()).value;
    expect(l[0].greet()).toBe('hi ada');
    expect(l.greet).toBeUndefined();
    expect(JSON.stringify(l[0])).toBe('{"id":1,"name":"ada"}');
  });

  it('a RegExp route matches several routes', () => {
    const t = ng((p) => p.extendModel(/^u/, (e: any) => ((e.m = e.route), e)));
    t.$httpBackend.expectGET('/units/1').respond(200, { id: 1 });
    expect(settle(t, t.Client.one('units', 1).get()).value.m).toBe('units');
  });

  it('setOnElemClientized(fn) gets (elem, isCollection, what, Client): the collection first, then each element', () => {
    const calls: any[] = [];
    let client: any;
    const t = ng((p) =>
      p.setOnElemClientized((elem: any, isCollection: boolean, what: string, c: any) => {
        calls.push([isCollection, what, isCollection ? elem.length : elem.id]);
        client = c;
      }),
    );
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1 }, { id: 2 }]);
    settle(t, t.Client.all('users').getList());
    expect(calls.slice(-3)).toEqual([
      [true, 'users', 2],
      [false, 'users', 1],
      [false, 'users', 2],
    ]);
    expect(client).toBe(t.Client);
  });

  it('setOnBeforeElemClientized(fn) sees the raw element first', () => {
    const t = ng((p) => p.setOnBeforeElemClientized((e: any, isColl: boolean) => (isColl ? e : Object.assign(e, { before: typeof e.get }))));
    t.$httpBackend.expectGET('/users/1').respond(200, { id: 1 });
    expect(settle(t, t.Client.one('users', 1).get()).value.before).toBe('undefined');
  });
});

describe('response interceptors', () => {
  it('addResponseInterceptor(fn) gets (data, operation, what, url, response, deferred) and its result is enhanced', () => {
    const args: any[] = [];
    const t = ng((p) => {
      p.setBaseUrl('/api/v1');
      p.addResponseInterceptor((data: any, operation: string, what: string, url: string, response: any, deferred: any) => {
        args.push({ operation, what, url, status: response.status, hasDeferred: typeof deferred.resolve === 'function' });
        return data.item;
      });
    });
    t.$httpBackend.expectGET('/api/v1/accounts/123').respond(200, { item: { id: 123 }, meta: 1 });
    const r = settle(t, t.Client.one('accounts', 123).get());
    expect(r.value.plain()).toEqual({ id: 123 });
    expect(args[0]).toEqual({ operation: 'get', what: 'accounts', url: '/api/v1/accounts/123', status: 200, hasDeferred: true });
  });

  it('operation names: getList, get, post, put, remove, patch', () => {
    const ops: string[] = [];
    const t = ng((p) => p.addResponseInterceptor((d: any, op: string) => (ops.push(op), d)));
    t.$httpBackend.whenGET('/a').respond(200, [{ id: 1 }]);
    t.$httpBackend.whenGET('/a/1').respond(200, { id: 1 });
    t.$httpBackend.whenPOST('/a').respond(200, { id: 2 });
    t.$httpBackend.whenPUT('/a/1').respond(200, { id: 1 });
    t.$httpBackend.whenDELETE('/a/1').respond(200, { id: 1 });
    t.$httpBackend.whenPATCH('/a/1').respond(200, { id: 1 });
    const a = t.Client.all('a');
    const one = t.Client.one('a', 1);
    for (const call of [() => a.getList(), () => one.get(), () => a.post({}), () => one.put(), () => one.remove(), () => one.patch({})]) settle(t, call());
    expect(ops).toEqual(['getList', 'get', 'post', 'put', 'remove', 'patch']);
  });

  it('a getList response interceptor unwraps data and attaches metadata to the array', () => {
    const t = ng((p) =>
      p.addResponseInterceptor((data: any, operation: string) => {
        if (operation === 'getList') {
          const list = data.items;
          list.meta = data.meta;
          return list;
        }
        return data;
      }),
    );
    t.$httpBackend.expectGET('/users').respond(200, { items: [{ id: 1 }], meta: { total: 40 } });
    const l = settle(t, t.Client.all('users').getList()).value;
    expect(l.meta).toEqual({ total: 40 });
    expect(l[0].getClientUrl()).toBe('/users/1');
  });

  it('several response interceptors run in the order added', () => {
    const t = ng((p) => {
      p.addResponseInterceptor((d: any) => ({ ...d, a: 1 }));
      p.addResponseInterceptor((d: any) => ({ ...d, b: d.a + 1 }));
    });
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 });
    expect(settle(t, t.Client.one('x', 1).get()).value.plain()).toEqual({ id: 1, a: 1, b: 2 });
  });

  it('setResponseInterceptor / setResponseExtractor are single-slot: a second call replaces the first', () => {
    const calls: string[] = [];
    const t = ng((p) => {
      p.setResponseInterceptor((d: any) => (calls.push('first'), d));
      p.setResponseInterceptor((d: any) => (calls.push('second'), d));
      p.addResponseInterceptor((d: any) => (calls.push('added'), d));
    });
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 });
    settle(t, t.Client.one('x', 1).get());
    expect(calls).toEqual(['second', 'added']);
  });
});

describe('request interceptors', () => {
  it('addRequestInterceptor(fn) gets (element, operation, what, url) and its result is sent', () => {
    const args: any[] = [];
    const t = ng((p) =>
      p.addRequestInterceptor((el: any, op: string, what: string, url: string) => {
        args.push([op, what, url]);
        return { wrapped: el };
      }),
    );
    t.$httpBackend.expectPOST('/accounts/1/users', { wrapped: { name: 'n' } }).respond(201, { id: 3 });
    settle(t, t.Client.one('accounts', 1).post('users', { name: 'n' }));
    expect(args[0]).toEqual(['post', 'users', '/accounts/1/users']);
  });

  it('a request interceptor returning null sends no body (DELETE without {})', () => {
    const t = ng((p) => p.addRequestInterceptor((el: any, op: string) => (op === 'remove' ? null : el)));
    const seen = capture(t, 'DELETE', '/x/1', 204, '');
    settle(t, t.Client.one('x', 1).remove());
    expect(seen[0].data === undefined || seen[0].data === null).toBe(true);
    expect(seen[0].headers['Content-Type']).toBeUndefined();
  });

  it('addFullRequestInterceptor(fn) gets (element, operation, what, url, headers, params, httpConfig)', () => {
    let args: any[] = [];
    const t = ng((p) =>
      p.addFullRequestInterceptor((...a: any[]) => {
        args = a;
        return {};
      }),
    );
    const el = t.Client.one('x', 1).withHttpConfig({ cache: false });
    t.$httpBackend.expectPUT('/x/1?p=1').respond(200, {});
    settle(t, el.put({ p: 1 }, { H: 'h' }));
    expect(args[0]).toEqual({ id: 1 });
    expect(args.slice(1, 4)).toEqual(['put', 'x', '/x/1']);
    expect(args[4]).toEqual({ H: 'h' });
    expect(args[5]).toEqual({ p: 1 });
    expect(args[6]).toEqual({ cache: false });
  });

  it('full request interceptor: a partial result keeps the omitted parts', () => {
    const t = ng((p) => {
      p.addFullRequestInterceptor((el: any, op: string, what: string, url: string, headers: any) => ({ headers: { ...headers, 'X-Added': 'yes' } }));
      p.addFullRequestInterceptor((el: any, op: string, what: string, url: string, headers: any, params: any) => ({ params: { ...params, extra: 1 } }));
    });
    const seen = capture(t, 'PUT', '/x/1?extra=1&p=1', 200, {});
    settle(t, t.Client.one('x', 1).put({ p: 1 }, { Orig: 'o' }));
    expect(json(seen[0].data)).toEqual({ id: 1 });
    expect(seen[0].headers['X-Added']).toBe('yes');
    expect(seen[0].headers.Orig).toBe('o');
  });

  it('full request interceptor can replace the element and the httpConfig', () => {
    const t = ng((p) =>
      p.addFullRequestInterceptor(() => ({ element: { replaced: true }, httpConfig: { transformRequest: (d: any) => 'T:' + JSON.stringify(d) } })),
    );
    const seen = capture(t, 'POST', '/x', 200, {});
    settle(t, t.Client.all('x').post({ a: 1 }));
    expect(seen[0].data).toBe('T:{"replaced":true}');
  });

  it('setRequestInterceptor / setFullRequestInterceptor are single-slot', () => {
    const t = ng((p) => {
      p.setRequestInterceptor(() => ({ v: 1 }));
      p.setRequestInterceptor((e: any) => ({ v: 2, e }));
      p.setFullRequestInterceptor(() => ({ headers: { A: '1' } }));
      p.setFullRequestInterceptor(() => ({ headers: { B: '2' } }));
    });
    const seen = capture(t, 'POST', '/x', 200, {});
    settle(t, t.Client.all('x').post({ o: 1 }));
    expect(json(seen[0].data)).toEqual({ v: 2, e: { o: 1 } });
    expect(seen[0].headers.B).toBe('2');
    expect(seen[0].headers.A).toBeUndefined();
  });
});

describe('error interceptors', () => {
  it('setErrorInterceptor(fn) gets (response, deferred, responseHandler) on every error; other results reach the error callback', () => {
    let args: any[] = [];
    const t = ng((p) =>
      p.setErrorInterceptor((...a: any[]) => {
        args = a;
        return true;
      }),
    );
    t.$httpBackend.expectGET('/x/1').respond(404, { message: 'nope' });
    const r = settle(t, t.Client.one('x', 1).get());
    expect(args[0].status).toBe(404);
    expect(typeof args[1].resolve).toBe('function');
    expect(typeof args[2]).toBe('function');
    expect(r.error.status).toBe(404);
    expect(r.error.data).toEqual({ message: 'nope' });
  });

  it('an error interceptor that returns false keeps the promise pending', () => {
    const t = ng((p) => p.setErrorInterceptor(() => false));
    t.$httpBackend.expectGET('/x/1').respond(500, '');
    const r = settle(t, t.Client.one('x', 1).get());
    t.$rootScope.$digest();
    expect(r.done).toBe(false);
  });

  it('replay through $http with the stored config, passing the result to the response handler; request interceptors are not run again', () => {
    let requestInterceptorRuns = 0;
    let $http: any;
    let refreshed = false;
    const t = ng((p) => {
      p.addRequestInterceptor((e: any) => (requestInterceptorRuns++, e));
      p.setErrorInterceptor((response: any, deferred: any, responseHandler: any) => {
        if (response.status === 401 && !refreshed) {
          refreshed = true;
          response.config.headers.Authorization = 'Bearer new';
          $http(response.config).then(responseHandler, deferred.reject);
          return false;
        }
        return true;
      });
    });
    $http = t.$http;
    const seen: any[] = [];
    let n = 0;
    t.$httpBackend.when('GET', '/x/1').respond((m: string, u: string, d: any, h: any) => {
      seen.push(h.Authorization);
      return n++ === 0 ? [401, ''] : [200, { id: 1, ok: true }];
    });
    const r = settle(t, t.Client.one('x', 1).get());
    expect(seen).toEqual([undefined, 'Bearer new']);
    expect(r.value.ok).toBe(true);
    expect(typeof r.value.put).toBe('function');
    expect(requestInterceptorRuns).toBe(1);
  });

  it('an error interceptor that returns false and rejects later through a detached deferred.reject rejects the call with that reason', () => {
    let later: (() => void) | undefined;
    const t = ng((p) =>
      p.setErrorInterceptor((response: any, deferred: any) => {
        const reject = deferred.reject;
        later = () => reject(new Error('gave up after ' + response.status));
        return false;
      }),
    );
    t.$httpBackend.expectGET('/x/1').respond(503, '');
    const r = settle(t, t.Client.one('x', 1).get());
    expect(r.done).toBe(false);
    later!();
    t.$rootScope.$digest();
    expect(r.error.message).toBe('gave up after 503');
  });

  it("a response interceptor's deferred.reject wins over the data it returns (first settle wins)", () => {
    const t = ng((p) =>
      p.addResponseInterceptor((data: any, op: string, what: string, url: string, response: any, deferred: any) => {
        deferred.reject('refused by interceptor');
        return data;
      }),
    );
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 });
    const r = settle(t, t.Client.one('x', 1).get());
    expect(r.error).toBe('refused by interceptor');
  });

  it("a response interceptor's deferred.resolve wins over the data it returns, and deferred.promise settles with the call", () => {
    let held: any;
    const t = ng((p) =>
      p.addResponseInterceptor((data: any, op: string, what: string, url: string, response: any, deferred: any) => {
        held = deferred.promise;
        deferred.resolve('from interceptor');
        return data;
      }),
    );
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 });
    const r = settle(t, t.Client.one('x', 1).get());
    expect(r.value).toBe('from interceptor');
    let heldValue: any;
    held.then((v: any) => (heldValue = v));
    t.$rootScope.$digest();
    expect(heldValue).toBe('from interceptor');
  });

  it('addErrorInterceptor allows several; any false stops', () => {
    const calls: string[] = [];
    const t = ng((p) => {
      p.addErrorInterceptor(() => (calls.push('a'), true));
      p.addErrorInterceptor(() => (calls.push('b'), false));
      p.addErrorInterceptor(() => (calls.push('c'), true));
    });
    t.$httpBackend.expectGET('/x').respond(500, '');
    const r = settle(t, t.Client.all('x').getList());
    expect(calls).toEqual(['a', 'b']);
    expect(r.done).toBe(false);
  });
});

describe('promise interceptor', () => {
  it('setClientizePromiseInterceptor(fn) sees every enhanced promise', () => {
    const t = ng((p) => p.setClientizePromiseInterceptor((promise: any) => (promise.tagged = true)));
    t.$httpBackend.expectGET('/x/1').respond(200, {});
    const p = t.Client.one('x', 1).get();
    expect(p.tagged).toBe(true);
    settle(t, p);
  });
});
