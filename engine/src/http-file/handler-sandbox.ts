/**
 * Where `.http` scripts run (handlers.ts): a `node:vm` context inside a worker thread whose heap
 * is capped (`resourceLimits`), so a handler that allocates without bound (`for (;;)
 * a.push(new Array(1e6))`) is stopped at {@link HANDLER_MEMORY_MB} MiB, not when the process
 * has taken gigabytes (issue 36 item 10), and its failure says which limit it hit. The time
 * limit stays vm's `timeout` (synchronous code and its promise jobs). One worker serves the
 * scripts of the process in turn; one that ran out of memory is replaced for the next script.
 * The worker is `unref`'d: it never keeps a command alive.
 *
 * A script can also stay open (`openInSandbox`): its context is kept in the worker and fed
 * items later, each feed within the same time limit, until it is closed; that is how a
 * streamed response's events reach JetBrains' `response.body.onEachLine` / `onEachMessage`
 * while they arrive (handlers.ts, `openHandlers`). The worker knows nothing of HTTP: a feed is
 * a list of JSON items handed to the context's `__feed`, so any message source (an SSE or NDJSON
 * stream, a WebSocket's messages; a gRPC stream's later) subscribes the same way. What the script
 * sends back (its `__drain()`: a WebSocket handler's `output`) comes with the feed's answer, and
 * a close first runs its `__finish()` (the `onFinish` callbacks).
 */
import { Worker } from 'node:worker_threads';

/** The heap one script may use, in MiB (V8's old generation; the young one is 16 MiB more). */
export const HANDLER_MEMORY_MB = 64;

/** What a script run gives back. */
export interface SandboxResult {
  /** An open script's answer to a feed: what its `__feed` returned, or `failed` (it threw, timed out, or the worker stopped). */
  state?: string;
  /** An open script's answer to a feed: what it sends back to the message source (its `__drain()`, a JSON list of texts), in order. */
  sends?: string[];
  /** The script's `__out` as JSON, when it could be read. */
  out?: string;
  /** Why the script stopped: `client.exit()` (`exited`), an error or time-out (`message`). */
  error?: { exited: boolean; message: string };
}

// Plain JavaScript run with `eval: true` (a bundle has no file for the worker to load).
// Preludes are compiled once (`compiled`): every script of a run shares its prelude's text, its
// input comes as the context's `__input` string. A feed is one run of a script compiled once
// (`FEED`): the items arrive as JSON text, and what the script sends back comes in the same run
// (one vm time limit, one watchdog thread a feed instead of two); only a feed that failed asks
// `__drain` again on its own.
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const live = new Map();
const preludes = new Map();
const compiled = (text) => {
  let s = preludes.get(text);
  if (!s) {
    s = new vm.Script(text);
    if (preludes.size >= 8) preludes.delete(preludes.keys().next().value);
    preludes.set(text, s);
  }
  return s;
};
const FEED = new vm.Script('__feed(JSON.parse(__items)) + "\\\\n" + (typeof __drain === "function" ? __drain() : "[]")');
const DRAIN = new vm.Script('"" + (typeof __drain === "function" ? __drain() : "[]")');
// performance.now() and timeOrigin inside the context: a function made there, which calls the
// worker's clock and lets nothing of this realm out (no error of it, no object).
const CLOCK = new vm.Script('(now, origin) => Object.freeze({ now() { let t = NaN; try { t = +now(); } catch (_) { throw new Error("no clock"); } return t; }, timeOrigin: origin })');
const hostNow = () => performance.now();
const failure = (e) => {
  const exited = typeof e === 'object' && e !== null && e.exit === true && !(e instanceof Error);
  const message = e instanceof Error || (typeof e === 'object' && e !== null && 'message' in e) ? String(e.message) : String(e);
  return { exited, message };
};
const outOf = (context, timeoutMs) => {
  try {
    return vm.runInContext('JSON.stringify(__out)', context, { timeout: timeoutMs });
  } catch {}
};
parentPort.on('message', (m) => {
  if (m.type === 'compile') {
    try { compiled(m.prelude); } catch {}
    return;
  }
  if (m.type === 'feed') {
    const c = live.get(m.cid);
    let state = 'failed';
    let sends = [];
    if (c && !c.error) {
      let out;
      try {
        c.context.__items = m.items;
        out = String(FEED.runInContext(c.context, { timeout: c.timeoutMs }));
      } catch (e) {
        c.error = failure(e);
        // What the script sends back (a WebSocket handler's output), even when it failed after sending.
        try {
          out = '\\n' + DRAIN.runInContext(c.context, { timeout: c.timeoutMs });
        } catch {}
      }
      if (out !== undefined) {
        const nl = out.indexOf('\\n');
        if (!c.error) state = out.slice(0, nl);
        try {
          sends = JSON.parse(out.slice(nl + 1));
        } catch {}
      }
    }
    parentPort.postMessage({ id: m.id, state, sends });
    return;
  }
  if (m.type === 'close') {
    const c = live.get(m.cid);
    live.delete(m.cid);
    // The source has ended: the script's finish callbacks (its __finish), within the time limit.
    if (c && !c.error) {
      try {
        vm.runInContext('typeof __finish === "function" && __finish()', c.context, { timeout: c.timeoutMs });
      } catch (e) {
        c.error = failure(e);
      }
    }
    parentPort.postMessage(c ? { id: m.id, error: c.error, out: outOf(c.context, c.timeoutMs) } : { id: m.id, error: { exited: false, message: 'the script was not open' } });
    return;
  }
  const context = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
  // A feed sets __items from out here: a plain value the script cannot turn into a setter, which
  // would run outside the time limit.
  Object.defineProperty(context, '__items', { value: '', writable: true, configurable: false });
  let error;
  try {
    context.__input = m.input;
    context.performance = CLOCK.runInContext(context)(hostNow, performance.timeOrigin);
    compiled(m.prelude).runInContext(context, { timeout: m.timeoutMs });
    vm.runInContext('(() => {\\n' + m.source + '\\n})();', context, { timeout: m.timeoutMs, filename: m.filename, lineOffset: m.lineOffset });
  } catch (e) {
    error = failure(e);
  }
  if (m.type === 'open') {
    live.set(m.cid, { context, timeoutMs: m.timeoutMs, error });
    parentPort.postMessage({ id: m.id, state: error ? 'failed' : 'open' });
    return;
  }
  parentPort.postMessage({ id: m.id, error, out: outOf(context, m.timeoutMs) });
});
`;

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, (r: SandboxResult) => void>();

function theWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_CODE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: HANDLER_MEMORY_MB, maxYoungGenerationSizeMb: 16 } });
  const gone = (message: string) => {
    if (worker === w) worker = undefined;
    for (const done of pending.values()) done({ error: { exited: false, message } });
    pending.clear();
  };
  w.on('message', (m: { id: number } & SandboxResult) => {
    const done = pending.get(m.id);
    pending.delete(m.id);
    if (!pending.size) w.unref();
    done?.({ ...(m.out !== undefined ? { out: m.out } : {}), ...(m.error ? { error: m.error } : {}), ...(m.state !== undefined ? { state: m.state } : {}), ...(m.sends?.length ? { sends: m.sends } : {}) });
  });
  w.on('error', (e: Error & { code?: string }) =>
    gone(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the script used more than ${HANDLER_MEMORY_MB} MiB of memory (the script memory limit) and was stopped` : `the script's sandbox failed: ${e.message}`),
  );
  w.on('exit', () => gone('the script\'s sandbox stopped'));
  // After the listeners, which ref it again: a worker only warmed (`warmSandbox`) keeps no command alive.
  w.unref();
  worker = w;
  return w;
}

/** Where a script comes from, and its limit: vm's time limit for each part, in ms. */
export interface ScriptOptions {
  timeoutMs: number;
  filename: string;
  lineOffset: number;
  /** The context's `__input` (a string the prelude reads: handlers.ts's JSON), so that the prelude's text stays the same from script to script and is compiled once. */
  input?: string;
}

/**
 * Start the worker now, and compile `prelude` there, when a script will run soon: a request
 * with handlers starts it while it is in flight (session.ts), so a stream's first events do
 * not wait for the worker's start (about 60 ms on the 2-core test machine; docs/benchmarks.md,
 * "Streams"). The worker stays `unref`'d: it keeps no command alive.
 */
export function warmSandbox(prelude?: string): void {
  const w = theWorker();
  if (prelude !== undefined) w.postMessage({ type: 'compile', prelude });
}

/**
 * Run `prelude`, then `source` as a function body, in a fresh context of the sandbox worker;
 * the context has `performance.now()` and `performance.timeOrigin` (ms, fractional: the worker's
 * clock, as in browsers and Node) besides JavaScript's own globals.
 * @param o.timeoutMs vm's time limit for each part, in ms.
 * @returns the script's `__out` (JSON) and how it stopped; never rejects.
 */
export function runInSandbox(prelude: string, source: string, o: ScriptOptions): Promise<SandboxResult> {
  return ask({ type: 'run', prelude, source, ...o }, o.timeoutMs);
}

/** A script kept open in the sandbox (see the file comment). */
export interface OpenScript {
  /**
   * Hand `items` (JSON text of a list: the script's `__feed` gets it parsed) to the script;
   * resolves to what `__feed` returned (or `failed`) and what it sends back (`__drain`).
   */
  feed(items: string): Promise<{ state: string; sends: string[] }>;
  /** Run the script's `__finish` (when it has one), forget its context; its `__out` and how it stopped. */
  close(): Promise<SandboxResult>;
}

/**
 * Run `prelude` and `source` as {@link runInSandbox} does, and keep the context open for
 * {@link OpenScript.feed}. Resolves once the script ran (`failed`: it failed already).
 */
export async function openInSandbox(prelude: string, source: string, o: ScriptOptions): Promise<{ failed: boolean; script: OpenScript }> {
  const cid = nextId++;
  const opened = await ask({ type: 'open', cid, prelude, source, ...o }, o.timeoutMs);
  return {
    failed: opened.state !== 'open',
    script: {
      feed: async (items) => {
        const r = await ask({ type: 'feed', cid, items }, o.timeoutMs);
        return { state: r.state ?? 'failed', sends: r.sends ?? [] };
      },
      close: () => ask({ type: 'close', cid }, o.timeoutMs),
    },
  };
}

function ask(message: Record<string, unknown>, timeoutMs: number): Promise<SandboxResult> {
  const w = theWorker();
  const id = nextId++;
  const o = { timeoutMs };
  // Referenced while a script runs: the process waits for its answer.
  w.ref();
  return new Promise((resolve) => {
    // vm's timeout ends the script; this bound is for a worker that stopped answering at all.
    const bound = setTimeout(() => void w.terminate(), 2 * o.timeoutMs + 5000);
    pending.set(id, (r) => {
      clearTimeout(bound);
      resolve(r);
    });
    w.postMessage({ ...message, id });
  });
}

/** Whether the sandbox worker has been started (and not stopped): tests of when it starts. */
export function sandboxStarted(): boolean {
  return worker !== undefined;
}

/** Stop the sandbox worker (tests; a command's exit stops it anyway). */
export async function stopSandbox(): Promise<void> {
  const w = worker;
  worker = undefined;
  await w?.terminate();
}
