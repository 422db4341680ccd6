// Shared by the http-file-field-*.test.ts files (issue 29, `.http` files as people write them):
// a raw capture server on 127.0.0.1 port 0 (test/fixtures/http/capture-server.mjs) and three
// ways to send a file to it: HttpFileRunner, the engine Session (C-c C-c over JSON-RPC) and
// `sheet run` (the real bin).
import fs from 'node:fs';
import path from 'node:path';
// @ts-expect-error plain ESM fixture without types
import { startCapture } from '../fixtures/http/capture-server.mjs';
import { HttpFileRunner, type HttpRunnerOptions } from '../../engine/src/session/http-file-runner.js';
import { runSheet, tempDir, type CliRun } from './helpers.js';

export interface Captured {
  requestLine: string;
  headers: [string, string][];
  body: Buffer;
}

export interface Capture {
  port: number;
  /** `http://127.0.0.1:PORT` */
  base: string;
  requests: Captured[];
  dir: string;
  /** Write `text` (every `HOST` replaced by the base URL) to `name` in the temp dir; its path. */
  write(name: string, text: string | Buffer): string;
  /** Send every request of the file with HttpFileRunner; the captured requests it caused. */
  runAll(name: string, text: string | Buffer, o?: HttpRunnerOptions): Promise<Captured[]>;
  /** `sheet run NAME ARGS...` in the temp dir; the run and the captured requests it caused. */
  sheetRun(name: string, text: string | Buffer, args?: string[]): Promise<CliRun & { got: Captured[] }>;
  close(): Promise<void>;
}

export async function capture(): Promise<Capture> {
  const cap = (await startCapture()) as { port: number; requests: Captured[]; close(): Promise<void> };
  const dir = tempDir('http-field-');
  const base = `http://127.0.0.1:${cap.port}`;
  const write = (name: string, text: string | Buffer) => {
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, typeof text === 'string' ? text.replaceAll('HOST', base) : Buffer.from(text.toString('latin1').replaceAll('HOST', base), 'latin1'));
    return p;
  };
  const since = async <T>(f: () => Promise<T>): Promise<[T, Captured[]]> => {
    const n = cap.requests.length;
    const r = await f();
    return [r, cap.requests.slice(n)];
  };
  return {
    port: cap.port,
    base,
    requests: cap.requests,
    dir,
    write,
    async runAll(name, text, o = {}) {
      const file = write(name, text);
      const [, got] = await since(() => new HttpFileRunner({ file, ...o }).sendAll(fs.readFileSync(file, 'utf8')));
      return got;
    },
    async sheetRun(name, text, args = []) {
      write(name, text);
      const [r, got] = await since(() => runSheet(['run', name, ...args], { cwd: dir }));
      return { ...r, got };
    },
    async close() {
      await cap.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Request line, headers (lower-case names, sorted, without the ones each client adds) and body as text. */
export function wire(r: Captured): { line: string; headers: Record<string, string>; body: string } {
  const skip = new Set(['user-agent', 'accept-encoding', 'connection', 'keep-alive', 'host']);
  const headers: Record<string, string> = {};
  for (const [k, v] of r.headers) if (!skip.has(k.toLowerCase()) && !(k.toLowerCase() === 'accept' && v === '*/*')) headers[k.toLowerCase()] = v;
  return { line: r.requestLine, headers, body: r.body.toString('utf8') };
}
