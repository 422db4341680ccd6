/**
 * angular-client-rest: Restangular 1.6's surface under neutral names.
 *
 * - AngularJS: `registerClientModule(angular)` (done on import when a global `angular`
 *   exists), then depend on module `client` and inject `Client` / `ClientProvider`.
 * - Without AngularJS: `createClient({ fetch })`.
 */
import { registerClientModule } from './adapters/angular.js';

export { registerClientModule, MODULE_NAME } from './adapters/angular.js';
export type { AngularStatic, ClientProvider } from './adapters/angular.js';
export { createClient, fetchTransport, nativeDefer } from './adapters/fetch.js';
export type { CreateClientOptions } from './adapters/fetch.js';
export { createService } from './core/client.js';
export { createConfiguration, DEFAULT_FIELDS } from './core/config.js';
export { ClientError, ClientHttpError } from './core/errors.js';
export type { ClientErrorCode } from './core/errors.js';
export type {
  ClientBase,
  ClientCollection,
  ClientConfiguration,
  ClientConfigurer,
  ClientElement,
  ClientElementMethods,
  LooseFields,
  ClientFields,
  ClientPromise,
  ClientRouteService,
  ClientService,
  Deferred,
  ElementTransformer,
  ErrorInterceptor,
  FullRequest,
  FullRequestInterceptor,
  Headers,
  HttpConfig,
  HttpResponse,
  OnElemClientized,
  Operation,
  QueryParams,
  RequestInterceptor,
  ResponseInterceptor,
  Runtime,
} from './core/types.js';

const g: any = typeof globalThis !== 'undefined' ? globalThis : undefined;
if (g && g.angular && typeof g.angular.module === 'function') registerClientModule(g.angular);
