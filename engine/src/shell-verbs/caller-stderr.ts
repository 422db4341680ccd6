/**
 * The daemon's way to the caller's own standard error (docs/shell.md, "The engine daemon"): a
 * call's stderr (a non-2xx body, -v lines, messages) is written straight to the file the
 * calling shell has as fd 2, through `/proc/PID/fd/2`, instead of a file in the runtime
 * directory that the shell prints afterwards. So a 300 MB error body streams to the terminal
 * (or pipe) as it arrives, as curl's does, and never fills the runtime directory (a small
 * tmpfs on most systems; issue 30).
 *
 * The daemon runs as the caller's user on the same machine; the kernel lets a process open
 * another's `/proc/PID/fd/N` only when it may trace it (the same user), so nothing new is
 * reachable. Used only where writing through a second open file description cannot disturb
 * the shell: a terminal, a pipe or a character device (`/dev/null`), or a regular file the
 * shell opened for appending (`2>>log`); a closed stderr (`2>&-`) is `/dev/null`. Elsewhere
 * (a regular file opened with `2>file`, whose offset only the shell's own descriptor moves; a
 * socket; no `/proc`) the caller gets `undefined`, and the daemon relays stderr through the
 * shell's own curl (src/shell-verbs/relay.ts).
 */
import fs from 'node:fs';
import { callerFd } from './caller-files.js';
import { Writable } from 'node:stream';

/** The `fs.open` flags for the caller's stderr, or undefined when it must not be opened directly. */
export function callerStderr(pid: string): { path: string; flags: string } | undefined {
  const f = callerFd(pid, 2);
  // A closed stderr (`2>&-`) is /dev/null: its bytes go nowhere, as curl's writes to it fail quietly.
  if (f?.kind === 'closed' || f?.kind === 'device' || f?.kind === 'pipe') return { path: f.path, flags: 'w' };
  // O_APPEND: every write goes to the end anyway.
  return f?.kind === 'file' && f.append ? { path: f.path, flags: 'a' } : undefined;
}

/**
 * The caller's stderr as a Writable, opened on the first byte (no bytes, nothing opened), or
 * undefined when {@link callerStderr} says it must not be opened. A write is done once its
 * bytes are in the file, not when buffered: on the caller's own terminal, -v lines must be
 * there before the body that the caller's curl writes next. `close` settles when all is written.
 */
export function openCallerStderr(pid: string): { stream: Writable; close: () => Promise<void> } | undefined {
  const target = callerStderr(pid);
  return target ? openWriter(target) : undefined;
}

/**
 * A file of the caller (`path`, a `/proc/PID/fd/N`, opened with `flags`) as a Writable, opened
 * on the first byte; a write is done once its bytes are in the file (see {@link openCallerStderr}).
 */
export function openWriter(target: { path: string; flags: string }): { stream: Writable; close: () => Promise<void> } {
  let ws: fs.WriteStream | undefined;
  const stream = new Writable({
    write(c: Buffer, _e, cb) {
      ws ??= fs.createWriteStream(target.path, { flags: target.flags }).on('error', () => undefined);
      ws.write(c, (e) => cb(e ?? null));
    },
  }).on('error', () => undefined); // a reader gone (EPIPE) fails the writes, not the daemon
  const close = async () => {
    await new Promise<void>((resolve) => stream.end(() => resolve()));
    if (ws) await new Promise<void>((resolve) => ws!.end(() => resolve()));
  };
  return { stream, close };
}
