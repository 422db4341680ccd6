/**
 * `withHttpConfig({ signal })` on `$http`, which knows only a `timeout` (ms or a promise): the
 * request goes out with a `timeout` promise that resolves when the signal aborts, when the
 * given `timeout` promise resolves, or when the given `timeout` in ms elapses. The rejection
 * says which (`xhrStatus` `'abort'` or `'timeout'`, also on AngularJS 1.5, which has none) and
 * carries the caller's config, so `$http(error.config)` replays it as it was.
 */
import { onAbort, signalStatus } from '../core/abort.js';
import type { HttpConfig, HttpResponse } from '../core/types.js';

export function sendWithSignal($http: any, $q: any, cfg: HttpConfig, signal: AbortSignal): PromiseLike<HttpResponse> {
  const noAnswer = (xhrStatus: string): HttpResponse => ({ data: null, status: -1, statusText: '', headers: () => null, config: cfg, xhrStatus });
  if (signal.aborted) return $q.reject(noAnswer(signalStatus(signal)));
  const stop = $q.defer();
  let why: string | undefined;
  const end = (reason: string) => {
    why = why || reason;
    stop.resolve();
  };
  const ms = typeof cfg.timeout === 'number' && cfg.timeout > 0 ? cfg.timeout : 0;
  const timer = ms ? setTimeout(() => end('timeout'), ms) : undefined;
  const given: any = cfg.timeout && typeof (cfg.timeout as any).then === 'function' ? cfg.timeout : undefined;
  if (given) given.then(() => end('abort'));
  const stopListening = onAbort(signal, () => end(signalStatus(signal)));
  const done = () => {
    clearTimeout(timer);
    stopListening();
  };
  return $http(Object.assign({}, cfg, { timeout: stop.promise })).then(
    (response: HttpResponse) => {
      done();
      response.config = cfg;
      return response;
    },
    (response: any) => {
      done();
      if (response && typeof response === 'object' && !(response instanceof Error)) {
        response.config = cfg;
        if (why && response.status <= 0) response.xhrStatus = why;
      }
      return $q.reject(response);
    },
  );
}
