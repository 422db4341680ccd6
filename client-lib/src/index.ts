/**
 * angular-client-rest: Restangular 1.6's surface under neutral names. This entry has no side
 * effects (bundlers may drop what is not imported).
 *
 * - AngularJS: `registerClientModule(angular)`, or import `angular-client-rest/angular`, which
 *   does it on import; then depend on module `client` and inject `Client` / `ClientProvider`.
 * - Without AngularJS: `createClient({ baseUrl })`.
 */
export { registerClientModule, MODULE_NAME } from './adapters/angular.js';
export type { AngularStatic, ClientProvider } from './adapters/angular.js';
export { createClient, fetchTransport, nativeDefer } from './adapters/fetch.js';
export type { CreateClientOptions } from './adapters/fetch.js';
export { createService } from './core/client.js';
export { createConfiguration, DEFAULT_FIELDS } from './core/config.js';
export { ClientError, ClientHttpError } from './core/errors.js';
export type { ClientErrorCode } from './core/errors.js';
export type {
  BinaryCalls,
  ClientBase,
  ClientCollection,
  ClientConfiguration,
  ClientConfigurer,
  ClientElement,
  ClientElementMethods,
  LooseFields,
  ClientFields,
  ChainPromise,
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
  PostBody,
  Operation,
  QueryParams,
  RequestInterceptor,
  ResponseInterceptor,
  Runtime,
} from './core/types.js';
