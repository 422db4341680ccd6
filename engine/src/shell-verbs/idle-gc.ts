/**
 * Give memory back when the daemon goes idle. A big transfer leaves the V8 heap grown and
 * buffers waiting for a collection that an idle process never runs, so the daemon would sit
 * at its peak for its whole idle time (issue 10: back under 80 MB after the transfers). One
 * full collection a second after the last call ended costs a few ms, off any call's path; the
 * memory goes back to the system through glibc's trim of the C heap's top
 * (`MALLOC_TRIM_THRESHOLD_`, src/shell-verbs/main.ts) once the chunks are freed.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let found: { gc: (() => void) | undefined } | undefined;

/**
 * V8's `gc()`: the global one under --expose-gc, else enabled at run time (v8 flags), found
 * once per process (the run-time way makes a new VM context).
 */
function gcFunction(): (() => void) | undefined {
  found ??= { gc: findGc() };
  return found.gc;
}

function findGc(): (() => void) | undefined {
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

/**
 * A function to call whenever a call ends and none is in flight: one collection follows
 * {@link IDLE_GC_MS} after the last such call; `busy()` tells whether a call started meanwhile
 * (then it waits for the next idle moment). One timer per idle period, not per call: when it
 * fires early (calls ended since it was armed) it is armed again for what is left.
 */
export function idleCollector(busy: () => boolean): () => void {
  const gc = gcFunction();
  let timer: NodeJS.Timeout | undefined;
  let lastEnd = 0;
  /** Run `step` after `ms` unless a call is in flight; a call that ended since starts over. */
  const after = (ms: number, step: () => void) => {
    const armed = lastEnd;
    timer = setTimeout(() => {
      timer = undefined;
      if (busy()) return;
      const left = IDLE_GC_MS - (performance.now() - lastEnd);
      if (lastEnd !== armed && left > 1) after(left, collect);
      else step();
    }, ms);
    timer.unref();
  };
  const collect = () => {
    gc!();
    // Buffers' memory is released by V8's sweeper after a collection, and given back to
    // the C heap only at the next one.
    after(100, () => {
      gc!();
      releaseHeapTop();
      // The spill's buffers, freed by the next collections.
      after(100, () => {
        gc!();
        gc!();
      });
    });
  };
  return () => {
    if (!gc) return;
    lastEnd = performance.now();
    if (!timer) after(IDLE_GC_MS, collect);
  };
}

/** Calls that moved at least this many bytes collect before they end. */
export const BIG_CALL_BYTES = 128 * 1024 * 1024;

/**
 * After a big transfer, before its answer ends: collect now, twice (the second collection
 * finishes the sweep that frees the first one's buffers), so the chunks the transfer left are
 * given back by the time the caller has its answer. Some ms after a transfer of seconds.
 */
export function collectAfterBig(): void {
  const gc = gcFunction();
  if (!gc) return;
  gc();
  gc();
}

/** Bytes of Buffers (`process.memoryUsage().arrayBuffers`) past which a call in flight collects. */
export const BUFFER_PRESSURE_BYTES = 2 * 1024 * 1024;

/**
 * How often a call in flight looks at its Buffers, in ms: a 1 GB transfer frees its chunks
 * every 5 ms, a few MB each time, which the C heap keeps for the next ones (under
 * `MALLOC_TRIM_THRESHOLD_`); at 10 ms twice as much was freed at once, past the threshold, and
 * given back and faulted in again: 40-200 k page faults per GB (issue 21).
 */
export const PRESSURE_CHECK_MS = 5;

/**
 * While `busy()`, look every {@link PRESSURE_CHECK_MS} at the memory held by Buffers and run a
 * young-generation collection past {@link BUFFER_PRESSURE_BYTES}. A body streams in 64 KiB
 * chunks whose small wrappers die young, but V8 lets their memory (outside its heap) grow to
 * 64 MiB before it collects on its own: 30 MB and more over the idle size during a big
 * transfer (issue 21). A scavenge of the 2 MB young generation costs well under a millisecond.
 * Call `start` when a call starts and `stop` when none is in flight any more: the daemon then
 * does not wake 5 ms after every small call only to find it over (issue 36).
 */
export function pressureCollector(busy: () => boolean): { start: () => void; stop: () => void } {
  const gc = gcFunction() as ((o?: { type: 'minor' | 'major' }) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  const start = () => {
    if (!gc || timer) return;
    timer = setInterval(() => {
      if (!busy()) stop();
      else if (process.memoryUsage().arrayBuffers > BUFFER_PRESSURE_BYTES) gc({ type: 'minor' });
    }, PRESSURE_CHECK_MS);
    timer.unref();
  };
  return { start, stop };
}

/** Bytes {@link releaseHeapTop} allocates: more than `MALLOC_TRIM_THRESHOLD_` (src/shell-verbs/main.ts), in chunks under `MALLOC_MMAP_THRESHOLD_`. */
export const HEAP_SPILL_BYTES = 12 * 1536 * 1024;

/**
 * Make glibc give back the free top of its heap once the daemon is idle. glibc returns it only
 * when a free() leaves more than `MALLOC_TRIM_THRESHOLD_` free there (8 MiB here, so a transfer
 * in flight reuses its freed chunks instead of faulting fresh pages in: issue 21), and Node has
 * no `malloc_trim`. So: allocate {@link HEAP_SPILL_BYTES} in chunks the heap serves (never
 * touched, so never resident), past the free top, and drop them; when the next collections free
 * them the top is over the threshold and glibc trims it all. Measured: 66-67 MB idle against
 * 67-72 MB without (docs/shell.md, "Speed and memory (issue 21)").
 */
export function releaseHeapTop(): void {
  // Unreferenced as soon as made: only their backing stores matter, freed by the collector.
  for (let i = 0; i < 12; i++) Buffer.allocUnsafeSlow(HEAP_SPILL_BYTES / 12);
}
