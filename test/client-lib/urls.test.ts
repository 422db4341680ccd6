// URL building: nested routes, parentless, suffix, base URL, id encoding, self links,
// cannonical ids, several, oneUrl/allUrl, getClientUrl/getRequestedUrl.
import { describe, it, expect } from 'vitest';
import { ng, settle, capture } from './helpers/ng';

describe('URL building', () => {
  it('one(route, id) points to /<route>/<id> and sends nothing until a request method', () => {
    const t = ng();
    const acc = t.Client.one('accounts', 123);
    expect(acc.getClientUrl()).toBe('/accounts/123');
    t.$httpBackend.verifyNoOutstandingRequest();
  });

  it('all(route) points to the list /<route>', () => {
    const t = ng();
    expect(t.Client.all('accounts').getClientUrl()).toBe('/accounts');
  });

  it('nested pointers chain /<r1>/<id1>/<r2>/<id2>/<r3> and GET goes there', () => {
    const t = ng();
    const list = t.Client.one('accounts', 1).one('buildings', 2).all('spaces');
    expect(list.getClientUrl()).toBe('/accounts/1/buildings/2/spaces');
    t.$httpBackend.expectGET('/accounts/1/buildings/2/spaces').respond(200, [{ id: 7 }]);
    const r = settle(t, list.getList());
    expect(r.value[0].getClientUrl()).toBe('/accounts/1/buildings/2/spaces/7');
  });

  it('setBaseUrl prefixes every URL, trailing slash dropped, absolute with port kept', () => {
    const t = ng((p) => p.setBaseUrl('http://api.example.org:8080/v1/'));
    expect(t.Client.configuration.baseUrl).toBe('http://api.example.org:8080/v1');
    t.$httpBackend.expectGET('http://api.example.org:8080/v1/accounts/1').respond(200, { id: 1 });
    settle(t, t.Client.one('accounts', 1).get());
  });

  it('relative base URL', () => {
    const t = ng((p) => p.setBaseUrl('/api/v1'));
    t.$httpBackend.expectGET('/api/v1/accounts').respond(200, []);
    settle(t, t.Client.all('accounts').getList());
  });

  it('setParentless(true) drops the parent path of every element', () => {
    const t = ng((p) => p.setParentless(true));
    t.$httpBackend.expectGET('/buildings/2').respond(200, { id: 2 });
    settle(t, t.Client.one('accounts', 1).one('buildings', 2).get());
  });

  it('setParentless([routes]) drops the parent path only for those routes', () => {
    const t = ng((p) => p.setParentless(['buildings']));
    expect(t.Client.one('accounts', 1).one('buildings', 2).getClientUrl()).toBe('/buildings/2');
    expect(t.Client.one('accounts', 1).one('users', 3).getClientUrl()).toBe('/accounts/1/users/3');
  });

  it('setRequestSuffix appends to request URLs (not to getClientUrl), once', () => {
    const t = ng((p) => p.setRequestSuffix('.json'));
    t.$httpBackend.expectGET('/accounts/1/buildings.json').respond(200, [{ id: 5 }]);
    const r = settle(t, t.Client.one('accounts', 1).getList('buildings'));
    t.$httpBackend.expectPUT('/accounts/1/buildings/5.json').respond(200, { id: 5 });
    settle(t, r.value[0].put());
    expect(t.Client.configuration.requestSuffix).toBe('.json');
    expect(t.Client.configuration.suffix).toBe('.json');
  });

  it('ids are URL-encoded by default', () => {
    const t = ng();
    t.$httpBackend.expectGET('/files/a%2Fb%20c').respond(200, {});
    settle(t, t.Client.one('files', 'a/b c').get());
  });

  it('setEncodeIds(false) sends ids raw', () => {
    const t = ng((p) => p.setEncodeIds(false));
    expect(t.Client.one('files', 'a/b').getClientUrl()).toBe('/files/a/b');
  });

  it('a relative self link is used as-is for requests on the element', () => {
    const t = ng();
    t.$httpBackend.expectGET('/accounts').respond(200, [{ id: 1, href: '/api/v2/accts/1' }]);
    const list = settle(t, t.Client.all('accounts').getList()).value;
    t.$httpBackend.expectPUT('/api/v2/accts/1').respond(200, {});
    settle(t, list[0].put());
  });

  it('an absolute self link is used for requests on the element and its children', () => {
    const t = ng((p) => p.setBaseUrl('/api'));
    const el = t.Client.clientizeElement(null, { id: 1, href: 'http://other.example/x/1' }, 'accounts', true);
    expect(el.getClientUrl()).toBe('http://other.example/x/1');
    t.$httpBackend.expectGET('http://other.example/x/1/buildings').respond(200, []);
    settle(t, el.getList('buildings'));
  });

  it('a dotted selfLink path is read from nested properties', () => {
    const t = ng((p) => p.setClientFields({ selfLink: '_links.self.href' }));
    const el = t.Client.clientizeElement(null, { id: 1, _links: { self: { href: '/hal/acc/1' } } }, 'accounts', true);
    t.$httpBackend.expectDELETE('/hal/acc/1').respond(204, '');
    settle(t, el.remove());
  });

  it('setSelfLinkAbsoluteUrl(false) appends a relative self link to the parent path', () => {
    const t = ng((p) => p.setSelfLinkAbsoluteUrl(false));
    const parent = t.Client.one('accounts', 1);
    const el = t.Client.clientizeElement(parent, { id: 9, href: 'b/9' }, 'buildings', true);
    expect(el.getClientUrl()).toBe('/accounts/1/b/9');
  });

  it('setUseCannonicalId(true) keeps using the id received from the server after the id changed', () => {
    const t = ng((p) => p.setUseCannonicalId(true));
    t.$httpBackend.expectGET('/users/5').respond(200, { id: 5, name: 'x' });
    const u = settle(t, t.Client.one('users', 5).get()).value;
    u.id = 6;
    t.$httpBackend.expectPUT('/users/5', { id: 6, name: 'x' }).respond(200, { id: 6, name: 'x' });
    const u2 = settle(t, u.put()).value;
    expect(u2.getClientUrl()).toBe('/users/6');
  });

  it('without cannonical ids the changed id is used', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users/5').respond(200, { id: 5 });
    const u = settle(t, t.Client.one('users', 5).get()).value;
    u.id = 6;
    t.$httpBackend.expectPUT('/users/6').respond(200, { id: 6 });
    settle(t, u.put());
  });

  it('several(route, ids...) points to /<route>/<id1>,<id2>,...', () => {
    const t = ng();
    const s = t.Client.several('accounts', 1, 2, 3);
    expect(s.getClientUrl()).toBe('/accounts/1,2,3');
    t.$httpBackend.expectGET('/accounts/1,2,3').respond(200, [{ id: 1 }, { id: 2 }, { id: 3 }]);
    const r = settle(t, s.getList());
    expect(r.value.length).toBe(3);
    expect(r.value[1].getClientUrl()).toBe('/accounts/2');
  });

  it('element.several nests under the element', () => {
    const t = ng();
    expect(t.Client.one('accounts', 1).several('users', 'a', 'b').getClientUrl()).toBe('/accounts/1/users/a,b');
  });

  it('oneUrl(route, url) / allUrl(route, url) point to the given URL', () => {
    const t = ng();
    t.$httpBackend.expectGET('http://x.example/me').respond(200, { id: 1 });
    settle(t, t.Client.oneUrl('me', 'http://x.example/me').get());
    t.$httpBackend.expectGET('http://x.example/all-of-them').respond(200, [{ id: 1 }]);
    settle(t, t.Client.allUrl('things', 'http://x.example/all-of-them').getList());
  });

  it('oneUrl/allUrl on an element', () => {
    const t = ng();
    expect(t.Client.one('a', 1).oneUrl('b', '/direct/b').getClientUrl()).toBe('/direct/b');
    expect(t.Client.one('a', 1).allUrl('c', '/direct/c').getClientUrl()).toBe('/direct/c');
  });

  it('getRequestedUrl equals getClientUrl before a request and includes the query params after', () => {
    const t = ng();
    const list = t.Client.all('accounts');
    expect(list.getRequestedUrl()).toBe(list.getClientUrl());
    t.$httpBackend.expectGET('/accounts?page=2&q=a+b').respond(200, [{ id: 1 }]);
    const r = settle(t, list.getList({ q: 'a b', page: 2 }));
    expect(r.value.getRequestedUrl()).toBe('/accounts?page=2&q=a+b');
    expect(r.value[0].getRequestedUrl()).toBe(r.value[0].getClientUrl());
    expect(r.value.one('x', 1).getRequestedUrl()).toBe('/accounts/x/1');
  });

  it('getRequestedUrl equals getClientUrl when no params were used', () => {
    const t = ng();
    t.$httpBackend.expectGET('/accounts/1').respond(200, { id: 1 });
    const r = settle(t, t.Client.one('accounts', 1).get());
    expect(r.value.getRequestedUrl()).toBe('/accounts/1');
  });

  it('one() with a number as route throws INVALID_ROUTE', () => {
    const t = ng();
    expect(() => t.Client.one(12)).toThrowError(expect.objectContaining({ code: 'INVALID_ROUTE' }));
    expect(() => t.Client.one()).toThrowError(expect.objectContaining({ code: 'INVALID_ROUTE' }));
  });

  it('capture helper sees query and headers of a nested request', () => {
    const t = ng();
    const seen = capture(t, 'GET', '/a/1/b?x=1', 200, []);
    settle(t, t.Client.one('a', 1).all('b').getList({ x: 1 }, { 'X-T': 'v' }));
    expect(seen[0].headers['X-T']).toBe('v');
  });
});
