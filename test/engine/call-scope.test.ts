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

describe('call scope', () => {
  it('a stray error ends its own call; the call beside it and the process go on', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'call-scope-'));
    const out = path.join(dir, 'script.mjs');
    buildSync({ stdin: { contents: SCRIPT, resolveDir: root, loader: 'js' }, bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'silent' });
    let r: ReturnType<typeof spawnSync>;
    try {
      r = spawnSync(process.execPath, [out], { encoding: 'utf8', timeout: 10_000 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const stdout = String(r.stdout);
    const stderr = String(r.stderr);
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
});
