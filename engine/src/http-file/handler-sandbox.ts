/**
 * Where `.http` scripts run (handlers.ts): a `node:vm` context inside a worker thread whose heap
 * is capped (`resourceLimits`), so a handler that allocates without bound (`for (;;)
 * a.push(new Array(1e6))`) is stopped at {@link HANDLER_MEMORY_MB} MiB, not when the process
 * has taken gigabytes (issue 36 item 10), and its failure says which limit it hit. The time
 * limit stays vm's `timeout` (synchronous code and its promise jobs). One worker serves the
 * scripts of the process in turn; one that ran out of memory is replaced for the next script.
 * The worker is `unref`'d: it never keeps a command alive.
 */
import { Worker } from 'node:worker_threads';

/** The heap one script may use, in MiB (V8's old generation; the young one is 16 MiB more). */
export const HANDLER_MEMORY_MB = 64;

/** What a script run gives back. */
export interface SandboxResult {
  /** The script's `__out` as JSON, when it could be read. */
  out?: string;
  /** Why the script stopped: `client.exit()` (`exited`), an error or time-out (`message`). */
  error?: { exited: boolean; message: string };
}

// Plain JavaScript run with `eval: true` (a bundle has no file for the worker to load).
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
parentPort.on('message', (m) => {
  const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
  let error;
  try {
    vm.runInContext(m.prelude, context, { timeout: m.timeoutMs });
    vm.runInContext('(() => {\\n' + m.source + '\\n})();', context, { timeout: m.timeoutMs, filename: m.filename, lineOffset: m.lineOffset });
  } catch (e) {
    const exited = typeof e === 'object' && e !== null && e.exit === true && !(e instanceof Error);
    const message = e instanceof Error || (typeof e === 'object' && e !== null && 'message' in e) ? String(e.message) : String(e);
    error = { exited, message };
  }
  let out;
  try {
    out = vm.runInContext('JSON.stringify(__out)', context, { timeout: m.timeoutMs });
  } catch {}
  parentPort.postMessage({ id: m.id, error, out });
});
`;

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, (r: SandboxResult) => void>();

function theWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_CODE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: HANDLER_MEMORY_MB, maxYoungGenerationSizeMb: 16 } });
  w.unref();
  const gone = (message: string) => {
    if (worker === w) worker = undefined;
    for (const done of pending.values()) done({ error: { exited: false, message } });
    pending.clear();
  };
  w.on('message', (m: { id: number } & SandboxResult) => {
    const done = pending.get(m.id);
    pending.delete(m.id);
    if (!pending.size) w.unref();
    done?.({ ...(m.out !== undefined ? { out: m.out } : {}), ...(m.error ? { error: m.error } : {}) });
  });
  w.on('error', (e: Error & { code?: string }) =>
    gone(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the script used more than ${HANDLER_MEMORY_MB} MiB of memory (the script memory limit) and was stopped` : `the script's sandbox failed: ${e.message}`),
  );
  w.on('exit', () => gone('the script\'s sandbox stopped'));
  worker = w;
  return w;
}

/**
 * Run `prelude`, then `source` as a function body, in a fresh context of the sandbox worker.
 * @param timeoutMs vm's time limit for each part, in ms.
 * @returns the script's `__out` (JSON) and how it stopped; never rejects.
 */
export function runInSandbox(prelude: string, source: string, o: { timeoutMs: number; filename: string; lineOffset: number }): Promise<SandboxResult> {
  const w = theWorker();
  const id = nextId++;
  // Referenced while a script runs: the process waits for its answer.
  w.ref();
  return new Promise((resolve) => {
    // vm's timeout ends the script; this bound is for a worker that stopped answering at all.
    const bound = setTimeout(() => void w.terminate(), 2 * o.timeoutMs + 5000);
    pending.set(id, (r) => {
      clearTimeout(bound);
      resolve(r);
    });
    w.postMessage({ id, prelude, source, ...o });
  });
}

/** Stop the sandbox worker (tests; a command's exit stops it anyway). */
export async function stopSandbox(): Promise<void> {
  const w = worker;
  worker = undefined;
  await w?.terminate();
}
