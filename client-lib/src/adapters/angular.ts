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
    function ($http: any, $q: any): ClientService {
      // A call made outside a digest needs no $apply: $http (1.3+) chains on a $q promise,
      // whose resolution schedules a digest ($evalAsync -> $browser.defer).
      const runtime: Runtime = {
        http: (cfg) => $http(cfg),
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
