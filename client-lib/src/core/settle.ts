/**
 * The deferred of one request, made only when something holds it. Restangular hands each
 * request's deferred to the response and error interceptors (`deferred.resolve/reject`, or an
 * error interceptor that returns false and settles it later, after a retry). When none does,
 * the request's outcome goes back through the `then` of the transport's promise instead: no
 * `$q.defer()` per call (the one thing per call that client-lib made AngularJS do beyond
 * `$http(config).then(f)`; docs/benchmarks.md, "Client library", issue 23 item 6).
 */
import type { Deferred, Runtime } from './http-types.js';

const PENDING = 0;
export const RESOLVED = 1;
export const REJECTED = 2;

/**
 * A `Deferred` whose promise exists only once asked for (`promise`) or once the outcome must
 * travel as a promise (`outcome()`). Settling is first-wins, as with `$q`.
 */
export class LazyDeferred<T = any> implements Deferred<T> {
  private state = PENDING;
  private value: any;
  private real: Deferred<T> | undefined;
  // Made on first use: `.then(deferred.resolve)` works detached, as with $q's deferred.
  private boundResolve: ((value?: any) => void) | undefined;
  private boundReject: ((reason?: any) => void) | undefined;

  constructor(private readonly runtime: Runtime) {}

  get resolve(): (value?: T | PromiseLike<T>) => void {
    return (this.boundResolve ??= (value) => this.settle(RESOLVED, value));
  }

  get reject(): (reason?: any) => void {
    return (this.boundReject ??= (reason) => this.settle(REJECTED, reason));
  }

  get notify(): (value?: any) => void {
    const real = this.made();
    return (value) => {
      if (real.notify) real.notify(value);
    };
  }

  /** The promise, for whoever asks (an interceptor): from here on everything goes through it. */
  get promise(): PromiseLike<T> {
    return this.made().promise;
  }

  /** Resolve or reject (first wins); what the core calls. */
  settle(state: typeof RESOLVED | typeof REJECTED, value: any): void {
    if (this.real) {
      if (state === RESOLVED) this.real.resolve(value);
      else this.real.reject(value);
    } else if (this.state === PENDING) {
      this.state = state;
      this.value = value;
    }
  }

  /**
   * What a `then` callback returns for this request: the value when resolved, else a promise
   * (rejected, or pending until whoever holds the deferred settles it).
   */
  outcome(): any {
    if (!this.real && this.state === RESOLVED) return this.value;
    return this.made().promise;
  }

  private made(): Deferred<T> {
    if (!this.real) {
      const real = this.runtime.defer<T>();
      if (this.state === RESOLVED) real.resolve(this.value);
      else if (this.state === REJECTED) real.reject(this.value);
      this.real = real;
    }
    return this.real;
  }
}
