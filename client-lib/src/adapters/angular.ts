/**
 * The thin AngularJS 1.x adapter: module `client`, provider `ClientProvider`, service `Client`.
 * Requests go through `$http` (so the app's `$http` interceptors, defaults, `$httpBackend`
 * mocks and JSONP apply) and promises are `$q` promises.
 */
import { sendWithSignal } from './angular-signal.js';
import { attachConfigurer, createConfiguration } from '../core/config.js';
import { createService } from '../core/client.js';
import { BadResponse, ClientError } from '../core/errors.js';
import type { ClientConfigurer, ClientService, Runtime } from '../core/types.js';

/** The module name to depend on. */
export const MODULE_NAME = 'client';

/** The part of the `angular` global this adapter uses. */
export interface AngularStatic {
  module(name: string, requires?: string[]): any;
}

/** `ClientProvider`: the setters, usable in the config phase. */
export type ClientProvider = ClientConfigurer;

function ClientProviderCtor(this: any) {
  const config = createConfiguration();
  attachConfigurer(this, config);
  this.$get = [
    '$http',
    '$q',
    function ($http: any, $q: any): ClientService {
      // A call made outside a digest needs no $apply: $http (1.3+) chains on a $q promise,
      // whose resolution schedules a digest ($evalAsync -> $browser.defer).
      const transformResponse = badDataTransform($http);
      const runtime: Runtime = {
        http: (cfg) => {
          if (!cfg.transformResponse) cfg.transformResponse = transformResponse;
          return cfg.signal ? sendWithSignal($http, $q, cfg, cfg.signal) : $http(cfg);
        },
        defer: () => $q.defer(),
      };
      return createService(config, runtime);
    },
  ];
}

/**
 * `$http`'s default response transforms, except that a 2xx answer that does not parse as the
 * JSON it claims to be throws a {@link BadResponse}, which the core turns into a
 * ClientHttpError (BAD_RESPONSE, with status, URL and the first bytes of the body; the
 * $http:baddata error as `cause`); a non-2xx answer that does not parse keeps its text, so its
 * error stays HTTP_ERROR with the status. One function per injector, set on the configs that
 * have no transformResponse of their own.
 */
function badDataTransform($http: any) {
  return function transformResponse(data: any, headers?: any, status?: number) {
    const defaults = $http.defaults.transformResponse;
    const list: any[] = typeof defaults === 'function' ? [defaults] : defaults || [];
    let value = data;
    try {
      for (let i = 0; i < list.length; i++) value = list[i](value, headers, status);
    } catch (e: any) {
      if (status === undefined || status < 200 || status >= 300) return data;
      throw new BadResponse(data, status, headers, e);
    }
    return value;
  };
}

/**
 * Register module `client` on the given `angular` (idempotent). Returns the module name.
 * `angular-client-rest/angular` calls it on import with the `angular` it imports (so the
 * bundler runs angular first, whatever its chunks), as Restangular's UMD build does with
 * `require('angular')`.
 * @throws ClientError `NO_ANGULAR` when `angular` is not AngularJS's object (no `module`
 *   function): a registration that cannot happen says so instead of leaving `$injector:nomod`
 *   for later.
 * @example registerClientModule(angular); angular.module('app', ['client']);
 */
export function registerClientModule(angular: AngularStatic): string {
  const ng: any = angular;
  if (!ng || typeof ng.module !== 'function') {
    const got = ng === null ? 'null' : typeof ng === 'object' ? 'an object without module()' : typeof ng;
    throw new ClientError(
      'NO_ANGULAR',
      `module 'client' cannot be registered: expected AngularJS's angular object, got ${got}; load AngularJS first (import angular from 'angular', or its <script> before dist/client.js) and pass it to registerClientModule(angular)`,
    );
  }
  if (ng.$$clientModuleRegistered) return MODULE_NAME;
  ng.module(MODULE_NAME, []).provider('Client', ClientProviderCtor);
  Object.defineProperty(ng, '$$clientModuleRegistered', { value: true, configurable: true });
  return MODULE_NAME;
}
