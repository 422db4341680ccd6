/**
 * Give memory back when the daemon goes idle. A big transfer leaves the V8 heap grown and
 * buffers waiting for a collection that an idle process never runs, so the daemon would sit
 * at its peak for its whole idle time (issue 10: back under 80 MB after the transfers). One
 * full collection a second after the last call ended costs a few ms, off any call's path.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/** V8's `gc()`: the global one under --expose-gc, else enabled at run time (v8 flags). */
function gcFunction(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

/** Delay between the end of the last call and the collection, in ms. */
export const IDLE_GC_MS = 1000;

/** While calls are in flight, a young-generation collection this often (ms): see {@link busyCollector}. */
export const BUSY_GC_MS = 20;

/**
 * Bound the memory of bodies passing through. Every chunk read from a socket is a new buffer
 * whose memory lives outside the V8 heap; V8 lets such memory reach tens of MB before it
 * collects on its own, which is most of the daemon's peak during a transfer. A scavenge of the
 * small young generation every {@link BUSY_GC_MS} ms while calls are in flight frees the
 * chunks already passed on, for well under a ms each.
 * @returns `start` (a call began) and `stop` (a call ended), counted.
 */
export function busyCollector(): { start: () => void; stop: () => void } {
  const gc = gcFunction() as ((o?: { type: 'minor' | 'major' }) => void) | undefined;
  let n = 0;
  let timer: NodeJS.Timeout | undefined;
  return {
    start: () => {
      if (!gc || n++ > 0) return;
      timer = setInterval(() => gc({ type: 'minor' }), BUSY_GC_MS);
      timer.unref();
    },
    stop: () => {
      if (!gc || --n > 0) return;
      n = 0;
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

/**
 * A function to call whenever a call ends and none is in flight: it (re)arms one collection
 * after {@link IDLE_GC_MS}; `busy()` tells whether a call started meanwhile (then it waits
 * for the next idle moment).
 */
export function idleCollector(busy: () => boolean): () => void {
  const gc = gcFunction();
  let timer: NodeJS.Timeout | undefined;
  return () => {
    if (!gc) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!busy()) gc();
    }, IDLE_GC_MS);
    timer.unref();
  };
}
