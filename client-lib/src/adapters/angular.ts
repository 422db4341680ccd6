/**
 * The thin AngularJS 1.x adapter: module `client`, provider `ClientProvider`, service `Client`.
 * Requests go through `$http` (so the app's `$http` interceptors, defaults, `$httpBackend`
 * mocks and JSONP apply) and promises are `$q` promises.
 */
import { attachConfigurer, createConfiguration } from '../core/config.js';
import { createService } from '../core/client.js';
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
    '$rootScope',
    function ($http: any, $q: any, $rootScope: any): ClientService {
      // $http sends from a digest; a call made outside one (a setTimeout, a third-party
      // callback) would wait for the next digest, so schedule one (once per digest).
      let digestScheduled = false;
      const digestRan = () => {
        digestScheduled = false;
      };
      const runtime: Runtime = {
        http(cfg) {
          if (!digestScheduled && !$rootScope.$$phase) {
            digestScheduled = true;
            $rootScope.$evalAsync(digestRan);
          }
          return $http(cfg);
        },
        defer: () => $q.defer(),
      };
      return createService(config, runtime);
    },
  ];
}

/**
 * Register module `client` on the given `angular` (idempotent). Returns the module name.
 * @example registerClientModule(angular); angular.module('app', ['client']);
 */
export function registerClientModule(angular: AngularStatic): string {
  const ng: any = angular;
  if (ng.$$clientModuleRegistered) return MODULE_NAME;
  ng.module(MODULE_NAME, []).provider('Client', ClientProviderCtor);
  Object.defineProperty(ng, '$$clientModuleRegistered', { value: true, configurable: true });
  return MODULE_NAME;
}
