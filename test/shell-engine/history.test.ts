// REST_HISTORY=1 (engine/src/session/history.ts): calls from two concurrent shells (bash and zsh)
// land whole in history.sheet, which the engine's sheet parser reads back request by request,
// and which `sheet run` replays: the same requests arrive again at a raw TCP server on 127.0.0.1.
// Also the path history's cap and the masking rules.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs fixture without types
import { startCapture } from '../fixtures/http/capture-server.mjs';
import { parseSheet } from '../../engine/src/sheet/parse.js';
import { maskHeader, maskUrl, rememberPath, PATHS_FILE_MAX, PATHS_KEEP } from '../../engine/src/session/history.js';

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const exec = promisify(execFile);
type Captured = { requestLine: string; headers: [string, string][]; body: Buffer };
let cap: { port: number; requests: Captured[]; close(): Promise<void> };
let tmp: string;

beforeAll(async () => {
  cap = await startCapture();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-history-'));
});
afterAll(async () => {
  await cap.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Run CODE in `shell` after `source shell/rest` and `rest` to the capture server. */
function shell(sh: 'bash' | 'zsh', code: string, env: Record<string, string>) {
  const args = sh === 'zsh' ? ['-f', '-c'] : ['-c'];
  const pre = `source "${root}/shell/rest"; rest http://127.0.0.1:${cap.port} >/dev/null; `;
  return exec(sh, [...args, pre + code], { env: { ...process.env, ...env }, maxBuffer: 1 << 24 });
}

describe('history.sheet', () => {
  it('holds every call of two concurrent shells whole, readable by the sheet parser, and replays', async () => {
    const home = path.join(tmp, 'home');
    fs.mkdirSync(home);
    const rt = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-rt-'));
    const env = { HOME: home, REST_HISTORY: '1', XDG_STATE_HOME: path.join(tmp, 'state'), REST_RUNTIME_DIR: rt, REST_DAEMON_IDLE: '10' };
    // Bodies of a few KiB: entries larger than a pipe buffer still arrive with one write each.
    const loop = (tag: string) =>
      `i=0; while [ $i -lt 12 ]; do i=$((i+1)); POST /h/${tag}/$i "{\\"n\\": $i, \\"pad\\": \\"$(printf '%04000d' 0)\\", \\"who\\": \\"${tag}é\\"}" -H 'Content-Type: application/json' -H "X-Seq: ${tag}-$i" >/dev/null || exit 1; done`;
    try {
      await Promise.all([shell('bash', loop('bash'), env), shell('zsh', loop('zsh'), env)]);
      const file = path.join(tmp, 'state/rest/history.sheet');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const text = fs.readFileSync(file, 'utf8');
      const sheet = parseSheet(text);
      expect(sheet.diagnostics).toEqual([]);
      const reqs = sheet.requests;
      expect(reqs).toHaveLength(24);
      for (const tag of ['bash', 'zsh']) {
        const mine = reqs.filter((r) => r.url.includes(`/h/${tag}/`));
        expect(mine.map((r) => r.url)).toEqual(Array.from({ length: 12 }, (_, i) => `http://127.0.0.1:${cap.port}/h/${tag}/${i + 1}`));
        mine.forEach((r, i) => {
          expect(r.method).toBe('POST');
          expect(r.headers.map((h) => (h.kind === 'header' ? [h.name, h.value] : h))).toEqual([
            ['Content-Type', 'application/json'],
            ['X-Seq', `${tag}-${i + 1}`],
          ]);
          expect(r.body?.kind).toBe('text');
          const body = JSON.parse((r.body as { text: string }).text);
          expect(body).toEqual({ n: i + 1, pad: '0'.repeat(4000), who: `${tag}é` });
        });
      }
      // Replay: `sheet run` sends the history again; the same requests arrive.
      const sent = cap.requests.slice();
      cap.requests.length = 0;
      await exec('node', [path.join(root, 'engine/dist/sheet.cjs'), 'run', file], { env: { ...process.env, HOME: home } });
      expect(cap.requests).toHaveLength(24);
      const key = (r: Captured) => `${r.requestLine} ${r.body.toString('utf8')} ${r.headers.find(([n]) => n.toLowerCase() === 'x-seq')?.[1]}`;
      expect(cap.requests.map(key).sort()).toEqual(sent.map(key).sort());
    } finally {
      try {
        process.kill(Number(fs.readFileSync(path.join(rt, 'engine.pid'), 'utf8')), 'SIGTERM');
      } catch {
        /* no daemon */
      }
      fs.rmSync(rt, { recursive: true, force: true });
    }
  }, 60000);
});

describe('masking', () => {
  it('keeps the scheme and cookie names, masks the rest', () => {
    expect(maskHeader(['authorization', 'Bearer abc.def'])).toEqual(['authorization', 'Bearer ****']);
    expect(maskHeader(['Authorization', 'opaque'])).toEqual(['Authorization', '****']);
    expect(maskHeader(['Cookie', 'a=1; b=x=y'])).toEqual(['Cookie', 'a=****; b=****']);
    expect(maskHeader(['X-Api-Key', 'k'])).toEqual(['X-Api-Key', 'k']);
    expect(maskUrl('https://me:pw@h.example/a?b=c')).toBe('https://me:****@h.example/a?b=c');
    expect(maskUrl('http://h.example/a@b')).toBe('http://h.example/a@b');
  });
});

describe('the path history', () => {
  it('keeps the path only and stays under its cap, newest distinct paths kept', () => {
    const f = path.join(tmp, 'paths', 'host:1');
    rememberPath(f, '/a?secret=1');
    rememberPath(f, 'no-slash');
    expect(fs.readFileSync(f, 'utf8')).toBe('/a\n');
    for (let i = 0; i < 5000; i++) rememberPath(f, `/p/${i % 700}`);
    const lines = fs.readFileSync(f, 'utf8').trim().split('\n');
    expect(fs.statSync(f).size).toBeLessThanOrEqual(PATHS_FILE_MAX + 1100);
    expect(new Set(lines.slice(0, PATHS_KEEP)).size).toBeGreaterThan(0);
    expect(lines[lines.length - 1]).toBe(`/p/${4999 % 700}`);
    expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(f)).mode & 0o777).toBe(0o700);
  });
});
