/**
 * `sheet`'s stdout, written in batches (entry.ts): `sheet run` prints a line per request, and a
 * write per line was one system call per request (1,000 gRPC calls: ~24 ms of CPU, the largest of
 * the run's own steps left in its profile: docs/benchmarks.md, "grpc"). Text is kept and written
 * together at most `delayMs` later, at once when it reaches `maxChars`, before anything is
 * written to stderr (so the two keep their order on a terminal or in `2>&1`), and when the
 * process ends (`beforeExit`, `exit`: stdout to a file, pipe or terminal is written synchronously
 * there on Linux and macOS, as Node documents for process.stdout).
 */

/** A stdout that batches; `flush` writes what is kept now. */
export interface BatchedOut {
  /** Keep `s` for the next write (nothing once `closed()` says so). */
  out(s: string): void;
  /** Write what is kept, now. */
  flush(): void;
}

/**
 * @param write the real write (process.stdout.write).
 * @param closed true once stdout is gone (EPIPE): kept text is dropped, nothing more written.
 * @param delayMs longest a line waits, in milliseconds (a terminal still sees progress live).
 * @param maxChars kept text past this many characters is written at once.
 */
export function batchedOut(write: (s: string) => void, closed: () => boolean, delayMs = 16, maxChars = 64 * 1024): BatchedOut {
  let kept: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!kept.length) return;
    const s = kept.join('');
    kept = [];
    size = 0;
    if (!closed()) write(s);
  };
  process.on('beforeExit', flush);
  process.on('exit', flush);
  return {
    out(s) {
      if (closed()) return;
      kept.push(s);
      size += s.length;
      if (size >= maxChars) flush();
      // unref: a kept line never keeps the process alive; beforeExit and exit write it.
      else timer ??= setTimeout(flush, delayMs).unref();
    },
    flush,
  };
}
