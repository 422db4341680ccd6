/**
 * A long-lived jq per filter, so a sheet that captures with jq on every few requests does not
 * pay a jq start (tens of ms) each time: the filter is compiled once and each body is one
 * more input on the same process's stdin. Output is what `jq -r -c FILTER` prints, one value a
 * line (strings raw, other values as jq's compact JSON via `tojson`), without the last newline.
 *
 * The fast path takes only what it gives exactly the same answer for: a body that is one JSON
 * text (JSON.parse accepts it). Anything else, or a filter that does not compile, answers
 * `undefined` and `runJq` (hooks/run.ts) falls back to one node-jq run, which reports jq's own
 * error message. Limits as `runJq`: a time limit and an output limit, after which the process
 * is killed. At most {@link MAX_SERVERS} filters keep a process; the least recently used goes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

/** How many filters keep a jq process at once. */
export const MAX_SERVERS = 16;

/**
 * Outputs one input may give on the fast path; past them, the run is handed to the one-off
 * jq, which enforces the byte limit (an endless generator is cut here by jq's `limit`, so
 * neither process grows).
 */
export const MAX_OUTPUTS = 10_000;

interface Pending {
  out: string[];
  bytes: number;
  done: (v: string | undefined | Error) => void;
}

class JqServer {
  private proc: ChildProcess;
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  dead = false;

  constructor(jqPath: string, private filter: string) {
    // The filter on lines of its own: a `#` comment in it ends at its line.
    const program = `(try (limit(${MAX_OUTPUTS + 1}; (\n${filter}\n)) | {v: (if type == "string" then . else tojson end)}) catch {err: (. | tostring)}), {end: true}`;
    this.proc = spawn(jqPath, ['-c', '--unbuffered', program], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.proc.on('error', () => this.fail());
    this.proc.on('exit', () => this.fail());
    this.proc.stdin!.on('error', () => this.fail());
    this.proc.stdout!.on('data', (d: Buffer) => {
      if (this.pending) this.pending.bytes += d.length;
    });
    readline.createInterface({ input: this.proc.stdout! }).on('line', (line) => this.onLine(line));
    this.idle();
  }

  private idle(): void {
    // An idle jq must not keep the engine's process alive.
    this.proc.unref();
    (this.proc.stdin as unknown as { unref?: () => void }).unref?.();
    (this.proc.stdout as unknown as { unref?: () => void }).unref?.();
  }

  private busy(): void {
    this.proc.ref();
    (this.proc.stdin as unknown as { ref?: () => void }).ref?.();
    (this.proc.stdout as unknown as { ref?: () => void }).ref?.();
  }

  private onLine(line: string): void {
    const p = this.pending;
    if (!p) return;
    const m = JSON.parse(line) as { v?: string; err?: string; end?: boolean };
    if (m.end) {
      this.pending = undefined;
      // Too many outputs: this filter runs one-off from now on (its process is not kept).
      if (p.out.length > MAX_OUTPUTS) {
        oneOff.add(this.filter);
        this.kill();
      }
      p.done(p.out.length > MAX_OUTPUTS ? undefined : p.out.join('\n'));
    } else if (m.err !== undefined) {
      p.out = [];
      p.done(new Error(`jq: error: ${m.err}`));
      p.done = () => undefined;
    } else if (p.out.length <= MAX_OUTPUTS) {
      p.out.push(m.v ?? '');
    }
  }

  private fail(): void {
    if (!this.dead) this.dead = true;
    const p = this.pending;
    this.pending = undefined;
    p?.done(undefined);
  }

  kill(): void {
    this.dead = true;
    this.proc.kill('SIGKILL');
  }

  /** One input; resolves to the output, or undefined when the process died (fall back). */
  run(input: string, timeoutMs: number, maxOutput: number): Promise<string | undefined> {
    const job = this.queue.then(
      () =>
        new Promise<string | undefined>((resolve, reject) => {
          if (this.dead) return resolve(undefined);
          this.busy();
          let settled = false;
          const finish = (v: string | undefined | Error) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            clearInterval(watch);
            if (!this.dead) this.idle();
            if (v instanceof Error) reject(v);
            else resolve(v);
          };
          const timer = setTimeout(() => {
            this.kill();
            finish(new Error(`jq did not finish within ${timeoutMs} ms`));
          }, timeoutMs);
          const watch = setInterval(() => {
            if (this.pending && this.pending.bytes > maxOutput) {
              this.kill();
              finish(new Error(`jq printed more than ${maxOutput} bytes`));
            }
          }, 50);
          this.pending = { out: [], bytes: 0, done: finish };
          this.proc.stdin!.write(input.endsWith('\n') ? input : input + '\n');
        }),
    );
    this.queue = job.catch(() => undefined);
    return job;
  }
}

const servers = new Map<string, JqServer>();
/** Filters that gave more than {@link MAX_OUTPUTS} outputs: always run one-off. */
const oneOff = new Set<string>();

/**
 * Run `filter` on `input` on the filter's long-lived jq.
 * @returns jq's output as `jq -r -c` prints it without the final newline, or undefined when
 *   the fast path does not apply (input not one JSON text, the filter does not compile, jq
 *   died): the caller then runs jq once the usual way.
 * @throws Error `jq: error: ...` for a run-time error of the filter, or on the time or output limit.
 */
export async function runJqServer(jqPath: string, filter: string, input: string, timeoutMs: number, maxOutput: number): Promise<string | undefined> {
  // `input`/`inputs` would read the next body: such filters run alone.
  if (/\binputs?\b/.test(filter) || oneOff.has(filter)) return undefined;
  try {
    JSON.parse(input);
  } catch {
    return undefined;
  }
  let s = servers.get(filter);
  if (s?.dead) {
    servers.delete(filter);
    s = undefined;
  }
  if (!s) {
    s = new JqServer(jqPath, filter);
    servers.set(filter, s);
    if (servers.size > MAX_SERVERS) {
      const [oldest, server] = servers.entries().next().value as [string, JqServer];
      servers.delete(oldest);
      server.kill();
    }
  } else {
    // Most recently used last.
    servers.delete(filter);
    servers.set(filter, s);
  }
  return s.run(input, timeoutMs, maxOutput);
}

/** Stop every jq this module started. */
export function stopJqServers(): void {
  for (const s of servers.values()) s.kill();
  servers.clear();
}
