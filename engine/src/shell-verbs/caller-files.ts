/**
 * The calling shell's own open files, opened by the daemon through `/proc/PID/fd/N`
 * (docs/shell.md, "The engine daemon"; issue 21). The daemon runs as the caller's user on the
 * same machine, and the kernel lets a process open another's `/proc/PID/fd/N` only when it
 * may trace it (the same user), so nothing new is reachable; what this buys is that a body
 * whose source or destination is a regular file crosses one process (the daemon), as with
 * curl, instead of the shell's curl, the Unix socket and the daemon. A pipe as stdin or stdout is
 * opened the same way (it needs no offset).
 *
 * Opening `/proc/PID/fd/N` of a regular file makes a new open file description: its offset
 * is not the shell's. So the daemon reads and writes at the shell's offset (the `pos:` of
 * `/proc/PID/fdinfo/N`) and tells the shell how far to move its own (the call's status file,
 * src/shell-verbs/daemon.ts; the shell moves it with `dd seek=`/`skip=` and `count=0`), so
 * `{ echo a; GET /x; echo b; } > f` comes out as a, the body, b; a file opened for appending
 * (`>>`) is written with O_APPEND and needs no move. A pipe as stdout has no offset and is
 * written as it is ({@link openCallerOutput}). Anything else (a terminal, a socket, no
 * `/proc`, a file the daemon cannot open) is `undefined` here and goes through the shell's
 * curl as before (src/shell-verbs/relay.ts).
 */
import fs from 'node:fs';
import net from 'node:net';
import { Readable, Writable } from 'node:stream';
import type { Outputs } from './output.js';

/** What the caller has as fd N. */
export interface CallerFd {
  /** `/proc/PID/fd/N` (`/dev/null` for a closed fd). */
  path: string;
  kind: 'closed' | 'device' | 'pipe' | 'file' | 'other';
  /** Opened with O_APPEND (`>>`). */
  append: boolean;
  /** The shell's offset in bytes (regular files). */
  pos: number;
  /** The file's size in bytes (regular files). */
  size: number;
}

/** O_APPEND in `/proc/PID/fdinfo/N`'s octal `flags:` (asm-generic/fcntl.h). */
const O_APPEND = 0o2000;

/**
 * fd `fd` of the process `pid` (a decimal string from the call's `ep` field), or undefined
 * when it cannot be told (not Linux, no such process, another user's).
 */
export function callerFd(pid: string, fd: number): CallerFd | undefined {
  if (process.platform !== 'linux' || !/^\d+$/.test(pid)) return undefined;
  const path = `/proc/${pid}/fd/${fd}`;
  try {
    // One stat (a call asks for fds 1 and 2 on every verb call), a second look only when missing.
    const st = fs.statSync(path, { throwIfNoEntry: false });
    if (!st) return fs.existsSync(`/proc/${pid}/fd`) ? { path: '/dev/null', kind: 'closed', append: false, pos: 0, size: 0 } : undefined;
    const kind = st.isCharacterDevice() ? 'device' : st.isFIFO() ? 'pipe' : st.isFile() ? 'file' : 'other';
    if (kind !== 'file') return { path, kind, append: false, pos: 0, size: 0 };
    const info = fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'latin1');
    const flags = /^flags:\s*([0-7]+)/m.exec(info);
    const pos = /^pos:\s*(\d+)/m.exec(info);
    if (!flags || !pos) return undefined;
    return { path, kind, append: (parseInt(flags[1]!, 8) & O_APPEND) !== 0, pos: Number(pos[1]), size: st.size };
  } catch {
    return undefined;
  }
}

/**
 * fds `a` and `b` of the caller are the same file (`> f 2>&1`): its stdout may then not be
 * written by the daemon while its stderr is relayed, which moves the shared offset under it.
 */
export function sameFile(pid: string, a: number, b: number): boolean {
  try {
    const x = fs.statSync(`/proc/${pid}/fd/${a}`);
    const y = fs.statSync(`/proc/${pid}/fd/${b}`);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return true;
  }
}

/**
 * A body with a Content-Length under this many bytes goes to a file stdout through the
 * shell's curl: moving the shell's offset afterwards costs a `dd` process (a few ms), more
 * than such a body costs through the socket (issue 21: 50 `GET /small > file`, 19-25 ->
 * 30-33 ms a call when every body was written directly).
 */
export const DIRECT_FILE_MIN = 256 * 1024;

/** `fs.openSync(path, flags)`, or undefined when the file cannot be opened (the caller then relays). */
function openOrNone(path: string, flags: number): number | undefined {
  try {
    return fs.openSync(path, flags);
  } catch {
    return undefined;
  }
}

/** The caller's stdout as a file the daemon writes itself (see the file comment). */
export interface CallerOutput {
  stream: Writable;
  /** Bytes written so far. */
  written: () => number;
  /** How far the shell must move its own offset afterwards (0 when appending). */
  advance: () => number;
  /** Settles when every byte is in the file and the file is closed. */
  close: () => Promise<void>;
}

/**
 * The caller's fd `fd` opened for writing when it is a regular file, at the shell's offset
 * (or appending), or a pipe; undefined otherwise, or when it cannot be opened (the caller relays).
 * Writes are positioned (pwrite), so the file is never truncated or grown beyond what is written.
 */
export function openCallerOutput(pid: string, fd: number): CallerOutput | undefined {
  const f = callerFd(pid, fd);
  if (f?.kind === 'pipe') return openCallerPipe(f.path);
  if (!f || f.kind !== 'file') return undefined;
  const handle = openOrNone(f.path, fs.constants.O_WRONLY | (f.append ? fs.constants.O_APPEND : 0));
  if (handle === undefined) return undefined;
  let written = 0;
  // Synchronous positioned writes, as curl writes its output: a write into the page cache is
  // shorter than the thread pool's round trip, and async writes made a 1 GB download 1.6-1.9x
  // slower than these (docs/benchmarks.md, "Shell verbs"). A file on a stalled network file
  // system holds the daemon's other calls for that long; docs/shell.md says so.
  const put = (chunks: Buffer[], cb: (e?: Error | null) => void) => {
    let rest = chunks;
    try {
      for (;;) {
        const n = fs.writevSync(handle, rest, f.append ? undefined : f.pos + written);
        written += n;
        const want = rest.reduce((a, c) => a + c.length, 0);
        if (n >= want) break;
        // A short write (a full disk after part of it): the rest, or the error it meets.
        rest = [Buffer.concat(rest).subarray(n)];
      }
    } catch (e) {
      return cb(e as Error);
    }
    cb();
  };
  const stream = new Writable({
    highWaterMark: 256 * 1024,
    write: (c: Buffer, _e, cb) => put([c], cb),
    writev: (cs, cb) => put(cs.map((x) => x.chunk as Buffer), cb),
  });
  // The descriptor is closed with the stream (after its last write, or on an error).
  const fileClosed = new Promise<void>((resolve) => stream.once('close', () => fs.close(handle, () => resolve())));
  const close = async () => {
    if (!stream.destroyed && !stream.writableEnded) stream.end();
    await fileClosed;
  };
  return { stream, written: () => written, advance: () => (f.append ? 0 : written), close };
}

/**
 * A pipe of the caller opened for writing: no offset to keep, and the bytes reach the reader
 * in the order written, before and after the shell's own. Opened without blocking (a pipe
 * whose reader has gone would block the open for ever: ENXIO, undefined, the relay) and
 * written through libuv's pipe handle, which waits for room as process.stdout does. A reader
 * that leaves fails the writes (EPIPE), which the writer (src/shell-verbs/output.ts) turns
 * into curl's status, as in the direct mode.
 */
function openCallerPipe(path: string): CallerOutput | undefined {
  const handle = openOrNone(path, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  if (handle === undefined) return undefined;
  let written = 0;
  const sock = new net.Socket({ fd: handle, readable: false, writable: true });
  sock.on('error', () => undefined);
  const stream = new Writable({
    highWaterMark: 256 * 1024,
    write: (c: Buffer, _e, cb) => {
      if (sock.destroyed) return cb(new Error('output closed'));
      written += c.length;
      if (sock.write(c)) return cb();
      const done = (e?: Error) => {
        sock.off('drain', done);
        sock.off('close', gone);
        cb(e);
      };
      const gone = () => done(new Error('output closed'));
      sock.once('drain', done);
      sock.once('close', gone);
    },
    final: (cb) => sock.end(() => cb()),
  });
  const closed = new Promise<void>((resolve) => sock.once('close', () => resolve()));
  // A reader gone: the writer's error, then the descriptor closed.
  sock.once('error', (e) => stream.destroy(e));
  stream.on('error', () => undefined);
  const close = async () => {
    if (!stream.destroyed && !stream.writableEnded) stream.end();
    await new Promise<void>((resolve) => (stream.writableFinished || stream.destroyed ? resolve() : stream.once('finish', resolve).once('close', resolve)));
    sock.destroy();
    await closed;
  };
  return { stream, written: () => written, advance: () => 0, close };
}

/**
 * Set `outputs.pick` so that a 2xx body goes into the caller's stdout `fd` (from
 * {@link callerFd}; undefined: never) written by the daemon itself: a pipe always, a
 * regular file unless the body's length is under {@link DIRECT_FILE_MIN}. Returns the
 * writer once it is open (for closing it and for {@link offsetLines}).
 */
export function pickCallerStdout(pid: string, fd: CallerFd | undefined, outputs: Outputs): () => CallerOutput | undefined {
  let out: CallerOutput | undefined;
  outputs.pick = (length) => {
    if (out || !fd || (fd.kind === 'file' && length !== undefined && length < DIRECT_FILE_MIN)) return;
    out = openCallerOutput(pid, 1);
    if (out) outputs.stdout = out.stream;
  };
  return () => out;
}

/** The caller's stdin read by the daemon itself (see the file comment). */
export interface CallerInput {
  /** The bytes from the shell's offset to the end of the file (or of the pipe), read as they are sent. */
  stream: Readable;
  /** Their number for a regular file (a Content-Length, as curl's `-T file`); undefined for a pipe (chunked, as curl's `-T -`). */
  size?: number;
  /** Bytes read so far from a regular file: how far the shell moves its own offset afterwards (0 for a pipe, which has no offset). */
  consumed: () => number;
}

/**
 * The caller's fd `fd` opened for reading: a regular file from the shell's offset, or a pipe
 * (`cat big | PUT /x`: the bytes cross the daemon alone instead of the shell's curl and the
 * socket too; issue 21); undefined otherwise or when it cannot be opened (the caller relays).
 */
export function openCallerInput(pid: string, fd: number): CallerInput | undefined {
  const f = callerFd(pid, fd);
  if (f?.kind === 'pipe') return openCallerPipeInput(f.path);
  if (!f || f.kind !== 'file') return undefined;
  const handle = openOrNone(f.path, fs.constants.O_RDONLY);
  if (handle === undefined) return undefined;
  const size = Math.max(0, f.size - f.pos);
  if (size === 0) {
    fs.closeSync(handle);
    return { stream: Readable.from([]), size, consumed: () => 0 };
  }
  const stream = fs.createReadStream('', { fd: handle, start: f.pos, end: f.pos + size - 1, highWaterMark: 1 << 20 });
  return { stream, size, consumed: () => stream.bytesRead };
}

/**
 * A pipe of the caller opened for reading. Without blocking: opening a pipe's read end blocks
 * until it has a writer, and the writer may already have written its last byte and gone (then
 * the bytes left in the pipe are read, then its end). Read through libuv's pipe handle, which
 * waits for bytes without holding the daemon's other calls. The shell's own description of the
 * pipe is not changed (O_NONBLOCK belongs to this new one).
 */
function openCallerPipeInput(path: string): CallerInput | undefined {
  const handle = openOrNone(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  if (handle === undefined) return undefined;
  const stream = new net.Socket({ fd: handle, readable: true, writable: false });
  return { stream, consumed: () => 0 };
}

/** `/dev/fd/N`, `/dev/stdin` and the like: names that mean the process's own open files. */
const OWN_FD = /^(?:\/dev\/fd\/(\d+)|\/proc\/self\/fd\/(\d+)|\/dev\/(stdin|stdout|stderr))$/;

/**
 * A file name as the caller meant it: `/dev/fd/N`, `/proc/self/fd/N` (bash's and zsh's
 * `<(...)`, `--netrc-file <(printf ...)`) and `/dev/stdin|stdout|stderr` name the caller's
 * open files, which the daemon reaches as `/proc/PID/fd/N`; any other name is returned as is.
 */
export function callerPath(name: string, pid: string | undefined): string {
  if (!pid || !/^\d+$/.test(pid)) return name;
  const m = OWN_FD.exec(name);
  if (!m) return name;
  const fd = m[1] ?? m[2] ?? String(['stdin', 'stdout', 'stderr'].indexOf(m[3]!));
  return `/proc/${pid}/fd/${fd}`;
}

/**
 * The lines of the call's status file that tell the shell how far to move its own offsets
 * after the call: `+N` for stdout, `<N` for stdin (bytes), before the exit status line
 * (shell/rest-daemon, `_rest_daemon_rest`). Empty when nothing moved.
 */
export function offsetLines(out: CallerOutput | undefined, input: CallerInput | undefined): string {
  const o = out?.advance() ?? 0;
  const i = input?.consumed() ?? 0;
  return `${o > 0 ? `+${o}\n` : ''}${i > 0 ? `<${i}\n` : ''}`;
}
