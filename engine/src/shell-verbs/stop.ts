/**
 * `rest --stop` (docs/shell.md, "The engine daemon"): the daemon stops once the calls in flight
 * have ended, so another terminal's call is never cut by it, but at most `wait` seconds later
 * (then the calls still running are aborted and each says the daemon stopped under it, exit 8);
 * `rest --stop --force` stops it at once. Calls that start meanwhile are served as usual.
 *
 * The shell sends `POST /stop` with the urlencoded fields `force` (`1` or empty) and `wait`
 * (whole seconds, REST_STOP_WAIT, default {@link STOP_WAIT_SECONDS}); the daemon answers with
 * the number of calls in flight, which the shell says when it is not 0.
 */
import type { Field } from './multipart.js';
import { decodeArg } from './bytes.js';

/** How long a stop waits for the calls in flight by default, in seconds. */
export const STOP_WAIT_SECONDS = 30;

/** What a `POST /stop` asks for. */
export interface StopAsk {
  force: boolean;
  /** The bound on waiting for the calls in flight, in ms. */
  waitMs: number;
}

/** The fields of a `POST /stop` (a malformed or missing `wait`: {@link STOP_WAIT_SECONDS}; the shell checks it first). */
export function readStopAsk(fields: Field[]): StopAsk {
  let force = false;
  let wait = STOP_WAIT_SECONDS;
  for (const f of fields) {
    const v = decodeArg(f.data);
    if (f.name === 'force') force = v === '1';
    else if (f.name === 'wait' && /^\d{1,6}$/.test(v)) wait = Number(v);
  }
  return { force, waitMs: wait * 1000 };
}

/**
 * The daemon's pending stop: {@link ask} starts it (now when forced or nothing runs, else at
 * the first {@link settled} with no request active, or at the bound), `stop` does the rest.
 */
export class PendingStop {
  private timer: NodeJS.Timeout | undefined;
  private pending = false;

  constructor(private readonly stop: () => void) {}

  /** A stop was asked with `calls` calls in flight. */
  ask(a: StopAsk, calls: number): void {
    if (a.force || calls === 0) {
      this.fire();
      return;
    }
    this.pending = true;
    // A second `rest --stop` keeps the first one's bound.
    if (!this.timer) this.timer = setTimeout(() => this.fire(), a.waitMs);
  }

  /** A request ended, and `active` remain (the daemon's HTTP requests: calls and their follow-ups). */
  settled(active: number): void {
    if (this.pending && active === 0) this.fire();
  }

  private fire(): void {
    this.pending = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.stop();
  }
}
