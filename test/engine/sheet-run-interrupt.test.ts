// Ctrl-C during `sheet run` (issue 26: reports whole on any exit; sheet-command/cli.ts onInterrupt,
// entry.ts): SIGINT while a request hangs writes the JSON and HTML reports of what ran so far,
// whole, then exits with status 130. A real `sheet` process and the fault server's
// /slow-headers (a response that never ends its headers) on 127.0.0.1.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHEET_BIN, tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startFaults } from '../fixtures/faults.mjs';

let faults: { url: string; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  faults = await startFaults();
  dir = tempDir('interrupt-');
});
afterAll(async () => {
  await faults.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet run: Ctrl-C', () => {
  it('writes the reports of what ran, whole, and exits 130', async () => {
    const f = path.join(dir, 'hang.sheet');
    fs.writeFileSync(f, `GET ${faults.url}/int-ok\n-> expect-status 200\n#\nGET ${faults.url}/slow-headers\n-> expect-status 200\n#\nGET ${faults.url}/int-never\n`);
    const child = spawn(process.execPath, [SHEET_BIN, 'run', f, '--report', 'json:r.json', '--report', 'html:r.html', '--report', 'junit:r.xml'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let sent = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      // The first request is done; the second hangs: interrupt it.
      if (!sent && /\[1\/3\]/.test(out)) sent = child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(130);
    expect(out).toContain('interrupted: 1 of 3 requests ran; writing the reports');
    const rep = JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8'));
    expect(rep.summary).toMatchObject({ requests: 1, selected: 3, passed: 1 });
    expect(fs.readFileSync(path.join(dir, 'r.html'), 'utf8')).toMatch(/<\/html>\n$/);
    expect(fs.readFileSync(path.join(dir, 'r.xml'), 'utf8')).toContain('int-ok');
    // No temporary file left beside them.
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  }, 30000);
});
