// The cookie file on the small-request path (engine/src/http/cookies.ts, docs/reliability.md):
// a request that sets no cookie does not write the file (no lock, no read, no write), and a
// file nobody changed is not read again; yet what another process writes, even in place with
// the same size right after the engine read it, is sent with the next request.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toNetscape, parseNetscape } from '../../engine/src/http/cookies.js';
import { spawnEngine, startApi, tempDir } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A Netscape file holding one host-only cookie `name=value` for 127.0.0.1. */
function fileText(name: string, value: string): string {
  const [c] = parseNetscape(`127.0.0.1\tFALSE\t/\tFALSE\t0\t${name}\t${value}\n`);
  return toNetscape([c!]);
}

/** Rewrite `file` in place (same inode, as curl before 8.x does), keeping its size. */
function rewriteInPlace(file: string, text: string): void {
  expect(Buffer.byteLength(text)).toBe(fs.statSync(file).size);
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, text, 0);
  fs.closeSync(fd);
}

describe('cookie file fast path', () => {
  it('a request that sets no cookie leaves the file untouched; changes by others are still sent', async () => {
    const d = tempDir('cookie-fast-');
    dirs.push(d);
    const file = path.join(d, 'jar');
    fs.writeFileSync(file, fileText('tok', 'aaa'), { mode: 0o600 });
    // Old enough to be trusted: the engine reads it once, then only stats it.
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(file, old, old);
    const api = await startApi();
    const engine = spawnEngine();
    const cookies = async () =>
      ((await engine.conn.sendRequest('sheet/send', { text: `#\nGET ${api.url}/cookies`, line: 2, bodyFileMin: 1 << 20 })) as { presentation: { text: string } }).presentation.text;
    try {
      await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false, settings: { cookieJarFile: file } });
      const before = fs.statSync(file, { bigint: true });
      expect(JSON.parse(await cookies())).toEqual({ cookies: { tok: 'aaa' } });
      expect(JSON.parse(await cookies())).toEqual({ cookies: { tok: 'aaa' } });
      const after = fs.statSync(file, { bigint: true });
      // Not written: same inode, same modification time, no lock left.
      expect([after.ino, after.mtimeNs]).toEqual([before.ino, before.mtimeNs]);
      expect(fs.existsSync(`${file}.lock`)).toBe(false);
      // Another writer changes the value in place, same size: its time changes, so it is read.
      // Its time is set to a round value half a second ago, as a coarse file system clock gives.
      const recent = new Date(Math.floor(Date.now() / 1000) * 1000 - 500);
      rewriteInPlace(file, fileText('tok', 'bbb'));
      fs.utimesSync(file, recent, recent);
      expect(JSON.parse(await cookies())).toEqual({ cookies: { tok: 'bbb' } });
      // Written again within the same clock tick: inode, size and time are all as they were.
      // A file that recent is never trusted to be unchanged, so it is read again.
      rewriteInPlace(file, fileText('tok', 'ccc'));
      fs.utimesSync(file, recent, recent);
      expect(JSON.parse(await cookies())).toEqual({ cookies: { tok: 'ccc' } });
      // A cookie the server sets is written, and the other writer's cookie is kept.
      await engine.conn.sendRequest('sheet/send', { text: `#\nGET ${api.url}/cookies/set?mine=1`, line: 2 });
      const saved = Object.fromEntries(parseNetscape(fs.readFileSync(file, 'utf8')).map((c) => [c.key, c.value]));
      expect(saved).toEqual({ tok: 'ccc', mine: '1' });
    } finally {
      await engine.close();
      await api.close();
    }
  });

  it('a missing cookie file is not created by a request that sets no cookie, and is by one that does', async () => {
    const d = tempDir('cookie-fast-missing-');
    dirs.push(d);
    const file = path.join(d, 'sub', 'jar');
    const api = await startApi();
    const engine = spawnEngine();
    try {
      await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false, settings: { cookieJarFile: file } });
      await engine.conn.sendRequest('sheet/send', { text: `#\nGET ${api.url}/small`, line: 2 });
      expect(fs.existsSync(file)).toBe(false);
      // Another process creates it: its cookie is sent.
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, fileText('other', 'x'));
      const r = (await engine.conn.sendRequest('sheet/send', { text: `#\nGET ${api.url}/cookies`, line: 2 })) as { presentation: { text: string } };
      expect(JSON.parse(r.presentation.text)).toEqual({ cookies: { other: 'x' } });
      await engine.conn.sendRequest('sheet/send', { text: `#\nGET ${api.url}/cookies/set?mine=2`, line: 2 });
      expect(parseNetscape(fs.readFileSync(file, 'utf8')).map((c) => `${c.key}=${c.value}`).sort()).toEqual(['mine=2', 'other=x']);
    } finally {
      await engine.close();
      await api.close();
    }
  });
});
