// Configuration setters: each on ClientProvider (config phase) and on Client (run phase), plus
// `configuration.*` and the fields table.
import { describe, it, expect } from 'vitest';
import { ng, settle, capture } from './helpers/ng';

const json = (v: any) => (typeof v === 'string' ? JSON.parse(v) : v);

/** Run `set` once through the provider and once through the service, then `check` each. */
function bothPhases(name: string, set: (c: any) => void, check: (t: any) => void) {
  it(`${name} on ClientProvider (config phase)`, () => {
    const t = ng((p) => set(p));
    check(t);
  });
  it(`${name} on Client (run phase)`, () => {
    const t = ng();
    set(t.Client);
    check(t);
  });
}

describe('configuration setters', () => {
  it('defaults', () => {
    const c = ng().Client.configuration;
    expect(c.baseUrl).toBe('');
    expect(c.extraFields).toEqual([]);
    expect(c.defaultHttpFields).toEqual({});
    expect(c.transformLocalElements).toBe(true);
    expect(c.jsonp).toBe(false);
    expect(c.fullResponse).toBe(false);
    expect(c.defaultHeaders).toEqual({});
    expect(c.requestSuffix).toBe(null);
    expect(c.useCannonicalId).toBe(false);
    expect(c.plainByDefault).toBe(false);
    expect(c.encodeIds).toBe(true);
    expect(c.methodOverriders).toEqual([]);
    expect(c.clientFields.id).toBe('id');
    expect(c.clientFields.route).toBe('route');
    expect(c.clientFields.parentResource).toBe('parentResource');
    expect(c.clientFields.clientCollection).toBe('clientCollection');
    expect(c.clientFields.etag).toBe('clientEtag');
    expect(c.clientFields.selfLink).toBe('href');
    expect(c.defaultRequestParams).toEqual({ get: {}, post: {}, put: {}, remove: {}, common: {} });
  });

  it('provider and service share one configuration', () => {
    let provider: any;
    const t = ng((p) => (provider = p));
    expect(provider.configuration).toBe(t.Client.configuration);
  });

  bothPhases('setBaseUrl', (c) => c.setBaseUrl('/base'), (t) => {
    t.$httpBackend.expectGET('/base/x').respond(200, []);
    settle(t, t.Client.all('x').getList());
  });

  bothPhases('setExtraFields', (c) => c.setExtraFields(['name']), (t) => {
    const parent = t.Client.one('accounts', 1);
    parent.name = 'acme';
    parent.other = 'no';
    const child = parent.one('users', 2);
    expect(child.parentResource.name).toBe('acme');
    expect(child.parentResource.other).toBeUndefined();
  });

  bothPhases('setParentless', (c) => c.setParentless(['b']), (t) => {
    expect(t.Client.one('a', 1).one('b', 2).getClientUrl()).toBe('/b/2');
  });

  bothPhases('setDefaultHttpFields', (c) => c.setDefaultHttpFields({ withCredentials: true, transformResponse: [(d: any) => ({ wrapped: json(d) })] }), (t) => {
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 });
    const r = settle(t, t.Client.one('x', 1).get());
    expect(r.value.wrapped).toEqual({ id: 1 });
  });

  bothPhases('setTransformOnlyServerElements(false) transforms local elements too', (c) => {
    c.setTransformOnlyServerElements(false);
    c.extendModel('x', (e: any) => ((e.local = true), e));
  }, (t) => {
    expect(t.Client.one('x', 1).local).toBe(true);
  });

  it("default (Restangular 1.6.1's): transformers run on local pointers, so the README's addClientMethod example works", () => {
    const t = ng((p) => {
      p.addElementTransformer('buildings', false, (b: any) => {
        b.addClientMethod('evaluate', 'get', 'evaluate');
        return b;
      });
      p.addElementTransformer('users', true, (u: any) => {
        u.addClientMethod('login', 'post', 'login');
        return u;
      });
    });
    t.$httpBackend.expectGET('/buildings/123/evaluate').respond(200, { score: 5 });
    expect(settle(t, t.Client.one('buildings', 123).evaluate()).value.score).toBe(5);
    t.$httpBackend.expectPOST('/users/login', { name: 'ada' }).respond(200, { token: 't' });
    expect(settle(t, t.Client.all('users').login({ name: 'ada' })).value.token).toBe('t');
  });

  it('setTransformOnlyServerElements(true): local pointers are not transformed, server elements are', () => {
    const t = ng((p) => {
      p.setTransformOnlyServerElements(true);
      p.extendModel('x', (e: any) => ((e.transformed = true), e));
    });
    expect(t.Client.one('x', 1).transformed).toBeUndefined();
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 });
    expect(settle(t, t.Client.one('x', 1).get()).value.transformed).toBe(true);
  });

  bothPhases('setJsonp', (c) => {
    c.setJsonp(true);
  }, (t) => {
    expect(t.Client.configuration.jsonp).toBe(true);
  });

  bothPhases('setDefaultRequestParams(params) applies to every method (common)', (c) => c.setDefaultRequestParams({ key: 'k' }), (t) => {
    t.$httpBackend.expectGET('/x/1?key=k').respond(200, {});
    settle(t, t.Client.one('x', 1).get());
    t.$httpBackend.expectPOST('/x?key=k').respond(200, {});
    settle(t, t.Client.all('x').post({}));
  });

  bothPhases('setDefaultRequestParams(methods, params) applies to those methods', (c) => c.setDefaultRequestParams(['get', 'remove'], { only: 1 }), (t) => {
    t.$httpBackend.expectGET('/x/1?only=1').respond(200, {});
    settle(t, t.Client.one('x', 1).get());
    t.$httpBackend.expectGET('/x?only=1').respond(200, []);
    settle(t, t.Client.all('x').getList());
    t.$httpBackend.expectDELETE('/x/1?only=1').respond(204, '');
    settle(t, t.Client.one('x', 1).remove());
    t.$httpBackend.expectPUT('/x/1').respond(200, {});
    settle(t, t.Client.one('x', 1).put());
    expect(t.Client.configuration.requestParams.get).toEqual({ only: 1 });
    expect(t.Client.requestParams.remove).toEqual({ only: 1 });
  });

  it('setDefaultRequestParams(method, params): call params win over defaults', () => {
    const t = ng((p) => p.setDefaultRequestParams('post', { a: 1, b: 1 }));
    t.$httpBackend.expectPOST('/x?a=2&b=1').respond(200, {});
    settle(t, t.Client.all('x').post({}, { a: 2 }));
  });

  bothPhases('setFullResponse', (c) => c.setFullResponse(true), (t) => {
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 }, { 'X-Total': '10' });
    const r = settle(t, t.Client.one('x', 1).get());
    expect(r.value.status).toBe(200);
    expect(r.value.headers('X-Total')).toBe('10');
    expect(r.value.config.url).toBe('/x/1');
    expect(r.value.data.id).toBe(1);
    expect(typeof r.value.data.put).toBe('function');
  });

  bothPhases('setDefaultHeaders', (c) => c.setDefaultHeaders({ Authorization: 'Bearer t' }), (t) => {
    const seen = capture(t, 'GET', '/x/1', 200, {});
    settle(t, t.Client.one('x', 1).get());
    expect(seen[0].headers.Authorization).toBe('Bearer t');
    expect(t.Client.defaultHeaders).toEqual({ Authorization: 'Bearer t' });
  });

  it('call headers win over default headers', () => {
    const t = ng((p) => p.setDefaultHeaders({ 'X-A': 'default', 'X-B': 'b' }));
    const seen = capture(t, 'GET', '/x/1', 200, {});
    settle(t, t.Client.one('x', 1).get(undefined, { 'X-A': 'call' }));
    expect(seen[0].headers['X-A']).toBe('call');
    expect(seen[0].headers['X-B']).toBe('b');
  });

  bothPhases('setRequestSuffix', (c) => c.setRequestSuffix('.xml'), (t) => {
    t.$httpBackend.expectGET('/x/1.xml').respond(200, {});
    settle(t, t.Client.one('x', 1).get());
  });

  bothPhases('setUseCannonicalId', (c) => c.setUseCannonicalId(true), (t) => {
    const el = t.Client.clientizeElement(null, { id: 'old' }, 'x', true);
    el.id = 'new';
    expect(el.getClientUrl()).toBe('/x/old');
    expect(el.__cannonicalId).toBe('old');
  });

  bothPhases('setPlainByDefault', (c) => c.setPlainByDefault(true), (t) => {
    t.$httpBackend.expectGET('/x').respond(200, [{ id: 1 }]);
    const r = settle(t, t.Client.all('x').getList());
    expect(r.value).toEqual([{ id: 1 }]);
    expect(r.value.getList).toBeUndefined();
    expect(r.value[0].put).toBeUndefined();
    t.$httpBackend.expectGET('/x/1').respond(200, { id: 1 });
    const one = settle(t, t.Client.one('x', 1).get()).value;
    expect(Object.getPrototypeOf(one)).toBe(Object.prototype);
  });

  bothPhases('setEncodeIds', (c) => c.setEncodeIds(false), (t) => {
    expect(t.Client.one('x', 'a b').getClientUrl()).toBe('/x/a b');
  });

  bothPhases('setMethodOverriders', (c) => c.setMethodOverriders(['put', 'delete']), (t) => {
    const seen = capture(t, 'POST', /\/x\/1/, 200, {});
    settle(t, t.Client.one('x', 1).put());
    settle(t, t.Client.one('x', 1).remove());
    expect(seen.map((s) => s.headers['X-HTTP-Method-Override'])).toEqual(['PUT', 'DELETE']);
  });

  bothPhases('setClientFields', (c) => c.setClientFields({ id: '_id', route: '_route', etag: '_etag', get: '_get', selfLink: 'links.self' }), (t) => {
    const el = t.Client.one('x', 'a');
    expect(el._id).toBe('a');
    expect(el._route).toBe('x');
    t.$httpBackend.expectGET('/x/a').respond(200, { _id: 'a' }, { ETag: '"t"' });
    const got = settle(t, el._get()).value;
    expect(got._etag).toBe('"t"');
    expect(t.Client.configuration.clientFields.id).toBe('_id');
  });

  it('configuration.getIdFromElem can be overridden per route', () => {
    const t = ng((p) => {
      p.configuration.getIdFromElem = function (this: any, elem: any) {
        return elem.route === 'cars' ? elem.plate : elem.id;
      };
    });
    t.$httpBackend.expectGET('/cars').respond(200, [{ plate: 'AB-12' }]);
    const cars = settle(t, t.Client.all('cars').getList()).value;
    expect(cars[0].getClientUrl()).toBe('/cars/AB-12');
  });

  it('configuration.requestSuffix set directly is used', () => {
    const t = ng();
    t.Client.configuration.requestSuffix = '.json';
    t.$httpBackend.expectGET('/x.json').respond(200, []);
    settle(t, t.Client.all('x').getList());
  });

  it('setters chain (return the object)', () => {
    let ret: any;
    ng((p) => (ret = p.setBaseUrl('/a').setRequestSuffix('.j').setFullResponse(false)));
    expect(typeof ret.setBaseUrl).toBe('function');
  });

  it('setUrlCreator rejects unknown creators', () => {
    const t = ng();
    expect(() => t.Client.setUrlCreator('query')).toThrow();
    expect(t.Client.setUrlCreator('path')).toBe(t.Client);
  });
});

describe('fields table: each field renamed through setClientFields', () => {
  const get = (t: any) => {
    t.$httpBackend.expectGET('/a/1/b').respond(200, [{ id: 2 }], { ETag: '"l"' });
    return settle(t, t.Client.one('a', 1).getList('b')).value;
  };
  it('id', () => {
    const t = ng((p) => p.setClientFields({ id: 'uuid' }));
    expect(t.Client.one('a', 'u-1').uuid).toBe('u-1');
    expect(t.Client.clientizeElement(null, { uuid: 'z', id: 'ignored' }, 'a').getClientUrl()).toBe('/a/z');
  });
  it('route', () => {
    const t = ng((p) => p.setClientFields({ route: '_route' }));
    expect(get(t)[0]._route).toBe('b');
  });
  it('parentResource', () => {
    const t = ng((p) => p.setClientFields({ parentResource: '_parent' }));
    const l = get(t);
    expect(l[0]._parent.id).toBe(1);
    expect(l[0]._parent.route).toBe('a');
  });
  it('clientCollection', () => {
    const t = ng((p) => p.setClientFields({ clientCollection: '_isList' }));
    const l = get(t);
    expect([l._isList, l[0]._isList]).toEqual([true, false]);
  });
  it('cannonicalId', () => {
    const t = ng((p) => {
      p.setClientFields({ cannonicalId: '_origId' });
      p.setUseCannonicalId(true);
    });
    const l = get(t);
    l[0].id = 3;
    expect(l[0]._origId).toBe(2);
    expect(l[0].getClientUrl()).toBe('/a/1/b/2');
  });
  it('etag', () => {
    const t = ng((p) => p.setClientFields({ etag: '_etag' }));
    const l = get(t);
    expect(l._etag).toBe('"l"');
    expect(l.clientEtag).toBeUndefined();
  });
  it('selfLink', () => {
    const t = ng((p) => p.setClientFields({ selfLink: 'self' }));
    const el = t.Client.clientizeElement(null, { id: 1, self: '/elsewhere/1', href: '/not-this' }, 'a', true);
    expect(el.getClientUrl()).toBe('/elsewhere/1');
  });
  it('library methods too (getList -> fetch, getClientUrl -> url)', () => {
    const t = ng((p) => p.setClientFields({ getList: 'fetch', getClientUrl: 'url' }));
    const c = t.Client.all('a');
    expect(c.url()).toBe('/a');
    expect(c.getList).toBeUndefined();
    t.$httpBackend.expectGET('/a').respond(200, []);
    settle(t, c.fetch());
  });
});
