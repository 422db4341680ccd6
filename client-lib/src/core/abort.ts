/**
 * `AbortSignal` support shared by the transports (`withHttpConfig({ signal })`): what an
 * aborted signal means for the rejection (`xhrStatus` `'abort'`, or `'timeout'` when the reason
 * is a `TimeoutError`, as `AbortSignal.timeout(ms)` gives), and the reason the fetch transport
 * aborts with when its own `timeout` in ms elapses.
 */

/** The `xhrStatus` of a request ended by `signal`: `'timeout'` for a TimeoutError reason, else `'abort'`. */
export function signalStatus(signal: AbortSignal): 'abort' | 'timeout' {
  const reason: any = (signal as any).reason;
  return reason && reason.name === 'TimeoutError' ? 'timeout' : 'abort';
}

/** A `TimeoutError` (a DOMException where there is one), the reason a request aborted by its `timeout` carries. */
export function timeoutReason(ms: number): Error {
  const message = `no complete response within ${ms} ms`;
  if (typeof DOMException === 'function') return new DOMException(message, 'TimeoutError');
  const e = new Error(message);
  e.name = 'TimeoutError';
  return e;
}

/** Run `onAbort` once when `signal` aborts; returns the function that stops listening. */
export function onAbort(signal: AbortSignal | undefined, run: () => void): () => void {
  if (!signal || typeof signal.addEventListener !== 'function') return () => {};
  signal.addEventListener('abort', run, { once: true } as any);
  return () => signal.removeEventListener('abort', run);
}
