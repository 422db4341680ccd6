// What one request makes AngularJS do (issue 23 item 6): with no interceptor holding the
// request's deferred, `Client.one(...).get()` makes no more `$q` deferreds and `then`s than
// `$http(config).then(f)` does in the same injector; an error interceptor gets a deferred
// only when it runs. Counted by decorating `$q.defer` and the promise prototype's `then`.
import { describe, expect, it } from 'vitest';
import { ng } from './helpers/ng';

/** Count `$q.defer()` and promise `then` calls made while `fn` runs and the backend answers. */
function count(t: any, fn: () => void): { defer: number; then: number } {
  const out = { defer: 0, then: 0 };
  const proto = Object.getPrototypeOf(t.$q.defer().promise);
  const then = proto.then;
  const defer = t.$q.defer;
  proto.then = function (this: any, ...a: any[]) {
    out.then++;
    return then.apply(this, a);
  };
  t.$q.defer = function (this: any, ...a: any[]) {
    out.defer++;
    return defer.apply(this, a);
  };
  try {
    fn();
    t.$httpBackend.flush();
  } finally {
    proto.then = then;
    t.$q.defer = defer;
  }
  return out;
}

describe('per-call work on AngularJS', () => {
  it('one().get() makes as many $q deferreds and thens as $http(config).then(f) plus the caller’s then', () => {
    const t = ng();
    t.$httpBackend.whenGET('/accounts/1').respond(200, { id: 1 });
    let viaClient: any;
    let viaHttp: any;
    const client = count(t, () => t.Client.one('accounts', 1).get().then((v: any) => (viaClient = v)));
    const http = count(t, () => t.$http({ method: 'GET', url: '/accounts/1' }).then((r: any) => r.data).then((v: any) => (viaHttp = v)));
    expect(viaClient.id).toBe(1);
    expect(typeof viaClient.put).toBe('function');
    expect(viaHttp.id).toBe(1);
    expect(client).toEqual(http);
  });

  it('an error interceptor gets a deferred of its own (one more $q deferred, on the error path only)', () => {
    let got: any;
    const t = ng((p) => p.setErrorInterceptor((response: any, deferred: any) => ((got = deferred.promise), true)));
    t.$httpBackend.whenGET('/accounts/1').respond(404, '');
    t.$httpBackend.whenGET('/accounts/2').respond(200, { id: 2 });
    const failing = count(t, () => t.Client.one('accounts', 1).get().catch(() => undefined));
    const ok = count(t, () => t.Client.one('accounts', 2).get().catch(() => undefined));
    expect(typeof got.then).toBe('function');
    expect(failing.defer).toBe(ok.defer + 1);
  });
});
