/**
 * The requests of the app as the engine sees them: `elem.toCurl(operation?)` (the curl command
 * of the request an operation would send, through engine/src/curl/to-curl.ts) and
 * `Client.record()` / `Client.stop()` (the requests sent meanwhile, as sheet text through
 * engine/src/sheet/write.ts, for sheet-mode or `sheet run`). Browser-safe.
 */
import { toCurl } from '../../../engine/src/curl/to-curl.js';
import { requestToSheet } from '../../../engine/src/sheet/write.js';
import type { Core } from './context.js';
import { ClientError } from './errors.js';
import { OPERATIONS, metaOf } from './meta.js';
import { toEngineRequest } from './request-model.js';
import type { HttpConfig, Runtime } from './types.js';

/** The open recordings, per runtime (so services made by `withConfig` record too). */
const recordings = new WeakMap<object, string[]>();

/** Add the request of `cfg` to the recording of `runtime`, if one runs (as text now: data may change later). */
export function recordRequest(runtime: Runtime, cfg: HttpConfig): void {
  const list = recordings.get(runtime);
  if (!list) return;
  let text: string;
  try {
    text = requestToSheet(toEngineRequest(cfg));
  } catch (e: any) {
    text = `# not recordable: ${String(cfg.method || 'GET').toUpperCase()} ${cfg.url}: ${e && e.message}`;
  }
  list.push(text);
}

/**
 * The curl command of the request `operation` on `self` would send now: default `getList` for
 * a collection, `get` for an element; else one of get, getList, post, put, remove, head,
 * options, patch, trace. Built by the core as the real call (URL, default params and headers,
 * interceptors, body), with the headers `$http` adds (Accept, Content-Type of a JSON body);
 * your `$http` interceptors are not run.
 * @throws ClientError `UNKNOWN_OPERATION` for another operation name.
 */
export function curlOf(c: Core, self: any, operation?: string): string {
  const m = metaOf(self);
  const op = operation === undefined ? (m && m.clientCollection ? 'getList' : 'get') : OPERATIONS[String(operation).toLowerCase()];
  if (!op || op === 'jsonp') {
    throw new ClientError('UNKNOWN_OPERATION', `toCurl(): unknown operation '${operation}' (one of get, getList, post, put, remove, head, options, patch, trace)`);
  }
  let taken: HttpConfig | undefined;
  c.capture = (cfg) => (taken = cfg);
  try {
    if (op === 'getList') c.fetchFunction(self, undefined, undefined, undefined);
    else c.elemFunction(self, op, undefined, undefined, undefined, undefined);
  } finally {
    c.capture = undefined;
  }
  if (!taken) throw new ClientError('REQUEST_FAILED', `toCurl(): the ${op} request was not built (a request interceptor stopped it)`);
  return toCurl(toEngineRequest(taken));
}

/** Start recording the requests sent through `runtime` (a running recording starts over). */
export function startRecording(runtime: Runtime): void {
  recordings.set(runtime, []);
}

/**
 * Stop recording; the requests sent since `record()`, as sheet text (request line, headers,
 * empty line, body, each request followed by a `#` line). A request a sheet cannot hold (a body
 * with a line starting with `#`, a FormData body) is written as a `#` comment saying so.
 * @returns '' when nothing was sent or no recording ran.
 */
export function stopRecording(runtime: Runtime): string {
  const list = recordings.get(runtime) || [];
  recordings.delete(runtime);
  return list.map((text) => text + '\n#\n').join('');
}
