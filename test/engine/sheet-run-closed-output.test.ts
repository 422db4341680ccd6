// Issue 36 item 2: `sheet run F 2>&1 | head -1` ended never (a CPU spinning, jq children left
// running) and `sheet run F | head -1` printed a `write EPIPE` stack trace per later line. A
// closed stdout or stderr ends the run quietly with status 141 (128 + SIGPIPE, what a shell
// shows for `yes | head -1`), its jq children stopped. Real bash pipelines, real bin and bundle,
// the example API on 127.0.0.1.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHEET_BIN, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;
let file: string;
// A jq filter no other process runs: its jq children are found by their command line.
const MARK = `.marker_${process.pid}_${Date.now()}`;

/** The processes whose command line holds `text` (from /proc), other than this one. */
function processesWith(text: string): number[] {
  const out: number[] = [];
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(text)) out.push(Number(p));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Run a bash pipeline; its status and output, or -1 when it had not ended within `ms`. */
function pipeline(cmd: string, ms: number): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', `set -o pipefail; ${cmd}`], { cwd: dir, timeout: ms, env: { ...process.env, NO_COLOR: '1' } }, (e, out, err) => {
      resolve({ code: e ? ((e as { killed?: boolean }).killed ? -1 : ((e as { code?: number }).code ?? -1)) : 0, out, err });
    });
  });
}

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('sheet-run-closed-');
  const one = `GET ${api.url}/hf/n\n-> jq-set-var :m ${MARK}\n-> expect-status 200\n`;
  file = path.join(dir, 'many.sheet');
  fs.writeFileSync(file, Array.from({ length: 60 }, () => one).join('#\n'));
}, 60000);

afterAll(async () => {
  // A run that never ended (the bug) is stopped here, and so are its jq children.
  for (const pid of [...processesWith(dir), ...processesWith(MARK)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet run into a pipe that closes', () => {
  it('2>&1 | head -1 ends at once with status 141 and leaves no jq running', async () => {
    const r = await pipeline(`node ${SHEET_BIN} run ${file} 2>&1 | head -1`, 30000);
    expect(r.code).toBe(141);
    expect(r.out).toMatch(/^✓ 200 GET \/hf\/n \(.*many\.sheet:1\)/);
    // jq exits on its own once its stdin closes; give it a moment, bounded.
    for (let i = 0; i < 50 && processesWith(MARK).length; i++) await new Promise((d) => setTimeout(d, 100));
    expect(processesWith(MARK)).toEqual([]);
  }, 40000);

  it('| head -1 (stderr still open) prints no stack trace and ends with status 141', async () => {
    const r = await pipeline(`node ${SHEET_BIN} run ${file} | head -1`, 30000);
    expect(r.code).toBe(141);
    expect(r.err).toBe('');
    expect(r.out.split('\n').filter(Boolean)).toHaveLength(1);
  }, 40000);
});
