/**
 * The per-user engine daemon: one Node process that serves the shell verbs over a Unix socket,
 * so a verb costs one `curl --unix-socket` run instead of a Node start (docs/shell.md,
 * "The daemon").
 *
 * Protocol (HTTP/1.1 on the socket): `POST /run`, `multipart/form-data` with the fields
 *   a      one per argument of {@link run} (in order; curl --form-string keeps them literal)
 *   cwd    the caller's working directory
 *   PATH   the caller's PATH
 *   r      file to receive the exit status (decimal, newline)
 *   e      file to receive what goes to stderr (removed when there is nothing)
 *   stdin  (optional file part) the caller's standard input
 * The response is `200` with the stdout bytes as body, written after `r` and `e`, so when curl
 * exits both files are complete. `GET /ping` answers `pong`.
 *
 * Safety: the socket lives in a directory of mode 0700 owned by the user and is itself 0600;
 * the daemon refuses to start otherwise. It stops after `idleSeconds` without requests, when
 * its bundle file changes (a rebuilt engine), and on SIGTERM/SIGINT; it ignores SIGHUP so
 * closing the terminal that started it does not matter.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { closeConnections } from '../http/send.js';
import { EXIT, run } from './run.js';

export const SOCKET_NAME = 'engine.sock';

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

/** One part of a multipart/form-data body. */
export interface Part {
  name: string;
  filename?: string;
  data: Buffer;
}

/** Parse a multipart/form-data body (RFC 7578) as curl -F / --form-string writes it. */
export function parseMultipart(body: Buffer, contentType: string): Part[] {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) throw new Error('no multipart boundary');
  const delim = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: Part[] = [];
  let pos = body.indexOf(delim);
  while (pos >= 0) {
    let start = pos + delim.length;
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break; // closing delimiter
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    const headEnd = body.indexOf('\r\n\r\n', start);
    if (headEnd < 0) break;
    const head = body.subarray(start, headEnd).toString('utf8');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delim]), headEnd + 4);
    if (next < 0) break;
    const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    parts.push({ name, filename, data: body.subarray(headEnd + 4, next) });
    pos = next + 2;
  }
  return parts;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function handleRun(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const parts = parseMultipart(await readBody(req), req.headers['content-type'] ?? '');
  const argv: string[] = [];
  let cwd = '/';
  let pathEnv = process.env.PATH ?? '';
  let rFile: string | undefined;
  let eFile: string | undefined;
  let stdin: Buffer = Buffer.alloc(0);
  for (const p of parts) {
    const v = p.data.toString('utf8');
    if (p.name === 'a') argv.push(v);
    else if (p.name === 'cwd') cwd = v;
    else if (p.name === 'PATH') pathEnv = v;
    else if (p.name === 'r') rFile = v;
    else if (p.name === 'e') eFile = v;
    else if (p.name === 'stdin') stdin = Buffer.from(p.data);
  }
  const result = await run({ argv, cwd, pathEnv, readStdin: async () => stdin });
  const errBytes = Buffer.concat(result.stderr);
  if (eFile) {
    if (errBytes.length) await fs.promises.writeFile(eFile, errBytes, { mode: 0o600 });
    else await fs.promises.rm(eFile, { force: true });
  }
  if (rFile) await fs.promises.writeFile(rFile, `${result.code}\n`, { mode: 0o600 });
  const outBytes = Buffer.concat(result.stdout);
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': outBytes.length, 'X-Rest-Exit': String(result.code) });
  res.end(outBytes);
}

function probe(sock: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(sock);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** Remove per-call files (r.PID, e.PID, i.PID) left by shells more than a minute ago. */
function sweep(dir: string): void {
  const old = Date.now() - 60_000;
  try {
    for (const f of fs.readdirSync(dir)) {
      if (!/^[rei]\.\d+$/.test(f)) continue;
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

export interface DaemonOptions {
  dir: string;
  idleSeconds: number;
}

/**
 * Serve until idle. Resolves when the daemon stops (0) or could not start / another daemon
 * already serves the directory (0 as well: there is nothing for the caller to do).
 */
export async function runDaemon(opts: DaemonOptions): Promise<number> {
  ensurePrivateDir(opts.dir);
  const sock = path.join(opts.dir, SOCKET_NAME);
  const tmp = path.join(opts.dir, `engine.${process.pid}.sock`);
  const pidFile = path.join(opts.dir, 'engine.pid');
  const self = process.argv[1] ?? '';
  const selfMtime = () => {
    try {
      return fs.statSync(self).mtimeMs;
    } catch {
      return -1;
    }
  };
  const startedMtime = selfMtime();
  let lastCheck = Date.now();
  let stopping = false;

  let active = 0;
  const server = http.createServer((req, res) => {
    active++;
    touch();
    const done = () => {
      active--;
      touch();
      // A rebuilt engine bundle: finish this request, then let the next call start the new one.
      if (Date.now() - lastCheck > 1000) {
        lastCheck = Date.now();
        if (selfMtime() !== startedMtime) void stop();
      }
    };
    if (req.method === 'GET' && req.url === '/ping') {
      res.end('pong');
      done();
      return;
    }
    if (req.method !== 'POST' || !req.url?.startsWith('/run')) {
      res.writeHead(404).end();
      done();
      return;
    }
    handleRun(req, res)
      .catch((e) => {
        if (!res.headersSent) res.writeHead(500, { 'X-Rest-Exit': String(EXIT.failure) });
        res.end(`rest: engine daemon: ${e instanceof Error ? e.message : String(e)}\n`);
      })
      .finally(done);
  });
  server.keepAliveTimeout = 5000;

  const oldMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(tmp, resolve);
    });
  } finally {
    process.umask(oldMask);
  }
  fs.chmodSync(tmp, 0o600);
  // link() is atomic and fails when the name exists: exactly one daemon wins the name.
  for (;;) {
    try {
      fs.linkSync(tmp, sock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (await probe(sock)) {
        server.close();
        fs.rmSync(tmp, { force: true });
        return 0;
      }
      fs.rmSync(sock, { force: true });
    }
  }
  fs.rmSync(tmp, { force: true });
  const ino = fs.statSync(sock).ino;
  fs.writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });

  let timer: NodeJS.Timeout | undefined;
  function touch() {
    if (timer) clearTimeout(timer);
    // Never stop under a request in flight; look again after another idle period.
    timer = setTimeout(() => (active > 0 ? touch() : void stop()), opts.idleSeconds * 1000);
    timer.unref?.();
  }
  let resolveDone: (code: number) => void = () => undefined;
  const finished = new Promise<number>((r) => (resolveDone = r));
  async function stop(): Promise<void> {
    if (stopping) return;
    stopping = true;
    if (timer) clearTimeout(timer);
    try {
      // Remove the name only when it is still ours (a newer daemon may have taken it).
      if (fs.statSync(sock).ino === ino) fs.rmSync(sock, { force: true });
    } catch {
      /* gone */
    }
    try {
      if (fs.readFileSync(pidFile, 'utf8').trim() === String(process.pid)) fs.rmSync(pidFile, { force: true });
    } catch {
      /* gone */
    }
    sweep(opts.dir);
    process.off('SIGHUP', onHup);
    process.off('SIGTERM', onStop);
    process.off('SIGINT', onStop);
    server.close();
    server.closeAllConnections?.();
    await closeConnections();
    resolveDone(0);
  }
  const onHup = () => undefined;
  const onStop = () => void stop();
  process.on('SIGHUP', onHup);
  process.on('SIGTERM', onStop);
  process.on('SIGINT', onStop);
  touch();
  // Stop as soon as the socket is gone or replaced (directory removed, a newer daemon).
  const watchdog = setInterval(() => {
    try {
      if (fs.statSync(sock).ino !== ino) void stop();
    } catch {
      void stop();
    }
  }, 1000);
  watchdog.unref();
  const code = await finished;
  clearInterval(watchdog);
  return code;
}
