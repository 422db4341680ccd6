/**
 * URL helpers of the core and the transports. The rules live in the engine (one home):
 * `$http`'s param serializer, its buildUrl and Restangular's slash collapsing are in
 * engine/src/url/params.ts, bundled into the library (browser-safe).
 */
import { appendParams, collapseSlashes, encodeUriQuery, serializeParams } from '../../../engine/src/url/params.js';

export { encodeUriQuery, serializeParams };

/** Collapse repeated slashes, keeping a leading `scheme://` or `//` (Restangular's normalizeUrl). */
export const normalizeUrl = collapseSlashes;

/** Append `$http`-serialized params to a URL. */
export const buildUrl = appendParams;
