/**
 * A call without curl (`w=1`; docs/shell.md, "The daemon"): the shell sends its fields over a
 * connection it opened itself (bash: `/dev/tcp` to the loopback port, src/shell-verbs/loopback.ts;
 * zsh: `zsocket` on the Unix socket) and waits for one line of answer, so the call starts no
 * process at all. Nothing comes back on that connection but the answer: the daemon writes the
 * call's stdout and stderr into the shell's own files itself, through `/proc/PID/fd/1` and
 * `/proc/PID/fd/2`, as it already does for a pipe or a terminal stderr
 * (src/shell-verbs/caller-files.ts, src/shell-verbs/caller-stderr.ts).
 *
 * That is possible when writing through a second open file description cannot disturb the
 * shell: stdout a terminal, a character device (`/dev/null`), a pipe, or a regular file
 * written at the shell's offset (or appended to) whose offset the shell then moves by what the
 * status file says (`+N`, src/shell-verbs/caller-files.ts), and stderr one that
 * {@link callerStderr} allows. A socket cannot be opened at all, and a closed stdout is curl's
 * 23: the daemon then refuses the call before running it (409) and the shell sends it through
 * curl, as before. When stdout and
 * stderr are the same file (a terminal, `2>&1 |`), one writer serves both, so -v lines, an
 * error body and the body keep the order in which the call wrote them.
 */
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { type CallerOutput, callerFd, openCallerOutput, sameFile } from './caller-files.js';
import { callerStderr, openWriter } from './caller-stderr.js';

/** The call's two outputs, both the caller's own files; `close` settles when all is written. */
export interface WireOutputs {
  stdout: Writable;
  stderr: Writable;
  close: () => Promise<void>;
  /** A regular file as stdout: its writer, whose `advance` the status file reports. */
  file?: CallerOutput;
}

/**
 * The caller's (`pid`, a decimal string) stdout and stderr opened for a call without curl, or
 * undefined when one of them may not be written by the daemon (the call then goes through curl).
 * `outFd`: the caller's fd that is its stdout for the call (bash gives a copy, fd 8: its own
 * fd 1 is the connection while it writes the request).
 */
export function openWire(pid: string, outFd = 1): WireOutputs | undefined {
  const out = callerFd(pid, outFd);
  const err = callerStderr(pid);
  // A closed stdout is curl's 23 (a failed write), which curl's way gives.
  if (!out || !err || !(out.kind === 'device' || out.kind === 'pipe' || out.kind === 'file')) return undefined;
  const file = out.kind === 'file' ? openCallerOutput(pid, outFd) : undefined;
  const stdout = file ? { stream: file.stream, close: file.close } : out.kind === 'file' ? undefined : writerOf(pid, outFd, out.kind, out.path);
  if (!stdout) return undefined;
  // A closed stderr (`2>&-`) is not stdout's file, though neither can be compared.
  if (!(err.path === '/dev/null' && callerFd(pid, 2)?.kind === 'closed') && sameFile(pid, outFd, 2)) return { stdout: stdout.stream, stderr: stdout.stream, close: stdout.close, file };
  const stderr = isNull(err.path) ? discard() : openWriter(err);
  return {
    stdout: stdout.stream,
    stderr: stderr.stream,
    close: async () => {
      await Promise.all([stdout.close(), stderr.close()]);
    },
    file,
  };
}

/** The caller's stdout as a writer: a pipe through libuv's pipe handle, a device opened on its first byte, `/dev/null` dropped. */
function writerOf(pid: string, fd: number, kind: 'device' | 'pipe', path: string): { stream: Writable; close: () => Promise<void> } | undefined {
  if (isNull(path)) return discard();
  if (kind === 'pipe') {
    const o = openCallerOutput(pid, fd);
    return o && { stream: o.stream, close: o.close };
  }
  return openWriter({ path, flags: 'w' });
}

/** A writer that drops what it is given (`/dev/null`, a closed fd: curl's writes there fail quietly). */
function discard(): { stream: Writable; close: () => Promise<void> } {
  const stream = new Writable({ write: (_c, _e, cb) => cb() });
  return { stream, close: () => new Promise<void>((resolve) => stream.end(() => resolve())) };
}

/** `path` (a `/proc/PID/fd/N`, or `/dev/null` for a closed fd) is `/dev/null`. */
function isNull(path: string): boolean {
  try {
    return path === '/dev/null' || fs.readlinkSync(path) === '/dev/null';
  } catch {
    return false;
  }
}
