/**
 * One call's scope for errors nobody awaited: an exception a library throws from an event
 * handler (a socket's `end`, a timer) or a promise rejection nobody handles, while one call is
 * running, ends that call alone with an `internal-error`; the process (the shell verbs'
 * daemon, the JSON-RPC engine Emacs talks to, `sheet run`) keeps serving the others
 * (docs/reliability.md, "Containment").
 *
 * Built on `AsyncLocalStorage`: Node runs `uncaughtException` and `unhandledRejection`
 * listeners in the async context of the code that threw, so the listener finds the call. An
 * error thrown in a context that belongs to no call (or to a call that has already ended) is
 * written to stderr and otherwise ignored. A caller that runs one call at a time (`sheet run`
 * with one worker) says so (`alone`): then the call is simply the one running, and no
 * `AsyncLocalStorage` is entered, whose promise hooks every promise and tick of the process
 * pays while it is on (issue 41's benchmark: ~0.3 s of CPU in 1,000 gRPC calls).
 *
 * Node's manual warns that a process is not guaranteed to be in a sound state after an
 * uncaught exception; the alternative here, ending every call in flight for one response's
 * fault, is what users reported as the daemon dying (issues 21 and 30).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EngineError } from './errors.js';

interface Scope {
  /** Ends the call with `e` (once; later errors of the same call are only logged). */
  fail(e: unknown): void;
  ended: boolean;
}

const storage = new AsyncLocalStorage<Scope>();
let installed = false;
/** The call running alone (withCallScope's `alone`), while it runs. */
let sole: Scope | undefined;

/** Message for an error that escaped its call: what it was and that only this call ended. */
function strayError(e: unknown): EngineError {
  const what = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).replace(/\s+/g, ' ').trim().slice(0, 200);
  return new EngineError('internal-error', `internal error in the engine (${what}); this request was ended, other requests go on`, {
    hint: 'This is a bug in the engine or a library it uses: please report it with the engine log (stderr), which has the stack.',
    cause: e,
  });
}

/**
 * Install, once per process, the `uncaughtException` and `unhandledRejection` listeners that
 * end the call an error belongs to (see {@link withCallScope}).
 * @param label prefix of the stderr log line (`rest engine daemon`, `engine`, `sheet`).
 * @param logCallErrors false where stderr is the user's terminal and the call prints its own
 *   one-line message (the shell verbs' direct mode): then only errors outside a call are logged.
 */
export function containStrayErrors(label: string, logCallErrors = true): void {
  if (installed) return;
  installed = true;
  const onError = (e: unknown) => {
    const scope = storage.getStore() ?? sole;
    const stack = e instanceof Error ? (e.stack ?? e.message) : String(e);
    const where = scope && !scope.ended ? 'one request ended' : 'outside any request, ignored';
    try {
      if (logCallErrors || !scope || scope.ended) process.stderr.write(`${label}: internal error (${where}): ${stack}\n`);
    } catch {
      /* stderr gone: nothing more to say */
    }
    if (scope && !scope.ended) scope.fail(e);
  };
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
}

/**
 * Run one call in its own scope.
 * @param fn the call; it receives a signal that aborts when `outer` aborts or when an error
 *   escapes the call (then its upstream request is cancelled).
 * @param outer the caller's signal (a caller that went away, `$/cancelRequest`).
 * @param o.alone the caller runs no other call until this one ends (`sheet run` with one
 *   worker): an error that escapes while it runs is this call's, whichever code threw it (with
 *   `AsyncLocalStorage`, one thrown by a pooled socket an earlier call opened was that ended
 *   call's, and ignored), and no `AsyncLocalStorage` is entered (see above). Never give it
 *   where calls overlap: a call beside it would take its errors, or it theirs.
 * @returns what `fn` returns.
 * @throws what `fn` throws, or an EngineError `internal-error` as soon as an error escapes the
 *   call through an event handler or an unhandled rejection (needs {@link containStrayErrors}).
 */
export async function withCallScope<T>(fn: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal, o: { alone?: boolean } = {}): Promise<T> {
  const ac = new AbortController();
  const onOuter = () => ac.abort(outer?.reason);
  if (outer?.aborted) ac.abort(outer.reason);
  else outer?.addEventListener('abort', onOuter, { once: true });
  let reject: (e: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, r) => (reject = r));
  const scope: Scope = {
    ended: false,
    fail(e) {
      scope.ended = true;
      const err = strayError(e);
      ac.abort(err);
      reject(err);
    },
  };
  try {
    if (!o.alone) return await Promise.race([storage.run(scope, () => fn(ac.signal)), failed]);
    sole = scope;
    return await Promise.race([fn(ac.signal), failed]);
  } finally {
    scope.ended = true;
    if (sole === scope) sole = undefined;
    outer?.removeEventListener('abort', onOuter);
  }
}
