// withHttpConfig({ signal }) on AngularJS's $http (issue 23 item 3): an AbortSignal aborts the
// request as a `timeout` promise would, on AngularJS 1.5 and 1.8 (real $http, ngMock backend).
import { describe, it, expect } from 'vitest';
import { ng } from './helpers/ng';

const outcome = (p: any) => {
  const out: any = {};
  p.then((v: any) => (out.value = v), (e: any) => (out.error = e));
  return out;
};

describe('AbortSignal on the $http transport', () => {
  it('aborting the signal rejects the pending request with ABORTED, status -1', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users').respond(200, []);
    const ctrl = new AbortController();
    const r = outcome(t.Client.all('users').withHttpConfig({ signal: ctrl.signal }).getList());
    t.$rootScope.$apply();
    ctrl.abort();
    t.$rootScope.$apply();
    expect(r.value).toBeUndefined();
    expect([r.error.code, r.error.status]).toEqual(['ABORTED', -1]);
    expect(r.error.message).toBe('GET /users failed: aborted');
    expect(r.error.config.signal).toBe(ctrl.signal);
    t.$httpBackend.verifyNoOutstandingRequest();
  });

  it('an already aborted signal sends nothing and rejects with ABORTED', () => {
    const t = ng();
    const ctrl = new AbortController();
    ctrl.abort();
    const r = outcome(t.Client.one('users', 1).withHttpConfig({ signal: ctrl.signal }).get());
    t.$rootScope.$apply();
    expect(r.error.code).toBe('ABORTED');
    t.$httpBackend.verifyNoOutstandingRequest();
  });

  it('a signal aborted with a TimeoutError reason gives TIMEOUT', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users/1').respond(200, {});
    const ctrl = new AbortController();
    const r = outcome(t.Client.one('users', 1).withHttpConfig({ signal: ctrl.signal }).get());
    t.$rootScope.$apply();
    ctrl.abort(new DOMException('took too long', 'TimeoutError'));
    t.$rootScope.$apply();
    expect(r.error.code).toBe('TIMEOUT');
  });
});
