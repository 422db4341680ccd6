// Element methods: one row of the seed's "Element methods" table per test.
import { describe, it, expect } from 'vitest';
import { ng, settle, capture } from './helpers/ng';

const json = (v: any) => (typeof v === 'string' ? JSON.parse(v) : v);

describe('element methods', () => {
  it('get([queryParams, headers]) GETs the element with query and headers', () => {
    const t = ng();
    const seen = capture(t, 'GET', '/accounts/1?expand=true', 200, { id: 1, name: 'A' });
    const r = settle(t, t.Client.one('accounts', 1).get({ expand: true }, { 'X-Req': 'yes' }));
    expect(seen[0].headers['X-Req']).toBe('yes');
    expect(seen[0].data).toBeUndefined();
    expect(r.value.name).toBe('A');
    expect(r.value.route).toBe('accounts');
    expect(r.value.fromServer).toBe(true);
  });

  it('getList(subElement, [queryParams, headers]) GETs <element>/<subElement>', () => {
    const t = ng();
    const seen = capture(t, 'GET', '/accounts/1/buildings?sort=name', 200, [{ id: 10 }, { id: 11 }]);
    const r = settle(t, t.Client.one('accounts', 1).getList('buildings', { sort: 'name' }, { 'X-L': '1' }));
    expect(seen[0].headers['X-L']).toBe('1');
    expect(r.value.length).toBe(2);
    expect(r.value.clientCollection).toBe(true);
    expect(r.value[0].clientCollection).toBe(false);
    expect(r.value[1].getClientUrl()).toBe('/accounts/1/buildings/11');
    expect(r.value[0].parentResource.route).toBe('accounts');
  });

  it('put([queryParams, headers]) PUTs the data of the element, never library fields', () => {
    const t = ng();
    t.$httpBackend.expectGET('/accounts/1').respond(200, { id: 1, name: 'A' });
    const acc = settle(t, t.Client.one('accounts', 1).get()).value;
    acc.name = 'B';
    const seen = capture(t, 'PUT', '/accounts/1?force=1', 200, { id: 1, name: 'B' });
    const r = settle(t, acc.put({ force: 1 }, { 'X-P': 'p' }));
    expect(json(seen[0].data)).toEqual({ id: 1, name: 'B' });
    expect(seen[0].headers['X-P']).toBe('p');
    expect(r.value.name).toBe('B');
  });

  it('post(subElement, elementToPost, [queryParams, headers]) POSTs to <element>/<subElement>', () => {
    const t = ng();
    const seen = capture(t, 'POST', '/accounts/1/buildings?notify=1', 201, { id: 99, name: 'new' });
    const r = settle(t, t.Client.one('accounts', 1).post('buildings', { name: 'new' }, { notify: 1 }, { 'X-C': 'c' }));
    expect(json(seen[0].data)).toEqual({ name: 'new' });
    expect(seen[0].headers['X-C']).toBe('c');
    expect(r.value.id).toBe(99);
    expect(r.value.getClientUrl()).toBe('/accounts/1/buildings/99');
  });

  it('remove() sends DELETE with an empty object as body', () => {
    const t = ng();
    const seen = capture(t, 'DELETE', '/accounts/1?hard=1', 204, '');
    settle(t, t.Client.one('accounts', 1).remove({ hard: 1 }, { 'X-D': 'd' }));
    expect(json(seen[0].data)).toEqual({});
    expect(seen[0].headers['X-D']).toBe('d');
  });

  it('head, trace, options send HEAD, TRACE, OPTIONS with params and headers', () => {
    const t = ng();
    const seen: any[] = [];
    for (const m of ['HEAD', 'TRACE', 'OPTIONS']) seen.push(capture(t, m, '/accounts/1?a=1', 200, ''));
    const el = t.Client.one('accounts', 1);
    settle(t, el.head({ a: 1 }, { 'X-H': 'h' }));
    settle(t, el.trace({ a: 1 }));
    settle(t, el.options({ a: 1 }));
    expect(seen.map((s) => s.length)).toEqual([1, 1, 1]);
    expect(seen[0][0].headers['X-H']).toBe('h');
  });

  it('patch(object, [queryParams, headers]) sends PATCH with the object', () => {
    const t = ng();
    const seen = capture(t, 'PATCH', '/accounts/1?v=2', 200, { id: 1, name: 'P' });
    const r = settle(t, t.Client.one('accounts', 1).patch({ name: 'P' }, { v: 2 }, { 'X-Pa': '1' }));
    expect(json(seen[0].data)).toEqual({ name: 'P' });
    expect(seen[0].headers['X-Pa']).toBe('1');
    expect(r.value.name).toBe('P');
  });

  it('save() PUTs an element that came from the server', () => {
    const t = ng();
    t.$httpBackend.expectGET('/accounts/1').respond(200, { id: 1 });
    const acc = settle(t, t.Client.one('accounts', 1).get()).value;
    t.$httpBackend.expectPUT('/accounts/1', { id: 1 }).respond(200, { id: 1 });
    settle(t, acc.save());
  });

  it('save() POSTs an element created locally', () => {
    const t = ng();
    const el = t.Client.one('accounts');
    el.name = 'fresh';
    t.$httpBackend.expectPOST('/accounts', { name: 'fresh' }).respond(201, { id: 5, name: 'fresh' });
    const r = settle(t, el.save());
    expect(r.value.id).toBe(5);
    expect(r.value.fromServer).toBe(true);
  });

  it('one, all, several, oneUrl, allUrl build from the element', () => {
    const t = ng();
    const el = t.Client.one('a', 1);
    expect(el.one('b', 2).getClientUrl()).toBe('/a/1/b/2');
    expect(el.all('c').getClientUrl()).toBe('/a/1/c');
    expect(el.several('d', 1, 2).getClientUrl()).toBe('/a/1/d/1,2');
    expect(el.oneUrl('e', '/x').getClientUrl()).toBe('/x');
    expect(el.allUrl('f', '/y').getClientUrl()).toBe('/y');
  });

  it('getClientUrl() gives the URL of the object; with an argument, of a child path', () => {
    const t = ng((p) => p.setBaseUrl('/api'));
    expect(t.Client.one('a', 1).getClientUrl()).toBe('/api/a/1');
    expect(t.Client.one('a', 1).getClientUrl('sub')).toBe('/api/a/1/sub');
  });

  it('getRequestedUrl() of an element includes the query params used', () => {
    const t = ng();
    t.$httpBackend.expectGET('/a/1?x=1&y=2').respond(200, { id: 1 });
    const r = settle(t, t.Client.one('a', 1).get({ y: 2, x: 1 }));
    expect(r.value.getRequestedUrl()).toBe('/a/1?x=1&y=2');
    expect(r.value.one('b', 2).getRequestedUrl()).toBe('/a/1/b/2');
  });

  it('getParentList() returns the list an element came from', () => {
    const t = ng();
    t.$httpBackend.expectGET('/a').respond(200, [{ id: 1 }, { id: 2 }]);
    const list = settle(t, t.Client.all('a').getList()).value;
    expect(list[1].getParentList()).toBe(list);
    expect(t.Client.one('a', 1).getParentList()).toBeUndefined();
  });

  it('clone() is a deep copy whose methods refer to the copy', () => {
    const t = ng();
    t.$httpBackend.expectGET('/a/1').respond(200, { id: 1, tags: ['x'], name: 'n' }, { ETag: '"v1"' });
    const el = settle(t, t.Client.one('a', 1).get()).value;
    const c = el.clone();
    expect(c).not.toBe(el);
    expect(c.tags).not.toBe(el.tags);
    expect(c.plain()).toEqual(el.plain());
    expect(c.clientEtag).toBe('"v1"');
    c.name = 'changed';
    t.$httpBackend.expectPUT('/a/1', { id: 1, tags: ['x'], name: 'changed' }).respond(200, { id: 1 });
    settle(t, c.put());
    expect(el.name).toBe('n');
  });

  it('plain() is the data as received, without library fields or methods', () => {
    const t = ng();
    t.$httpBackend.expectGET('/a/1').respond(200, { id: 1, n: { deep: true } });
    const el = settle(t, t.Client.one('a', 1).get()).value;
    const p = el.plain();
    expect(p).toEqual({ id: 1, n: { deep: true } });
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
    expect((p as any).get).toBeUndefined();
  });

  it('withHttpConfig(httpConfig) applies to the next call only', () => {
    const t = ng();
    const seen = capture(t, 'GET', '/a/1', 200, { id: 1 });
    const el = t.Client.one('a', 1);
    const calls: any[] = [];
    settle(t, el.withHttpConfig({ headers: { ignored: 1 }, withCredentials: true, transformResponse: [(d: any) => (calls.push('custom'), json(d))] }).get());
    settle(t, el.get());
    expect(calls).toEqual(['custom']);
    expect(seen.length).toBe(2);
  });

  it('withHttpConfig returns the object itself for chaining', () => {
    const t = ng();
    const el = t.Client.one('a', 1);
    expect(el.withHttpConfig({ cache: false })).toBe(el);
  });

  it('JSON.stringify(element) holds the data only', () => {
    const t = ng();
    t.$httpBackend.expectGET('/a/1').respond(200, { id: 1, name: 'x' }, { ETag: 'W/"1"' });
    const el = settle(t, t.Client.one('a', 1).get()).value;
    el.withHttpConfig({ cache: true });
    expect(JSON.parse(JSON.stringify(el))).toEqual({ id: 1, name: 'x' });
    expect(Object.keys(el)).toEqual(['id', 'name']);
    for (const f of ['route', 'parentResource', 'clientCollection', 'clientEtag', 'fromServer', 'reqParams']) {
      expect(Object.prototype.propertyIsEnumerable.call(el, f)).toBe(false);
      expect(f in el).toBe(true);
    }
  });
});
