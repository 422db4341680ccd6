// Issue 27, item 5: C-c C-u (`sheet/curl`) of a request whose body is a big `< file` keeps the
// file as `--data-binary @/absolute/path` instead of pasting the body (150 KiB inline fails in
// bash with "Argument list too long"); a small file body stays inline. The command runs in real
// bash, from another directory, against a raw capture server on 127.0.0.1, and must send the
// file's bytes exactly, newlines and NUL bytes included.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_BODY_INLINE_MAX } from '../../engine/src/curl/to-curl.js';
import { startCapture } from '../fixtures/http/capture-server.mjs';
import { spawnEngine, tempDir, type EngineProcess } from './helpers.js';

let engine: EngineProcess;
let capture: Awaited<ReturnType<typeof startCapture>>;
const dir = tempDir();
const elsewhere = tempDir();
const big = Buffer.alloc(150 * 1024);
for (let i = 0; i < big.length; i++) big[i] = i % 251; // every byte value, NUL and \n included
beforeAll(async () => {
  capture = await startCapture();
  engine = spawnEngine();
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
  fs.writeFileSync(path.join(dir, 'big.bin'), big);
  fs.writeFileSync(path.join(dir, 'small.txt'), 'a=1\nb=2\n');
});
afterAll(async () => {
  await engine.close();
  await capture.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(elsewhere, { recursive: true, force: true });
});

async function exported(body: string): Promise<string> {
  const text = `POST http://127.0.0.1:${capture.port}/up\nContent-Type: application/octet-stream\n\n${body}\n`;
  return (await engine.conn.sendRequest('sheet/curl', { text, line: 1, path: path.join(dir, 'x.sheet') })).command as string;
}

const runInBash = (command: string) =>
  new Promise<{ code: number; err: string }>((resolve) =>
    execFile('bash', ['-c', `${command} -s -S -o /dev/null --max-time 10`], { cwd: elsewhere }, (e, _out, err) => resolve({ code: e ? Number((e as { code?: number }).code) : 0, err })),
  );

describe('C-c C-u with a file body', () => {
  it(`a file over ${FILE_BODY_INLINE_MAX} bytes is --data-binary @/absolute/path, and curl sends its bytes`, async () => {
    const command = await exported('< big.bin');
    expect(command).toContain(` --data-binary @${path.join(dir, 'big.bin')} `);
    expect(command.length).toBeLessThan(500);
    capture.requests.splice(0);
    expect(await runInBash(command)).toEqual({ code: 0, err: '' });
    expect(capture.requests).toHaveLength(1);
    expect(capture.requests[0]!.body.equals(big)).toBe(true);
  });

  it('a small file body stays inline', async () => {
    const command = await exported('< small.txt');
    // POSIX single quotes keep the newlines as they are (to-curl.ts's shellQuote).
    expect(command).toContain(`--data-binary 'a=1\nb=2\n'`);
    capture.requests.splice(0);
    expect((await runInBash(command)).code).toBe(0);
    expect(capture.requests[0]!.body.toString()).toBe('a=1\nb=2\n');
  });
});
