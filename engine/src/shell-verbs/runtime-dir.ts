/**
 * The daemon's runtime directory: private to the user, is a daemon already listening on its
 * socket, and the per-call files a killed shell left behind (src/shell-verbs/daemon.ts).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Settles true when something accepts a connection on the Unix socket `sock`. */
export function probe(sock: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(sock);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** Remove per-call files (s.*, e.*, i.*, t.*: shell/rest-wire's; r.* of older versions) a killed shell left over a minute ago. */
export function sweep(dir: string): void {
  const old = Date.now() - 60_000;
  try {
    for (const f of fs.readdirSync(dir)) {
      if (!/^[sreit]\.\d+(\.\d+)?$/.test(f)) continue;
      const p = path.join(dir, f);
      try {
        if (fs.lstatSync(p).mtimeMs < old) fs.rmSync(p, { force: true });
      } catch {
        /* gone */
      }
    }
  } catch {
    /* directory gone */
  }
}

/**
 * Check the runtime directory: it exists (the shell makes it; a daemon started late, after its
 * directory was removed, must not bring it back), is owned by us, has mode 0700 and is not a
 * symlink.
 */
export function ensurePrivateDir(dir: string): void {
  const st = fs.lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (uid !== undefined && st.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((st.mode & 0o077) !== 0) throw new Error(`${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)}); it must be 0700`);
}
