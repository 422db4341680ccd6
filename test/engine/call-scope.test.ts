// engine/src/call-scope.ts in a real Node process (vitest keeps its own uncaught-error
// listeners, so the listeners under test run in a child): an exception thrown from a timer, and
// a rejection nobody handles, inside one call end that call alone with `internal-error`, while
// a call beside it completes and the process lives on. docs/reliability.md, "Containment".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

const SCRIPT = `
import { containStrayErrors, withCallScope } from './engine/src/call-scope.ts';
containStrayErrors('test');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const settle = (p) => p.then((v) => ({ ok: v }), (e) => ({ code: e.code, message: e.message, aborted: e.aborted }));
const runs = await Promise.all([
  // A library's timer throws while the call waits: the call ends at once, its signal aborts.
  settle(withCallScope(async (signal) => {
    setTimeout(() => { throw new Error('boom from a timer'); }, 20);
    await new Promise((r) => signal.addEventListener('abort', r));
    await sleep(300);
    return 'never';
  })),
  // A rejection nobody handles.
  settle(withCallScope(async () => {
    Promise.reject(new TypeError('nobody awaited this'));
    await sleep(1000);
    return 'never';
  })),
  // The healthy call beside them.
  settle(withCallScope(async () => { await sleep(200); return 'healthy'; })),
]);
// An error outside any call: logged, nothing ends.
setTimeout(() => { throw new Error('outside'); }, 0);
await sleep(50);
process.stdout.write(JSON.stringify(runs));
`;

// `alone` (sheet run with one worker): calls one after the other, no AsyncLocalStorage; a
// stray error while a call runs ends that call, one between calls is logged and ignored.
const ALONE = `
import { containStrayErrors, withCallScope } from './engine/src/call-scope.ts';
containStrayErrors('test');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const settle = (p) => p.then((v) => ({ ok: v }), (e) => ({ code: e.code, message: e.message }));
const alone = { alone: true };
const runs = [];
runs.push(await settle(withCallScope(async (signal) => {
  setTimeout(() => { throw new Error('boom while alone'); }, 20);
  await new Promise((r) => signal.addEventListener('abort', r));
  await sleep(100);
  return 'never';
}, undefined, alone)));
setTimeout(() => { throw new Error('between calls'); }, 0);
await sleep(50);
runs.push(await settle(withCallScope(async () => { await sleep(50); return 'next'; }, undefined, alone)));
runs.push(await settle(withCallScope(async () => {
  Promise.reject(new TypeError('nobody awaited this either'));
  await sleep(1000);
  return 'never';
}, undefined, alone)));
runs.push(await settle(withCallScope(async () => 'last', undefined, alone)));
process.stdout.write(JSON.stringify(runs));
`;

/** Runs `script` (ESM, importing the engine's sources) in a child Node: its exit status, stdout, stderr. */
function runScript(script: string): { status: number | null; stdout: string; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'call-scope-'));
  const out = path.join(dir, 'script.mjs');
  buildSync({ stdin: { contents: script, resolveDir: root, loader: 'js' }, bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'silent' });
  try {
    const r = spawnSync(process.execPath, [out], { encoding: 'utf8', timeout: 10_000 });
    return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('call scope', () => {
  it('a stray error ends its own call; the call beside it and the process go on', () => {
    const r = runScript(SCRIPT);
    const { stdout, stderr } = r;
    expect(r.status, stderr).toBe(0);
    const [timer, rejection, healthy] = JSON.parse(stdout) as { ok?: string; code?: string; message?: string }[];
    expect(timer!.code).toBe('internal-error');
    expect(timer!.message).toContain('boom from a timer');
    expect(rejection!.code).toBe('internal-error');
    expect(rejection!.message).toContain('TypeError: nobody awaited this');
    expect(healthy).toEqual({ ok: 'healthy' });
    // Each logged once with its stack; the one outside any call is named so and ignored.
    expect(stderr).toMatch(/test: internal error \(one request ended\): Error: boom from a timer\n\s+at /);
    expect(stderr).toContain('test: internal error (outside any request, ignored): Error: outside');
  });

  it('alone: a stray error ends the call running, one between calls is ignored, the next calls go on', () => {
    const r = runScript(ALONE);
    expect(r.status, r.stderr).toBe(0);
    const [timer, next, rejection, last] = JSON.parse(r.stdout) as { ok?: string; code?: string; message?: string }[];
    expect(timer!.code).toBe('internal-error');
    expect(timer!.message).toContain('boom while alone');
    expect(next).toEqual({ ok: 'next' });
    expect(rejection!.code).toBe('internal-error');
    expect(rejection!.message).toContain('TypeError: nobody awaited this either');
    expect(last).toEqual({ ok: 'last' });
    expect(r.stderr).toMatch(/test: internal error \(one request ended\): Error: boom while alone\n\s+at /);
    expect(r.stderr).toContain('test: internal error (outside any request, ignored): Error: between calls');
  });
});
