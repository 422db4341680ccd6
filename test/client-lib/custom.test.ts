// Custom methods: customX / doX, customOperation, addClientMethod (argument orders, defaults).
import { describe, it, expect } from 'vitest';
import { ng, settle, capture } from './helpers/ng';

const json = (v: any) => (typeof v === 'string' ? JSON.parse(v) : v);

describe('custom methods', () => {
  for (const prefix of ['custom', 'do']) {
    it(`${prefix}GET(path, [params, headers]) GETs <current>/<path>`, () => {
      const t = ng();
      const seen = capture(t, 'GET', '/users/1/profile?full=1', 200, { bio: 'b' });
      const r = settle(t, t.Client.one('users', 1)[prefix + 'GET']('profile', { full: 1 }, { 'X-Cg': 'g' }));
      expect(seen[0].headers['X-Cg']).toBe('g');
      expect(r.value.bio).toBe('b');
    });

    it(`${prefix}GETLIST(path, [params, headers]) GETs an array`, () => {
      const t = ng();
      t.$httpBackend.expectGET('/users/1/friends?n=2').respond(200, [{ id: 5 }, { id: 6 }]);
      const r = settle(t, t.Client.one('users', 1)[prefix + 'GETLIST']('friends', { n: 2 }));
      expect(r.value.length).toBe(2);
      expect(r.value[0].getClientUrl()).toBe('/users/1/friends/5');
    });

    it(`${prefix}DELETE(path, [params, headers]) DELETEs <current>/<path>`, () => {
      const t = ng();
      const seen = capture(t, 'DELETE', '/users/1/session?all=1', 204, '');
      settle(t, t.Client.one('users', 1)[prefix + 'DELETE']('session', { all: 1 }, { 'X-Cd': 'd' }));
      expect(seen[0].headers['X-Cd']).toBe('d');
    });

    for (const m of ['POST', 'PUT', 'PATCH']) {
      it(`${prefix}${m}(elem, path, params, headers) sends ${m} with elem`, () => {
        const t = ng();
        const seen = capture(t, m, '/users/1/avatar?s=1', 200, { ok: true });
        settle(t, t.Client.one('users', 1)[prefix + m]({ url: 'u' }, 'avatar', { s: 1 }, { 'X-Cm': 'm' }));
        expect(json(seen[0].data)).toEqual({ url: 'u' });
        expect(seen[0].headers['X-Cm']).toBe('m');
      });
    }
  }

  it('customPOST() without elem sends the calling object', () => {
    const t = ng();
    const el = t.Client.one('users', 1);
    el.name = 'self';
    t.$httpBackend.expectPOST('/users/1', { id: 1, name: 'self' }).respond(200, {});
    settle(t, el.customPOST());
  });

  it('customPUT(undefined, path) sends the calling object to the path', () => {
    const t = ng();
    const el = t.Client.one('users', 1);
    t.$httpBackend.expectPUT('/users/1/x', { id: 1 }).respond(200, {});
    settle(t, el.customPUT(undefined, 'x'));
  });

  it('file upload: customPOST(formData, undefined, undefined, {Content-Type: undefined}) with transformRequest identity', () => {
    const t = ng();
    const fd = new (window as any).FormData();
    fd.append('f', 'content');
    const seen = capture(t, 'POST', '/users/1', 200, {});
    const el = t.Client.one('users', 1).withHttpConfig({ transformRequest: (d: any) => d });
    settle(t, el.customPOST(fd, undefined, undefined, { 'Content-Type': undefined }));
    expect(seen[0].data).toBe(fd);
    expect('Content-Type' in seen[0].headers && seen[0].headers['Content-Type'] !== undefined).toBe(false);
  });

  for (const [op, method] of [
    ['get', 'GET'],
    ['post', 'POST'],
    ['put', 'PUT'],
    ['remove', 'DELETE'],
    ['head', 'HEAD'],
    ['options', 'OPTIONS'],
    ['patch', 'PATCH'],
    ['trace', 'TRACE'],
  ]) {
    it(`customOperation('${op}', path, params, headers, elem) sends ${method}`, () => {
      const t = ng();
      const seen = capture(t, method, '/users/1/op?k=v', 200, {});
      settle(t, t.Client.one('users', 1).customOperation(op, 'op', { k: 'v' }, { 'X-Op': op }, { body: 1 }));
      expect(seen.length).toBe(1);
      expect(seen[0].headers['X-Op']).toBe(op);
      if (['post', 'put', 'patch'].includes(op)) expect(json(seen[0].data)).toEqual({ body: 1 });
    });
  }

  it('customOperation with an unknown operation throws UNKNOWN_OPERATION', () => {
    const t = ng();
    expect(() => t.Client.one('u', 1).customOperation('fly', 'x')).toThrowError(expect.objectContaining({ code: 'UNKNOWN_OPERATION' }));
  });

  it('addClientMethod for a safe operation: method(params, headers, elem) with defaults', () => {
    const t = ng();
    const el = t.Client.one('users', 1);
    el.addClientMethod('stats', 'get', 'stats', { period: 'day' }, { 'X-Def': 'd' });
    const seen = capture(t, 'GET', /\/users\/1\/stats.*/, 200, { n: 1 });
    settle(t, el.stats());
    settle(t, el.stats({ period: 'week' }, { 'X-Def': 'over' }));
    expect(seen[0].url).toBe('/users/1/stats?period=day');
    expect(seen[0].headers['X-Def']).toBe('d');
    expect(seen[1].url).toBe('/users/1/stats?period=week');
    expect(seen[1].headers['X-Def']).toBe('over');
    expect(Object.keys(el)).toEqual(['id']);
  });

  it('addClientMethod for an unsafe operation: method(elem, params, headers) with defaults', () => {
    const t = ng();
    const el = t.Client.one('users', 1);
    el.addClientMethod('login', 'post', 'login', { remember: 1 }, undefined, { user: 'default' });
    const seen = capture(t, 'POST', /\/users\/1\/login.*/, 200, { token: 't' });
    settle(t, el.login());
    settle(t, el.login({ user: 'x' }, { remember: 0 }, { 'X-U': 'u' }));
    expect(json(seen[0].data)).toEqual({ user: 'default' });
    expect(seen[0].url).toBe('/users/1/login?remember=1');
    expect(json(seen[1].data)).toEqual({ user: 'x' });
    expect(seen[1].url).toBe('/users/1/login?remember=0');
    expect(seen[1].headers['X-U']).toBe('u');
  });

  it('addClientMethod with getList resolves a collection', () => {
    const t = ng();
    const c = t.Client.all('users');
    c.addClientMethod('active', 'getList', 'active');
    t.$httpBackend.expectGET('/users/active').respond(200, [{ id: 1 }]);
    const r = settle(t, c.active());
    expect(r.value.clientCollection).toBe(true);
  });

  it('addClientMethod on the result of a transformer (extendModel)', () => {
    const t = ng((p) =>
      p.extendModel('users', (u: any) => {
        u.addClientMethod('ban', 'put', 'ban');
        return u;
      }),
    );
    t.$httpBackend.expectGET('/users/1').respond(200, { id: 1 });
    const u = settle(t, t.Client.one('users', 1).get()).value;
    t.$httpBackend.expectPUT('/users/1/ban', { reason: 'r' }).respond(200, {});
    settle(t, u.ban({ reason: 'r' }));
  });
});
