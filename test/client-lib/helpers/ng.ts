// Test helpers: a fresh injector with ng, ngMock and `client`, and a flush-and-collect helper.
import { afterEach } from 'vitest';
import '../../../client-lib/src/angular-entry';

export const angular: any = (window as any).angular;
export const ngVersion: string = angular.version.full;

let last: any = null;
// Every expectation a test set must have been met.
afterEach(() => {
  if (last) last.get('$httpBackend').verifyNoOutstandingExpectation();
  last = null;
});

export interface Ng {
  Client: any;
  $httpBackend: any;
  $rootScope: any;
  $q: any;
  $http: any;
  $timeout: any;
  $injector: any;
}

/**
 * A new injector. `configure(ClientProvider, $provide, $httpProvider)` runs in the config phase.
 */
export function ng(configure?: (ClientProvider: any, $provide: any, $httpProvider: any) => void): Ng {
  const modules: any[] = ['ng', 'ngMock', 'client'];
  modules.push([
    'ClientProvider',
    '$provide',
    '$httpProvider',
    '$qProvider',
    (ClientProvider: any, $provide: any, $httpProvider: any, $qProvider: any) => {
      // 1.6+: no "Possibly unhandled rejection" noise for promises a test leaves on purpose.
      if ($qProvider && $qProvider.errorOnUnhandledRejections) $qProvider.errorOnUnhandledRejections(false);
      if (configure) configure(ClientProvider, $provide, $httpProvider);
    },
  ]);
  const $injector = angular.injector(modules);
  last = $injector;
  return {
    Client: $injector.get('Client'),
    $httpBackend: $injector.get('$httpBackend'),
    $rootScope: $injector.get('$rootScope'),
    $q: $injector.get('$q'),
    $http: $injector.get('$http'),
    $timeout: $injector.get('$timeout'),
    $injector,
  };
}

/** Settle a promise through the mock backend: returns {value} or {error}. */
export function settle(t: Ng, promise: any): { value?: any; error?: any; done: boolean } {
  const out: { value?: any; error?: any; done: boolean } = { done: false };
  promise.then(
    (v: any) => {
      out.value = v;
      out.done = true;
    },
    (e: any) => {
      out.error = e;
      out.done = true;
    },
  );
  t.$httpBackend.flush();
  return out;
}

/** Record what reached $httpBackend for a method + URL, and answer. */
export function capture(t: Ng, method: string, url: string | RegExp, status = 200, body: any = {}, headers: any = {}) {
  const seen: Array<{ method: string; url: string; data: any; headers: any }> = [];
  t.$httpBackend.when(method, url).respond((m: string, u: string, data: any, h: any) => {
    seen.push({ method: m, url: u, data, headers: h });
    return [status, typeof body === 'function' ? body(m, u, data, h) : body, headers];
  });
  return seen;
}
