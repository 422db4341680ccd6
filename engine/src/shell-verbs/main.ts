/**
 * The command the shell verbs call (`engine.cjs cli ...`); see docs/shell.md.
 *
 *   cli run [--start-daemon DIR] ARGS...   one verb call (argument vector: src/shell-verbs/run.ts);
 *                                          with --start-daemon, also start the daemon for
 *                                          the next calls, detached, when none runs in DIR
 *   cli ws ARGS...                         `WS PATH`: a WebSocket session on stdin and stdout (ws.ts;
 *                                          the argument vector of `run`)
 *   cli daemon --dir DIR [--idle SECONDS]  serve verb calls on DIR/engine.sock until idle
 *   cli start-daemon DIR                   start that daemon detached and return at once
 *   cli split LINE                         print the words of an option-file line, one per line
 *   cli options                            print the curl options the engine understands
 *   cli env [NAME]                         `rest --env`: with NAME, check the environment
 *                                          (files found walking up from the working directory)
 *                                          and print its base URL (`baseUrl`, else `host`) or an
 *                                          empty line, then the directory it belongs to;
 *                                          empty line; without, print the environment names
 */
import { containStrayErrors } from '../call-scope.js';
import { buffer } from 'node:stream/consumers';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { rawArgv } from './bytes.js';
import path from 'node:path';
import { closeConnections } from '../http/send.js';
import { KNOWN_OPTIONS } from '../curl/options.js';
import { splitShellWords } from '../curl/words.js';
import { EXIT, run } from './run.js';
import { toEngineError } from '../errors.js';

/** Standard input read whole. */
const readAllStdin = (): Promise<Uint8Array> => buffer(process.stdin);

/** Standard input as a stream, with its size when it is a regular file (a Content-Length). */
function stdinStream(): { stream: Readable; size?: number } {
  let size: number | undefined;
  try {
    const st = fs.fstatSync(0);
    // The shell opens `< file` at offset 0; a seekable file read from elsewhere is rare.
    if (st.isFile()) size = st.size;
  } catch {
    /* unknown */
  }
  return { stream: process.stdin, size };
}

/** Idle time of the daemon, in seconds: REST_DAEMON_IDLE, default 900 (15 minutes). */
export function idleSeconds(): number {
  const n = Number(process.env.REST_DAEMON_IDLE);
  return Number.isFinite(n) && n > 0 ? n : 900;
}

/**
 * V8 flags of the daemon: a 2 MB semi-space keeps its resident size low while bodies stream;
 * WebAssembly (undici's HTTP parser, llhttp) stays on V8's baseline compiler: its optimizing
 * tier compiled the parser on the first big transfer with about 30 MB of compiler memory, the
 * daemon's peak (issue 21: 104-113 MB -> 83-87 MB, times within the noise). The collector
 * works on the main thread alone: a small call's scavenge (one every 10-12 calls) then waits
 * for no helper thread, which a loaded machine leaves without a core (issue 36: median
 * scavenge 1.3-5.6 ms -> 0.8-0.9 ms at a load average of 13-18; docs/shell.md, "Per call").
 */
export const DAEMON_NODE_FLAGS = ['--max-semi-space-size=2', '--liftoff-only', '--single-threaded-gc'];

/** Start the daemon, detached. When one already serves `dir`, the new one sees it and exits. */
function startDaemon(dir: string): void {
  // The same bundle as this process: rest-cli.cjs takes `daemon`, engine.cjs `cli daemon`.
  const pre = process.argv[2] === 'cli' ? ['cli'] : [];
  // A small young generation: bodies pass through in chunks, so a large one only costs RSS.
  const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, path.resolve(process.argv[1]!), ...pre, 'daemon', '--dir', dir, '--idle', String(idleSeconds())], {
    // glibc's mmap threshold: at 64 KiB (issue 10) every body chunk (a 64 KiB socket read, a
    // 1 MiB file read) was a fresh mapping, its pages faulted in and unmapped again, a third of
    // the daemon's CPU on a big transfer (issue 21). At 2 MiB the chunks come from the C heap
    // and are reused; the collections while a call is in flight (idle-gc.ts) keep few of them
    // alive, so the heap stays small. The trim threshold, 8 MiB: what those collections free
    // at once stays in the heap for the next chunks (at 128 KiB it was given back and faulted in
    // again, 200 k page faults and 0.5 s of system time per GB); idle, the top of the heap is
    // given back all the same (idle-gc.ts, releaseHeapTop), so the RSS falls back after the
    // transfer (docs/shell.md, "Speed and memory (issue 21)").
    // Node would trust this shell's NODE_EXTRA_CA_CERTS in every later call: each call brings its own (shell-verbs/caller-env.ts).
    env: { MALLOC_MMAP_THRESHOLD_: '2097152', MALLOC_TRIM_THRESHOLD_: '8388608', ...process.env, NODE_EXTRA_CA_CERTS: undefined },
    detached: true,
    stdio: 'ignore',
    cwd: '/',
  });
  child.on('error', () => undefined);
  child.unref();
}

export async function runCli(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'run': {
      // An error a library throws outside our awaits ends the call with a message and exit 8,
      // not a stack trace (src/call-scope.ts; run() puts the call in its scope).
      containStrayErrors('rest', false);
      // The arguments as bytes (non-UTF-8 data reaches the request unchanged): src/shell-verbs/bytes.ts.
      const raw = rawArgv();
      let args = raw.length >= rest.length ? raw.slice(raw.length - rest.length) : rest;
      if (args[0] === '--start-daemon' && args[1]) {
        try {
          startDaemon(args[1]);
        } catch {
          /* the direct mode works without it */
        }
        args = args.slice(2);
      }
      // A closed pipe is an exit status (23), not an uncaught error.
      process.stdout.on('error', () => undefined);
      process.stderr.on('error', () => undefined);
      const r = await run({
        argv: args,
        cwd: process.cwd(),
        pathEnv: process.env.PATH ?? '',
        readStdin: readAllStdin,
        stdinStream,
        outputs: { stdout: process.stdout, stderr: process.stderr, tty: process.stdout.isTTY === true, ttyErr: process.stderr.isTTY === true },
      });
      await closeConnections();
      return r.code;
    }
    case 'ws': {
      // `WS PATH` (shell/rest-verbs): always this process, its stdin and stdout line by line (ws.ts).
      containStrayErrors('rest', false);
      process.stdout.on('error', () => undefined);
      process.stderr.on('error', () => undefined);
      const { runWs } = await import('./ws.js');
      const code = await runWs({ argv: rest, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
      // Standard input may still be open (a terminal, a pipe the server outlived): stop reading it.
      process.stdin.destroy();
      return code;
    }
    case 'start-daemon': {
      // REST_DAEMON=eager at `source` time: start it now, detached, and leave (shell/rest).
      if (!rest[0]) {
        process.stderr.write('rest: cli start-daemon needs DIR\n');
        return EXIT.usage;
      }
      try {
        startDaemon(rest[0]);
      } catch {
        /* the first call starts it then */
      }
      return 0;
    }
    case 'daemon': {
      const i = rest.indexOf('--dir');
      const dir = i >= 0 ? rest[i + 1] : undefined;
      const j = rest.indexOf('--idle');
      const idle = j >= 0 ? Number(rest[j + 1]) : idleSeconds();
      if (!dir) {
        process.stderr.write('rest: cli daemon needs --dir DIR\n');
        return EXIT.usage;
      }
      const { runDaemon } = await import('./daemon.js');
      // One call's stray error ends that call; the daemon serves the others (src/call-scope.ts).
      containStrayErrors('rest engine daemon');
      try {
        const code = await runDaemon({ dir, idleSeconds: idle > 0 ? idle : idleSeconds() });
        // Stopped: leave now, whatever handle (a hung upstream socket) is still open.
        process.exit(code);
      } catch (e) {
        process.stderr.write(`rest: engine daemon: ${e instanceof Error ? e.message : String(e)}\n`);
        return EXIT.failure;
      }
    }
    case 'split': {
      try {
        for (const w of splitShellWords(rest[0] ?? '')) process.stdout.write(w + '\n');
        return 0;
      } catch (e) {
        process.stderr.write(`rest: ${(e as Error).message}\n`);
        return EXIT.usage;
      }
    }
    case 'env': {
      const { environmentBase, environmentRoot, shellEnvironment } = await import('./env.js');
      try {
        const env = shellEnvironment(process.cwd(), rest[0]);
        if (rest[0] === undefined) process.stdout.write(env.available.map((n) => n + '\n').join(''));
        else process.stdout.write(`${environmentBase(env) ?? ''}\n${environmentRoot(env, process.cwd())}\n`);
        return 0;
      } catch (e) {
        const ee = toEngineError(e);
        process.stderr.write(`rest: --env: ${ee.message}${ee.hint ? ` (${ee.hint})` : ''}\n`);
        return EXIT.usage;
      }
    }
    case 'options':
      process.stdout.write(KNOWN_OPTIONS.join('\n') + '\n');
      return 0;
    default:
      process.stderr.write(`rest: unknown engine command ${JSON.stringify(cmd ?? '')}; use run, daemon, split, options or env\n`);
      return EXIT.usage;
  }
}
