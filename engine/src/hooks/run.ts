/**
 * After-response hooks (sheet format doc, "Hooks"):
 * - `-> jq-set-var :name <jq expression>` runs jq (node-jq, the system jq) on the response
 *   body and sets the override `:name` to the raw output, as `jq -r` prints it;
 * - `-> run-hook (<lisp form>)` is handed back to Emacs, which evaluates it in the response buffer;
 * - any other hook name is a warning naming it; the request has run anyway.
 * A hook's failure never loses the response: it becomes a warning with its line.
 */
import childProcess, { type ChildProcess } from 'node:child_process';
import type { HookNode } from '../sheet/ast.js';
import type { HookResults } from './results.js';
import { runJqServer } from './jq-server.js';
import { which } from '../which.js';
import { EXPECT_TYPES, evaluateExpect, isExpectHook, type ExpectContext } from './expect.js';

/** The hook types the engine knows, for C-c C-i. */
export const HOOK_TYPES = [
  { name: 'jq-set-var', args: ':name <jq expression>', doc: 'Set :name to the jq expression\'s raw output (jq -r) on the response body.' },
  { name: 'run-hook', args: '(<lisp form>)', doc: 'Evaluate the Lisp form in the response buffer (Emacs only).' },
  ...EXPECT_TYPES,
];

let jqModule: typeof import('node-jq') | undefined;

/** The system jq's absolute path: node-jq starts it with an empty environment (no PATH). */
function systemJq(): string {
  return which('jq') ?? 'jq';
}

async function jq(): Promise<typeof import('node-jq')> {
  if (!jqModule) {
    // node-jq reads JQ_PATH when loaded: point it at the system jq unless the user chose one.
    if (!process.env.JQ_PATH) process.env.JQ_PATH = systemJq();
    jqModule = await import('node-jq');
  }
  return jqModule;
}

/** How long one jq run may take, in ms, before it counts as failed (and jq is killed). */
export const JQ_TIMEOUT_MS = 10_000;
/** The most output, in bytes, one jq run may print before it counts as failed (and is killed). */
export const JQ_MAX_OUTPUT = 16 * 1024 * 1024;

/**
 * Call `fn`, keeping the first child process it spawns. node-jq starts jq synchronously inside
 * `run()` and does not expose the process; the engine needs it to stop a jq that runs for
 * ever (`repeat(1)`, `def f: f; f`), which would otherwise outlive the request and grow
 * without bound.
 */
function withSpawnCaptured<T>(fn: () => T): { result: T; child: ChildProcess | undefined } {
  const original = childProcess.spawn;
  let child: ChildProcess | undefined;
  const patched = function (this: unknown, ...args: unknown[]): ChildProcess {
    const c = (original as unknown as (...a: unknown[]) => ChildProcess).apply(this, args);
    child ??= c;
    return c;
  };
  childProcess.spawn = patched as unknown as typeof childProcess.spawn;
  try {
    return { result: fn(), child };
  } finally {
    childProcess.spawn = original;
  }
}

/**
 * Run jq `filter` on `input` (JSON text) and return the raw output (as `jq -r` prints it;
 * objects and arrays compact) without its final newline.
 * @param timeoutMs limit in ms (default {@link JQ_TIMEOUT_MS}); jq is killed when it is reached.
 * @throws Error with jq's message when jq fails (bad filter, input not JSON, jq missing), when
 *   the input is empty, when jq runs longer than `timeoutMs` or prints more than
 *   {@link JQ_MAX_OUTPUT} bytes.
 */
export async function runJq(filter: string, input: string, timeoutMs = JQ_TIMEOUT_MS): Promise<string> {
  // node-jq never closes jq's stdin for an empty input, and jq would wait for ever.
  if (!input.trim()) throw new Error('the response body is empty, not JSON');
  const mod = await jq();
  // The filter's long-lived jq when it applies (hooks/jq-server.ts); else one run below.
  const fast = await runJqServer(process.env.JQ_PATH!, filter, input, timeoutMs, JQ_MAX_OUTPUT);
  if (fast !== undefined) return fast;
  let timer: NodeJS.Timeout | undefined;
  let failure: Error | undefined;
  const { result, child } = withSpawnCaptured(() => mod.run(filter, input, { input: 'string', output: 'string', raw: true }));
  const stop = new Promise<never>((_, reject) => {
    const fail = (e: Error) => {
      failure ??= e;
      child?.kill('SIGKILL');
      reject(failure);
    };
    timer = setTimeout(() => fail(new Error(`jq did not finish within ${timeoutMs} ms`)), timeoutMs);
    let bytes = 0;
    child?.stdout?.on('data', (d: Buffer | string) => {
      bytes += d.length;
      if (bytes > JQ_MAX_OUTPUT) fail(new Error(`jq printed more than ${JQ_MAX_OUTPUT} bytes`));
    });
  });
  stop.catch(() => undefined);
  // jq may exit (syntax error) before node-jq has written the input: node-jq then rejects with
  // EPIPE, and jq's own message is only on its stderr.
  let stderr = '';
  child?.stderr?.on('data', (d: Buffer | string) => (stderr += d.toString()));
  const closed = new Promise<void>((done) => (child && child.exitCode === null ? child.once('close', () => done()) : done()));
  try {
    const out = await Promise.race([result, stop]);
    return typeof out === 'string' ? out : JSON.stringify(out);
  } catch (e) {
    if (failure) throw failure;
    if ((e as NodeJS.ErrnoException)?.code === 'EPIPE' || /EPIPE/.test(String((e as Error)?.message))) {
      await Promise.race([closed, new Promise((done) => setTimeout(done, 2000))]);
      if (stderr.trim()) throw new Error(stderr.trim());
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Run the request's hooks on the response body, in sheet order.
 * @param bodyText the response body as text (decoded by its charset).
 * @param setVar stores an override (the engine session's).
 * @param response what assertion hooks (hooks/expect.ts) look at; without it they are warnings.
 * @returns run-hook forms for the client, the variables set, assertion results, and warnings (`jq-error` naming
 *   the expression, `unknown-hook` naming the hook, `bad-argument`), each with its sheet line.
 *   Never throws: a hook's failure never loses the response.
 */
export async function runHooks(
  hooks: HookNode[],
  bodyText: string,
  setVar: (name: string, value: string) => void,
  response?: Omit<ExpectContext, 'bodyText'>,
): Promise<HookResults> {
  const results: HookResults = { runHooks: [], setVars: [], warnings: [], assertions: [] };
  for (const h of hooks) {
    if (isExpectHook(h.name) && response) {
      results.assertions.push(await evaluateExpect(h, { ...response, bodyText }, (f, input) => runJq(f, input)));
    } else if (h.name === 'run-hook') {
      if (h.args) results.runHooks.push(h.args);
      else results.warnings.push({ line: h.line, code: 'bad-argument', message: `line ${h.line}: run-hook needs a Lisp form` });
    } else if (h.name === 'jq-set-var') {
      const m = /^(:[^\s:]+)\s+([\s\S]+)$/.exec(h.args);
      if (!m) {
        results.warnings.push({ line: h.line, code: 'bad-argument', message: `line ${h.line}: jq-set-var needs a variable and a jq expression: -> jq-set-var :name .path` });
        continue;
      }
      const [, name, expr] = m;
      try {
        const value = await runJq(expr!, bodyText);
        setVar(name!, value);
        results.setVars.push({ name: name!, value });
      } catch (e) {
        const msg = (e instanceof Error ? e.message : String(e)).trim().split('\n')[0]!;
        // jq's "parse error: Invalid numeric literal" is about the input: say the body is no JSON.
        const type = response?.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
        const why = msg.startsWith('parse error') ? `the response body is not JSON${type ? ` (Content-Type: ${type})` : ''}; jq: ${msg}` : msg;
        results.warnings.push({ line: h.line, code: 'jq-error', message: `line ${h.line}: jq expression ${JSON.stringify(expr)} failed: ${why}` });
      }
    } else {
      results.warnings.push({ line: h.line, code: 'unknown-hook', message: `line ${h.line}: unknown hook ${h.name} (known: ${HOOK_TYPES.map((t) => t.name).join(', ')}); ignored` });
    }
  }
  return results;
}
