/**
 * URL helpers of the core and the transports. The rules live in the engine (one home):
 * `$http`'s param serializer, its buildUrl and Restangular's slash collapsing are in
 * engine/src/url/params.ts, bundled into the library (browser-safe).
 */
import { appendParams, collapseSlashes, encodeUriQuery, serializeParams, serializeParamsJQLike } from '../../../engine/src/url/params.js';
import { ClientError } from './errors.js';
import type { HttpConfig } from './http-types.js';

export { encodeUriQuery, serializeParams };

/** Collapse repeated slashes, keeping a leading `scheme://` or `//` (Restangular's normalizeUrl). */
export const normalizeUrl = collapseSlashes;

/**
 * The URL of `config` with its params, serialized as `$http` would with the config's
 * `paramSerializer`: a function is called with the params; the service names
 * `'$httpParamSerializer'` (the default) and `'$httpParamSerializerJQLike'` are AngularJS's
 * serializers (engine/src/url/params.ts). Used outside `$http` (the fetch transport, toCurl,
 * record), where no injector can give another service.
 * @throws ClientError `INVALID_PARAM_SERIALIZER` for another service name or value.
 */
export function buildUrl(config: HttpConfig): string {
  const url = String(config.url || '');
  const s = config.paramSerializer;
  if (s === undefined || s === null || s === '$httpParamSerializer') return appendParams(url, config.params);
  if (s === '$httpParamSerializerJQLike') return appendParams(url, config.params, serializeParamsJQLike);
  if (typeof s === 'function') return appendParams(url, config.params, s);
  const method = String(config.method || 'GET').toUpperCase();
  throw new ClientError(
    'INVALID_PARAM_SERIALIZER',
    `${method} ${url}: paramSerializer ${typeof s === 'string' ? `'${s}'` : `of type ${typeof s}`} cannot be used without AngularJS's injector; give a function, '$httpParamSerializer' or '$httpParamSerializerJQLike'`,
    { method, url },
  );
}
