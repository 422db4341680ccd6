/**
 * The per-user engine daemon: one Node process that serves the shell verbs over a Unix socket,
 * so a verb costs one `curl --unix-socket` run instead of a Node start (docs/shell.md,
 * "The daemon").
 *
 * Protocol (HTTP/1.1 on the socket, and on a loopback port for bash with a token:
 * src/shell-verbs/loopback.ts): `POST /run`, one verb call (its fields and answer:
 * src/shell-verbs/daemon-call.ts); `POST /wire`, the same without curl (src/shell-verbs/wire.ts;
 * a daemon older than it answers 404 without running anything, and the shell uses curl); `POST /next` and `POST /wait`, the shell asking about its
 * call (src/shell-verbs/calls.ts); `GET /ping` answers `pong`. `POST /stop` (rest --stop)
 * answers the number of calls in flight and stops after them, or at once with `force=1`
 * (src/shell-verbs/stop.ts).
 *
 * Safety: the socket lives in a directory of mode 0700 owned by the user and is itself 0600;
 * the daemon refuses to start otherwise; `s` is created 0600. It stops after
 * `idleSeconds` without requests (a request in flight is aborted after another idle period),
 * when its bundle file changes (a rebuilt engine), on `POST /stop`, and on SIGTERM/SIGINT (calls
 * in flight are aborted); it ignores SIGHUP so closing the terminal that started it does not matter.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { closeConnections } from '../http/send.js';
import { decodeArg } from './bytes.js';
import { readFormRequest } from './urlencoded.js';
import { idleCollector, pressureCollector } from './idle-gc.js';
import { EXIT } from './run.js';
import { STOPPED } from './calls.js';
import { calls, handleRun, inFlight } from './daemon-call.js';
import { ensurePrivateDir, probe, sweep } from './runtime-dir.js';
import { PendingStop, readStopAsk } from './stop.js';
import { allowed, listenLoopback } from './loopback.js';

export const SOCKET_NAME = 'engine.sock';

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
  let stopping = false;
  let active = 0;
  const collect = idleCollector(() => active > 0);
  const watchBuffers = pressureCollector(() => active > 0);
  const pendingStop = new PendingStop(() => void stop());
  // The idle clock: one timer that looks at the time of the last request when it fires,
  // re-armed for what is left, instead of a timer made and cleared twice per call.
  const idleMs = opts.idleSeconds * 1000;
  let lastActive = performance.now();
  let timer: NodeJS.Timeout | undefined;
  let loop: { close: () => void } | undefined;
  const server = http.createServer((req, res) => {
    active++;
    touch();
    watchBuffers.start();
    const done = () => {
      active--;
      touch();
      if (active === 0) {
        watchBuffers.stop();
        collect();
      }
      pendingStop.settled(active);
    };
    if (!allowed(req)) {
      // The loopback port without the token (src/shell-verbs/loopback.ts): refused once the
      // request is read, so the answer is not lost to a reset.
      req.resume().once('end', () => res.writeHead(403, { 'Content-Length': '0', Connection: 'close' }).end());
      done();
      return;
    }
    if (req.method === 'GET' && req.url === '/ping') {
      res.end('pong');
      done();
      return;
    }
    if (req.method === 'POST' && (req.url === '/next' || req.url === '/wait')) {
      // The shell asks about its call (src/shell-verbs/calls.ts): the next output segment, or the status.
      const url = req.url;
      readFormRequest(req)
        .then((fields) => {
          const f = fields.find((x) => x.name === 's');
          const sFile = f ? decodeArg(f.data) : '';
          return url === '/next' ? calls.next(sFile, res) : calls.wait(sFile, res);
        })
        .catch(() => res.destroy())
        .finally(done);
      return;
    }
    if (req.method === 'POST' && req.url === '/stop') {
      // rest --stop: how many calls run, then stop after them (or now); src/shell-verbs/stop.ts.
      readFormRequest(req)
        .then((fields) => {
          const ask = readStopAsk(fields);
          const running = inFlight.size;
          res.end(`${running}\n`, () => pendingStop.ask(ask, running));
        })
        .catch(() => res.destroy())
        .finally(done);
      return;
    }
    if (req.method !== 'POST' || !(req.url?.startsWith('/run') || req.url === '/wire')) {
      res.writeHead(404).end();
      done();
      return;
    }
    handleRun(req, res)
      .catch((e) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'X-Rest-Exit': String(EXIT.failure) });
          res.end(`rest: engine daemon: ${e instanceof Error ? e.message : String(e)}\n`);
        } else res.destroy();
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
  // Written whole under another name, then renamed: a reader (rest --stop, a test) never sees
  // it empty.
  const pidTmp = `${pidFile}.${process.pid}`;
  fs.writeFileSync(pidTmp, `${process.pid}\n`, { mode: 0o600 });
  fs.renameSync(pidTmp, pidFile);
  // bash's calls without curl (src/shell-verbs/loopback.ts); without it, bash's calls use curl.
  loop = await listenLoopback(server, opts.dir).catch(() => undefined);
  if (stopping) loop?.close();

  function touch() {
    lastActive = performance.now();
  }
  function arm(ms: number) {
    timer = setTimeout(() => {
      const left = idleMs - (performance.now() - lastActive);
      // Never stop under a request in flight; look again after another idle period.
      // (A call whose caller went away was aborted when its socket closed.)
      if (left > 0) arm(left);
      else if (active > 0) {
        touch();
        arm(idleMs);
      } else void stop();
    }, ms);
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
    loop?.close();
    sweep(opts.dir);
    for (const ac of inFlight) ac.abort(STOPPED);
    process.off('SIGHUP', onHup);
    process.off('SIGTERM', onStop);
    process.off('SIGINT', onStop);
    server.close();
    server.closeAllConnections?.();
    // Pooled upstream connections close; a stuck one does not hold the stop (the caller exits).
    await Promise.race([closeConnections(), new Promise((r) => setTimeout(r, 500).unref())]);
    resolveDone(0);
  }
  const onHup = () => undefined;
  const onStop = () => void stop();
  process.on('SIGHUP', onHup);
  process.on('SIGTERM', onStop);
  process.on('SIGINT', onStop);
  arm(idleMs);
  // Stop once the socket is gone or replaced (a newer daemon), or, idle, the bundle changed (a
  // rebuild: the calls in flight finish first, and the next call starts the new engine).
  const watchdog = setInterval(() => {
    try {
      if (fs.statSync(sock).ino !== ino || (active === 0 && selfMtime() !== startedMtime)) void stop();
    } catch {
      void stop();
    }
  }, 1000);
  watchdog.unref();
  const code = await finished;
  clearInterval(watchdog);
  return code;
}
