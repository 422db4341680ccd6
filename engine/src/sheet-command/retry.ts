/**
 * `sheet run --retry N --retry-delay MS` (issue 26 item 4), after hurl's `--retry` and
 * `--retry-interval` (hurl.dev, "Manual", and the `[Options]` section's `retry`): a request
 * that fails by transport (connection refused, reset, timeout, TLS, unknown host, too many
 * redirects; not a Ctrl-C cancel) is sent again, up to N more times, waiting MS between tries
 * (default 1000 ms, hurl's default interval). Unlike hurl, a failed assertion is not retried:
 * an assertion marked retryable is not in the sheet format yet. A request that passed on a
 * retry is reported as flaky. Note that a retried POST may have reached the server before its
 * connection failed, as with hurl and curl's `--retry-all-errors`.
 */
import { isEngineError, type ErrorCode } from '../errors.js';

/**
 * Whether an error is worth another try: a transport failure (`transport`, runner.ts's
 * TRANSPORT_CODES) other than a cancel.
 */
export function retryable(e: unknown, transport: ReadonlySet<ErrorCode>): boolean {
  return isEngineError(e) && transport.has(e.code) && e.code !== 'cancelled';
}

/**
 * Run `send`, again after a transport failure, up to `o.retry` more times.
 * @param attempts told the number of the try about to be made (1, 2, ...).
 * @returns what `send` returned; @throws its last error.
 */
export async function withRetry<T>(
  send: () => Promise<T>,
  o: { retry?: number; retryDelayMs?: number; stop?: () => boolean; transport: ReadonlySet<ErrorCode> },
  attempts: (n: number) => void,
): Promise<T> {
  const max = 1 + Math.max(0, o.retry ?? 0);
  for (let n = 1; ; n++) {
    attempts(n);
    try {
      return await send();
    } catch (e) {
      if (n >= max || !retryable(e, o.transport) || o.stop?.()) throw e;
    }
    await new Promise((resolve) => setTimeout(resolve, o.retryDelayMs ?? 1000));
  }
}
