/**
 * `sheet run --retry N --retry-delay MS` (issue 26 item 4), after hurl's `--retry` and
 * `--retry-interval` (hurl.dev, "Manual", and the `[Options]` section's `retry`, which sends an
 * entry again until its asserts pass). A request is sent again, up to N more times, waiting MS
 * between tries (default 1000 ms, hurl's default interval), when
 * - it failed by transport (connection refused, reset, timeout, TLS, unknown host, too many
 *   redirects; not a Ctrl-C cancel), or
 * - an assertion marked retryable (`-> expect-status 200 retry`, hooks/expect.ts) failed:
 *   sent again until its retryable assertions pass or the tries run out.
 * - (issue 36 item 5) it got 429 Too Many Requests or 503 Service Unavailable: sent again after
 *   the server's `Retry-After` (at most {@link RETRY_AFTER_MAX_MS}), else after MS;
 * - (`.http` files) it is marked `# @retry` and any of its assertions failed (`# @retry N`: at
 *   most N retries for that request, over `--retry`).
 * A request whose method is not idempotent (RFC 9110 section 9.2.2: anything but GET, HEAD,
 * OPTIONS, TRACE, PUT, DELETE) is never sent again unless the user marked one of its assertions
 * retryable: a POST whose connection failed may have reached the server. A request that passed
 * on a retry is reported as flaky.
 */
import { isEngineError, type ErrorCode } from '../errors.js';
import { headerValue, type Header } from '../model.js';

/**
 * The statuses that say "try again later" (RFC 9110 section 15.6.4, 503; RFC 6585 section 4,
 * 429): under `--retry`, an idempotent (or marked) request that gets one is sent again, after
 * the server's `Retry-After` when it gives one (issue 36 item 5).
 */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** The longest `Retry-After` wait honoured, in ms; a longer one waits this long. */
export const RETRY_AFTER_MAX_MS = 60_000;

/**
 * A response's `Retry-After` (RFC 9110 section 10.2.3: delay-seconds or an HTTP-date) in ms,
 * at most {@link RETRY_AFTER_MAX_MS}; undefined when absent or unreadable.
 * @param now the current time, epoch ms.
 */
export function retryAfterMs(headers: Header[], now = Date.now()): number | undefined {
  const v = headerValue(headers, 'retry-after')?.trim();
  if (!v) return undefined;
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, RETRY_AFTER_MAX_MS);
}

/** The methods RFC 9110 (section 9.2.2) calls idempotent: safe to send again unasked. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/**
 * Whether an error is worth another try: a transport failure (`transport`, runner.ts's
 * TRANSPORT_CODES) other than a cancel.
 */
export function retryable(e: unknown, transport: ReadonlySet<ErrorCode>): boolean {
  return isEngineError(e) && transport.has(e.code) && e.code !== 'cancelled';
}

export interface RetryOptions<T> {
  /** `--retry N`: at most N more tries (default 0). */
  retry?: number;
  /** `--retry-delay MS`: the wait before each retry, in ms (default 1000). */
  retryDelayMs?: number;
  /** Polled before a retry: true stops (Ctrl-C, `--fail-fast`). */
  stop?: () => boolean;
  /** The error codes that are transport failures. */
  transport: ReadonlySet<ErrorCode>;
  /** Whether the request may be sent again at all: its method is idempotent or the user marked it. */
  resend: boolean;
  /** Whether an answer calls for another try (a retryable assertion failed); default never. */
  again?: (answer: T) => boolean;
  /** Called with an answer that is dropped for another try (to remove its body file). */
  drop?: (answer: T) => Promise<void>;
  /** The wait before the next try after this answer, in ms (a `Retry-After`); default `retryDelayMs`. */
  delay?: (answer: T) => number | undefined;
}

/**
 * Run `send`, again after a transport failure or an answer `o.again` rejects, up to `o.retry`
 * more times, when `o.resend` allows it.
 * @param attempts told the number of the try about to be made (1, 2, ...).
 * @returns what `send` returned last (an answer `again` still rejects once the tries run out);
 *   @throws its last error.
 */
export async function withRetry<T>(send: () => Promise<T>, o: RetryOptions<T>, attempts: (n: number) => void): Promise<T> {
  const max = o.resend ? 1 + Math.max(0, o.retry ?? 0) : 1;
  for (let n = 1; ; n++) {
    attempts(n);
    let wait = o.retryDelayMs ?? 1000;
    try {
      const answer = await send();
      if (n >= max || !o.again?.(answer) || o.stop?.()) return answer;
      wait = o.delay?.(answer) ?? wait;
      await o.drop?.(answer);
    } catch (e) {
      if (n >= max || !retryable(e, o.transport) || o.stop?.()) throw e;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
