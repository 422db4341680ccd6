// Shared test helpers: the example API on 127.0.0.1 and the engine's stdio JSON-RPC server.
import { spawn, type ChildProcess } from 'node:child_process';
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
