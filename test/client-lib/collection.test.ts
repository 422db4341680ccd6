// Collection methods: one row of the seed's "Collection methods" table per test.
import { describe, it, expect } from 'vitest';
import { ng, settle, capture } from './helpers/ng';

const json = (v: any) => (typeof v === 'string' ? JSON.parse(v) : v);

describe('collection methods', () => {
  it('getList([queryParams, headers]) GETs the collection', () => {
    const t = ng();
    const seen = capture(t, 'GET', '/users?active=true', 200, [{ id: 1 }, { id: 2 }]);
    const r = settle(t, t.Client.all('users').getList({ active: true }, { 'X-G': 'g' }));
    expect(seen[0].headers['X-G']).toBe('g');
    expect(Array.isArray(r.value)).toBe(true);
    expect(r.value.map((u: any) => u.id)).toEqual([1, 2]);
    expect(r.value.route).toBe('users');
    expect(JSON.stringify(r.value)).toBe('[{"id":1},{"id":2}]');
  });

  it('get(id) GETs <collection>/<id>', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users/7?x=1').respond(200, { id: 7 });
    const r = settle(t, t.Client.all('users').get(7, { x: 1 }));
    expect(r.value.id).toBe(7);
    expect(r.value.getClientUrl()).toBe('/users/7');
  });

  it('post(elementToPost, [queryParams, headers]) POSTs to the collection', () => {
    const t = ng();
    const seen = capture(t, 'POST', '/users?q=1', 201, { id: 4, name: 'n' });
    const r = settle(t, t.Client.all('users').post({ name: 'n' }, { q: 1 }, { 'X-Po': 'p' }));
    expect(json(seen[0].data)).toEqual({ name: 'n' });
    expect(seen[0].headers['X-Po']).toBe('p');
    expect(r.value.getClientUrl()).toBe('/users/4');
    expect(r.value.clientCollection).toBe(false);
  });

  it('post of an enhanced element sends its data only', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users/1').respond(200, { id: 1, name: 'a' }, { ETag: '"e"' });
    const u = settle(t, t.Client.one('users', 1).get()).value;
    const seen = capture(t, 'POST', '/copies', 201, { id: 2 });
    settle(t, t.Client.all('copies').post(u));
    expect(json(seen[0].data)).toEqual({ id: 1, name: 'a' });
  });

  it('head, trace, options on the collection', () => {
    const t = ng();
    const seen = ['HEAD', 'TRACE', 'OPTIONS'].map((m) => capture(t, m, '/users', 200, ''));
    const c = t.Client.all('users');
    settle(t, c.head());
    settle(t, c.trace());
    settle(t, c.options());
    expect(seen.map((s) => s.length)).toEqual([1, 1, 1]);
  });

  it('patch(object) on the collection', () => {
    const t = ng();
    t.$httpBackend.expectPATCH('/users', { all: true }).respond(200, { ok: 1 });
    settle(t, t.Client.all('users').patch({ all: true }));
  });

  it('remove() on the collection sends DELETE to the collection', () => {
    const t = ng();
    const seen = capture(t, 'DELETE', '/users', 204, '');
    settle(t, t.Client.all('users').remove());
    expect(json(seen[0].data)).toEqual({});
  });

  it('putElement(idx, params, headers) PUTs the element at idx and resolves with an updated copy of the array', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1, n: 'a' }, { id: 2, n: 'b' }]);
    const list = settle(t, t.Client.all('users').getList()).value;
    list[1].n = 'B';
    const seen = capture(t, 'PUT', '/users/2?p=1', 200, { id: 2, n: 'B!' });
    const promise = list.putElement(1, { p: 1 }, { 'X-Pe': 'e' });
    const r = settle(t, promise);
    expect(json(seen[0].data)).toEqual({ id: 2, n: 'B' });
    expect(seen[0].headers['X-Pe']).toBe('e');
    expect(r.value).not.toBe(list);
    expect(r.value[1].n).toBe('B!');
    expect(r.value[0].n).toBe('a');
    expect(promise.$object[1].n).toBe('B!');
    expect(r.value.clientCollection).toBe(true);
  });

  it('getClientUrl, getRequestedUrl, one, all, several, oneUrl, allUrl, clone, withHttpConfig on a collection', () => {
    const t = ng();
    const c = t.Client.all('users');
    expect(c.getClientUrl()).toBe('/users');
    expect(c.getRequestedUrl()).toBe('/users');
    expect(c.one('x', 1).getClientUrl()).toBe('/users/x/1');
    expect(c.all('y').getClientUrl()).toBe('/users/y');
    expect(c.several('z', 1, 2).getClientUrl()).toBe('/users/z/1,2');
    expect(c.oneUrl('o', '/o').getClientUrl()).toBe('/o');
    expect(c.allUrl('a', '/a').getClientUrl()).toBe('/a');
    expect(c.withHttpConfig({ cache: true })).toBe(c);
    c.push(t.Client.one('users', 3));
    const copy = c.clone();
    expect(copy).not.toBe(c);
    expect(copy.length).toBe(1);
    expect(copy[0].getClientUrl()).toBe('/users/3');
    expect(copy.getClientUrl()).toBe('/users');
  });

  it('getList of an empty 204 answer resolves with an empty collection', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users').respond(204, '');
    const r = settle(t, t.Client.all('users').getList());
    expect(r.value.length).toBe(0);
    expect(r.value.clientCollection).toBe(true);
  });

  it('getList of a non-array answer rejects with NOT_AN_ARRAY', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users').respond(200, { not: 'a list' });
    const r = settle(t, t.Client.all('users').getList());
    expect(r.error.code).toBe('NOT_AN_ARRAY');
    expect(r.error.name).toBe('ClientHttpError');
    expect(r.error.status).toBe(200);
    expect(r.error.data).toEqual({ not: 'a list' });
    expect(r.error.message).toContain('GET /users');
  });

  it('collection methods live on a shared prototype, not on each element', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users').respond(200, [{ id: 1 }, { id: 2 }]);
    const list = settle(t, t.Client.all('users').getList()).value;
    expect(Object.getOwnPropertyNames(list[0])).toEqual(['id']);
    expect(list[0].get).toBe(list[1].get);
    expect(Object.getPrototypeOf(list[0])).toBe(Object.getPrototypeOf(list[1]));
    expect(Object.prototype.hasOwnProperty.call(list, 'getList')).toBe(false);
    expect(list.getList).toBe(t.Client.all('other').getList);
  });
});
