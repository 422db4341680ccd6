// Shared test helpers: the example API on 127.0.0.1 and the engine's stdio JSON-RPC server.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
// @ts-expect-error plain ESM fixture without types
import { startServer } from '../fixtures/server.mjs';

export const root = path.resolve(new URL('../..', import.meta.url).pathname);
export const ENGINE_BUNDLE = path.join(root, 'engine/dist/engine.cjs');

export interface Api {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The example API on 127.0.0.1, a free port. */
export function startApi(): Promise<Api> {
  return startServer();
}

/** The installed-style `sheet` command of a checkout (engine/bin/sheet, on the built bundles). */
export const SHEET_BIN = path.join(root, 'engine/bin/sheet');

/** What a command run printed, and its exit status. */
export interface CliRun {
  /** The exit status; -1 when it was killed (the time limit) or could not start. */
  code: number;
  out: string;
  err: string;
}

/**
 * Run `sheet ARGS` (node engine/bin/sheet) in `cwd`, with `NO_COLOR=1` and `env` over this
 * process's environment, `input` on its standard input (then closed; empty by default).
 * Killed after `timeoutMs` (default 60 s).
 */
export function runSheet(args: string[], o: { cwd: string; input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliRun> {
  return new Promise((resolve) => {
    const env = { ...process.env, NO_COLOR: '1', ...o.env };
    const child = execFile(process.execPath, [SHEET_BIN, ...args], { cwd: o.cwd, env, timeout: o.timeoutMs ?? 60000, maxBuffer: 64 * 1024 * 1024 }, (e, out, err) => {
      resolve({ code: e ? ((e as { code?: number }).code ?? -1) : 0, out, err });
    });
    child.stdin!.end(o.input ?? '');
  });
}

/** The peak resident memory of process `pid` so far, in KiB (VmHWM of /proc/PID/status). */
export function peakKb(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

/** A fresh temporary directory, removed by the caller's cleanup. */
export function tempDir(prefix = 'engine-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface EngineProcess {
  conn: MessageConnection;
  proc: ChildProcess;
  stderr: () => string;
  /** shutdown + exit, then wait for the process to end. */
  close(): Promise<number | null>;
}

/**
 * Spawn `node engine/dist/engine.cjs --stdio` (or `node ARGV...`, e.g. the `sheet` launcher
 * with `engine --stdio`) and connect to it over a real pipe.
 */
export function spawnEngine(opts: { cwd?: string; env?: NodeJS.ProcessEnv; argv?: string[] } = {}): EngineProcess {
  const proc = spawn(process.execPath, opts.argv ?? [ENGINE_BUNDLE, '--stdio'], {
    cwd: opts.cwd ?? root,
    env: { ...process.env, ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => (err += d));
  const conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  conn.listen();
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    conn,
    proc,
    stderr: () => err,
    async close() {
      if (proc.exitCode === null) {
        try {
          await conn.sendRequest('shutdown');
          await conn.sendNotification('exit');
        } catch {
          proc.kill();
        }
      }
      const code = await exited;
      conn.dispose();
      return code;
    },
  };
}
