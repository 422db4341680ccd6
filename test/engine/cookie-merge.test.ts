// The cookie file's merge rule (engine/src/http/cookies.ts, docs/reliability.md): a save keeps
// what others wrote since the jar last read the file and writes what the jar changed, additions
// and removals alike; a failed save is a warning; a stale lock does not block.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadJar, parseNetscape, refreshJar, saveJar, trySaveJar } from '../../engine/src/http/cookies.js';
import { spawnEngine, startApi, tempDir } from './helpers.js';

const URL1 = 'http://127.0.0.1:8080/';
const dirs: string[] = [];

function jarFile(): string {
  const d = tempDir('cookie-merge-');
  dirs.push(d);
  return path.join(d, 'sub', 'c');
}

function names(file: string): Record<string, string> {
  return Object.fromEntries(parseNetscape(fs.readFileSync(file, 'utf8')).map((c) => [c.key, c.value]));
}

afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('cookie file merge', () => {
  it('two jars that read the same file both keep their new cookies', async () => {
    const file = jarFile();
    const a = await loadJar(file);
    const b = await loadJar(file);
    await a.setCookie('a=1; Path=/', URL1);
    await b.setCookie('b=2; Path=/', URL1);
    await Promise.all([saveJar(a, file), saveJar(b, file)]);
    expect(names(file)).toEqual({ a: '1', b: '2' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('a file curl has truncated for an instant (before its rename) does not make a save drop the cookies', async () => {
    const file = jarFile();
    const first = await loadJar(file);
    await first.setCookie('kept=1; Path=/', URL1);
    await saveJar(first, file);
    const full = fs.readFileSync(file);
    const jar = await loadJar(file);
    await jar.setCookie('mine=2; Path=/', URL1);
    // What curl 7.88 does when it writes the jar: fopen(name, "w") truncates, then its new file is renamed over.
    fs.truncateSync(file, 0);
    const back = setTimeout(() => {
      fs.writeFileSync(`${file}.curl`, full);
      fs.renameSync(`${file}.curl`, file);
    }, 40);
    await saveJar(jar, file);
    clearTimeout(back);
    expect(names(file)).toEqual({ kept: '1', mine: '2' });
  });

  it('a removal is written, and a cookie another writer removed stays removed', async () => {
    const file = jarFile();
    const first = await loadJar(file);
    await first.setCookie('x=1; Path=/', URL1);
    await first.setCookie('y=1; Path=/', URL1);
    await saveJar(first, file);
    const a = await loadJar(file);
    const b = await loadJar(file);
    // The server deletes x for b (Max-Age=0); a only adds z.
    await b.setCookie('x=; Path=/; Max-Age=0', URL1);
    await saveJar(b, file);
    await a.setCookie('z=3; Path=/', URL1);
    await saveJar(a, file);
    expect(names(file)).toEqual({ y: '1', z: '3' });
    // a now holds the merged cookies too.
    expect((await a.getCookies(URL1)).map((c) => c.key).sort()).toEqual(['y', 'z']);
  });

  it('what curl wrote after the jar read the file is kept and taken into the jar', async () => {
    const file = jarFile();
    const a = await loadJar(file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tfromcurl\tc\n');
    await a.setCookie('mine=m; Path=/', URL1);
    await saveJar(a, file);
    expect(names(file)).toEqual({ fromcurl: 'c', mine: 'm' });
    expect((await a.getCookies(URL1)).map((c) => c.key).sort()).toEqual(['fromcurl', 'mine']);
  });

  it('refreshJar takes over others\u2019 changes; the jar\u2019s own change of the same cookie wins', async () => {
    const file = jarFile();
    const seed = await loadJar(file);
    await seed.setCookie('s=old; Path=/', URL1);
    await seed.setCookie('t=old; Path=/', URL1);
    await saveJar(seed, file);
    const a = await loadJar(file);
    const b = await loadJar(file);
    await b.setCookie('s=theirs; Path=/', URL1);
    await b.setCookie('t=theirs; Path=/', URL1);
    await b.setCookie('new=n; Path=/', URL1);
    await saveJar(b, file);
    await a.setCookie('t=mine; Path=/', URL1);
    await refreshJar(a, file);
    const got = Object.fromEntries((await a.getCookies(URL1)).map((c) => [c.key, c.value]));
    expect(got).toEqual({ s: 'theirs', t: 'mine', new: 'n' });
    await saveJar(a, file);
    expect(names(file)).toEqual({ s: 'theirs', t: 'mine', new: 'n' });
  });

  it('-j (junkSession) drops session cookies from the file at the next save', async () => {
    const file = jarFile();
    const seed = await loadJar(file);
    await seed.setCookie('session=1; Path=/', URL1);
    await seed.setCookie('keep=1; Path=/; Max-Age=3600', URL1);
    await saveJar(seed, file);
    const j = await loadJar(file, true);
    await saveJar(j, file);
    expect(names(file)).toEqual({ keep: '1' });
  });

  it('a stale lock left by a killed writer does not block a save', async () => {
    const file = jarFile();
    fs.mkdirSync(`${file}.lock`, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, old, old);
    const a = await loadJar(file);
    await a.setCookie('after=1; Path=/', URL1);
    await saveJar(a, file);
    expect(names(file)).toEqual({ after: '1' });
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('a save that cannot be written is a warning naming the file, not an error', async () => {
    const d = tempDir('cookie-merge-ro-');
    dirs.push(d);
    const blocker = path.join(d, 'not-a-dir');
    fs.writeFileSync(blocker, '');
    const file = path.join(blocker, 'c');
    const a = await loadJar(null);
    await a.setCookie('x=1; Path=/', URL1);
    const warning = await trySaveJar(a, file);
    expect(warning).toContain(file);
    expect(warning).toContain('the request itself was sent');
    expect(await trySaveJar(a, path.join(d, 'ok'))).toBeNull();
  });

  it('sheet/send whose cookies cannot be saved: the response, with a cookie-jar-unwritable warning', async () => {
    const d = tempDir('cookie-merge-rpc-');
    dirs.push(d);
    const file = path.join(d, 'sub', 'c');
    const api = await startApi();
    const engine = spawnEngine();
    try {
      await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false, settings: { cookieJarFile: file } });
      // The jar's directory becomes a file after the jar was opened.
      fs.writeFileSync(path.join(d, 'sub'), 'x');
      const r = (await engine.conn.sendRequest('sheet/send', { text: `#\nGET ${api.url}/cookies/set?a=1`, line: 2 })) as {
        response: { status: number };
        hooks: { warnings: { line: number; code: string; message: string }[] };
      };
      expect(r.response.status).toBe(200);
      expect(r.hooks.warnings).toEqual([{ line: 2, code: 'cookie-jar-unwritable', message: expect.stringContaining(`cookies not saved to ${file}`) }]);
    } finally {
      await engine.close();
      await api.close();
    }
  });
});
