// `sheet run` keeps no body whole (issue 30; docs/reliability.md): a body past 16 MiB goes to a
// private file as it arrives and the file is removed after the request, as over JSON-RPC. The
// run's peak resident memory is sampled from /proc while a 300 MiB body goes through.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHEET_BIN, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;
beforeAll(async () => {
  api = await startApi();
  dir = tempDir('run-memory-');
});
afterAll(async () => {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Run `sheet ARGS`, sampling the process's VmHWM (peak RSS, kB) until it exits. */
function runSampled(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; peakKb: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SHEET_BIN, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1', ...env } });
    let out = '';
    let peakKb = 0;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        /* exited */
      }
    }, 50);
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code: code ?? -1, out, peakKb });
    });
  });
}

describe('sheet run memory', () => {
  it('a 300 MiB body: the run stays far under its size, the spill file is gone, hooks that read the body are warned about', async () => {
    const tmp = path.join(dir, 'tmp');
    fs.mkdirSync(tmp);
    fs.writeFileSync(path.join(dir, 'big.sheet'), `GET ${api.url}/stream/bytes?mb=300\n-> expect-status 200\n-> expect-body xyz\n`);
    const r = await runSampled(['run', 'big.sheet', '--report', `json:${path.join(dir, 'r.json')}`], { TMPDIR: tmp });
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8'));
    const result = report.files[0].results[0];
    expect(result.status).toBe(200);
    expect(result.bytes).toBe(300 * 1024 * 1024);
    expect(result.warnings.map((w: { code: string }) => w.code)).toContain('body-not-read');
    // Held whole, the body alone would be 300 MiB; streamed to a file, the run stays near its idle size.
    expect(r.peakKb, r.out).toBeLessThan(200 * 1024);
    // The private file is removed once the request is done.
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 120_000);
});
