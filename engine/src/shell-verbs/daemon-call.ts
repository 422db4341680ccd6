/**
 * One `POST /run` of the per-user engine daemon (src/shell-verbs/daemon.ts; docs/shell.md,
 * "The daemon"): the call's fields in, the request run through {@link run}, its stdout and
 * stderr out, its status file written when there is something to say.
 *
 * The request body is `multipart/form-data`, read as a stream (src/shell-verbs/multipart.ts),
 * or `application/x-www-form-urlencoded` when there is no `stdin` part
 * (src/shell-verbs/urlencoded.ts), with the fields
 *   a      one per argument of {@link run} (in order; curl --form-string keeps the bytes)
 *   cwd    the caller's working directory
 *   PATH   the caller's PATH
 *   HOME, CURL_CA_BUNDLE, SSL_CERT_FILE, NODE_EXTRA_CA_CERTS  the caller's, when set (where `-n`
 *          finds `.netrc`; the authorities; src/shell-verbs/caller-env.ts)
 *   s      the call's status file: written only when there is something to say, its exit
 *          status (decimal, newline) when it is not 0, or `>1` / `>2` when the output goes on
 *          in another segment (below)
 *   ep     the calling shell's PID: its fd 2 is written directly when that is safe
 *          (src/shell-verbs/caller-stderr.ts)
 *   tty    "1" when the caller's stdout is a terminal, "12" when stderr is one too, "2" when
 *          only stderr is (anything else: neither)
 *   io     "1": the shell moves its own offsets by the `+N` / `<N` lines of `s` (below), so
 *          a stdout that is a regular file or a pipe is written by the daemon itself
 *   in     "0": the body is the caller's fd 0, a regular file the daemon reads itself
 *   t      with `POST /wire` from bash: its `t.PID` file (bash's SIGPIPE trap, written by
 *          `trap -p` and read back before the request is sent; shell/rest-wire), removed by the daemon
 *   o      with `POST /wire`: the caller's fd that is its stdout for the call (default 1; bash's is a
 *          copy, its fd 1 being the connection while it writes)
 *   stdin  (optional, last, file part) the caller's standard input, streamed to the request
 * and, one header `X-Rest-Env: NAME=VALUE` each, the caller's proxy variables that are set (the
 * daemon's own are never used; src/shell-verbs/caller-env.ts).
 * `POST /wire` is a call without curl (src/shell-verbs/wire.ts), the same fields: the daemon
 * writes both outputs into the caller's files itself, or answers 409 at once, before running
 * anything, when it may not (the shell then sends the call through curl, `POST /run`); its
 * answer is `200 Wired` once the call has ended, its body what `s` would hold (empty for a
 * quiet 2xx), and `s` is never written.
 * The response to `POST /run` is `200`, chunked, with the stdout bytes as they arrive from the server; `s` is
 * complete before the response ends, so a 2xx call leaves no file at all; the shell reads and
 * removes `s` when it exists. With `io`, a stdout that is a regular file (at the shell's
 * offset) or a pipe is written by the daemon, and `in` has it read the body from the
 * shell's stdin, so a body from or to a file crosses one process
 * (src/shell-verbs/caller-files.ts); `s` then starts with `+N` (stdout) and `<N` (stdin):
 * how far the shell moves its offsets. stderr (messages, -v lines, a non-2xx body) goes straight to the
 * caller's fd 2 when the daemon may open it (a terminal, a pipe, `/dev/null`, a file opened
 * for appending); otherwise both streams are relayed in segments, each the response to one curl
 * of the shell, which points it at its fd 1 or fd 2 (`>N` in `s`, then `POST /next`;
 * src/shell-verbs/relay.ts). Nothing is spooled in the runtime directory. A caller that goes away
 * (curl killed) closes the socket: the upstream request is aborted; a stdout reader that left
 * part-way through the body is curl's exit 23 or not by curl's rule, which `POST /wait`
 * answers (src/shell-verbs/calls.ts, src/shell-verbs/output.ts).
 */
import { buffer } from 'node:stream/consumers';
import fs from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import { Readable, Writable } from 'node:stream';
import { decodeArg } from './bytes.js';
import { readRunRequest } from './multipart.js';
import { readFormRequest } from './urlencoded.js';
import { BIG_CALL_BYTES, collectAfterBig } from './idle-gc.js';
import { EXIT, run } from './run.js';
import { openCallerStderr } from './caller-stderr.js';
import { type CallerInput, callerFd, offsetLines, openCallerInput, pickCallerStdout, sameFile } from './caller-files.js';
import type { Outputs } from './output.js';
import { EngineError } from '../errors.js';
import { FIELD_VARIABLES, callerEnv } from './caller-env.js';
import { Relay } from './relay.js';
import { Calls, STOPPED, type Call } from './calls.js';
import { openWire } from './wire.js';

/** Calls in flight, to abort them when the daemon stops. */
export const inFlight = new Set<AbortController>();

/** Calls by their status file, for the shell's `/next` and `/wait` (src/shell-verbs/calls.ts). */
export const calls = new Calls();

/**
 * How long a call whose stdout reader left part-way through the body keeps reading (to tell
 * curl's exit status, src/shell-verbs/output.ts) without the shell's `/wait`: a killed shell never asks.
 */
const WAIT_GRACE_MS = 2000;

/**
 * Serve one `POST /run` (the fields above) on `res`. Resolves when the call has ended and its
 * status is in `s` (or the relay's last segment); the response is ended then.
 * @throws what reading the fields throws (a malformed request): the server answers 500.
 */
export async function handleRun(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const cl = req.headers['content-length'] !== undefined ? Number(req.headers['content-length']) : undefined;
  const type = req.headers['content-type'] ?? '';
  // Without a body to stream the fields come urlencoded (cheaper for curl), else as multipart.
  const { fields, stdin } = /^application\/x-www-form-urlencoded/i.test(type) ? { fields: await readFormRequest(req), stdin: undefined } : await readRunRequest(req, type, cl);
  const argv: string[] = [];
  let cwd = '/';
  let pathEnv = process.env.PATH ?? '';
  const env = callerEnv(req.rawHeaders);
  let sFile: string | undefined;
  let callerPid = '';
  let tty = false;
  let ttyErr = false;
  let io = false;
  let inFd = false;
  // POST /wire: a call without curl (src/shell-verbs/wire.ts).
  const wire = req.url === '/wire';
  let wireOut = 1;
  let trapFile = '';
  for (const f of fields) {
    const v = decodeArg(f.data);
    if (f.name === 'a') argv.push(v);
    else if (f.name === 'cwd') cwd = v;
    else if (f.name === 'PATH') pathEnv = v;
    else if (FIELD_VARIABLES.has(f.name)) env[f.name] = v;
    else if (f.name === 's') sFile = v;
    else if (f.name === 'ep') callerPid = v;
    else if (f.name === 'io') io = v === '1';
    else if (f.name === 'in') inFd = v === '0';
    else if (f.name === 'o' && /^[0-9]$/.test(v)) wireOut = Number(v);
    else if (f.name === 't') trapFile = v;
    else if (f.name === 'tty') {
      tty = v === '1' || v === '12';
      ttyErr = v === '2' || v === '12';
    }
  }
  // bash's saved SIGPIPE trap, read back before the request was sent (shell/rest-wire): a
  // `t.PID` beside the status file, removed now.
  if (trapFile && sFile && /^t\.\d+$/.test(path.basename(trapFile)) && path.dirname(trapFile) === path.dirname(sFile)) fs.rm(trapFile, () => undefined);
  // Without curl: both outputs the caller's own files, or curl's way (409, nothing run).
  const wired = wire && sFile ? openWire(callerPid, wireOut) : undefined;
  if (wire && !wired) {
    stdin?.stream.resume();
    res.writeHead(409, { 'Content-Length': '0', Connection: 'close' }).end();
    return;
  }
  const ac = new AbortController();
  inFlight.add(ac);
  // The upload (stdin, the last part) read to its end; a relayed first segment ends only then.
  const uploadDone = stdin ? new Promise<void>((resolve) => stdin.stream.once('end', resolve).once('close', resolve).once('error', resolve)) : Promise.resolve();
  // Bytes written to the caller's stdout: a reader that left decides the status by them.
  let stdoutBytes = 0;
  let readerLeft = false;
  let grace: NodeJS.Timeout | undefined;
  let resolveEnded: (code: number) => void = () => undefined;
  const call: Call = {
    ended: new Promise<number>((r) => (resolveEnded = r)),
    waiting: (w) => {
      clearTimeout(grace);
      w.once('close', () => {
        if (!w.writableFinished) ac.abort();
      });
    },
  };
  // The caller went away before the end: cancel the upstream request, unless its stdout
  // reader left part-way through the body (curl's status then depends on what follows:
  // src/shell-verbs/output.ts), for which the shell asks with /wait.
  const gone = (stream: 1 | 2) => {
    if (stream === 1 && (call.relay?.stdoutBytes ?? stdoutBytes) > 0 && !readerLeft) {
      readerLeft = true;
      grace = setTimeout(() => ac.abort(), WAIT_GRACE_MS);
    } else if (!readerLeft) ac.abort();
  };
  // The caller's own stderr when it can take a second writer (caller-stderr.ts); else both
  // streams go through the caller's own curl processes, in segments (relay.ts).
  const direct = wired ? undefined : openCallerStderr(callerPid);
  // A file or pipe as stdout (stdin: body() below): the daemon's own (caller-files.ts); not a stdout
  // shared with a relayed stderr or a pipe (`> f 2>&1`, `2>&1 |`: the relay keeps their order).
  const outFd = !wired && io && sFile && !(sameFile(callerPid, 1, 2) && (!direct || callerFd(callerPid, 1)?.kind !== 'file')) ? callerFd(callerPid, 1) : undefined;
  if (!wired) res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
  const relay = wired || direct || !sFile ? undefined : new Relay({ first: res, sFile, uploadDone, onGone: gone });
  if (relay) call.relay = relay;
  else
    res.once('close', () => {
      if (!res.writableFinished) gone(1);
    });
  calls.begin(sFile, call);
  // A small body, its head and the end of the response leave in one write: the response stays
  // corked until the loop turn after the first body bytes (res.end() flushes it all at once).
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  let corked = !wired;
  if (corked) res.cork();
  res.write = ((...a: unknown[]) => {
    const chunk = a[0];
    if (!relay && (typeof chunk === 'string' || chunk instanceof Uint8Array)) stdoutBytes += chunk.length;
    const ok = write(...a);
    if (corked) {
      corked = false;
      setImmediate(() => res.uncork());
    }
    return ok;
  }) as typeof res.write;
  let code: number = EXIT.failure;
  let fileIn: CallerInput | undefined;
  const outputs: Outputs = wired
    ? { stdout: wired.stdout, stderr: wired.stderr, tty, ttyErr }
    : { stdout: relay?.stdout ?? res, stderr: relay?.stderr ?? direct?.stream ?? discard(), tty, ttyErr };
  const fileOut = pickCallerStdout(callerPid, outFd, outputs);
  try {
    // The caller's stdin, opened once read: -d leaves a pipe to the shell's `while read`, as curl does.
    const body = () => {
      if (stdin) return stdin;
      fileIn ??= inFd ? openCallerInput(callerPid, 0) : undefined;
      if (inFd && !fileIn) throw new EngineError('file-unreadable', `cannot read the standard input through /proc/${callerPid}/fd/0`, { hint: 'run the call without the daemon: REST_NO_DAEMON=1 VERB ...', details: { curlExit: 26 } });
      return fileIn ? { stream: fileIn.stream, size: fileIn.size } : { stream: Readable.from([]), size: 0 };
    };
    const result = await run({
      argv,
      callerPid,
      cwd,
      pathEnv,
      env,
      readStdin: async (): Promise<Uint8Array> => buffer(body().stream),
      stdinStream: body,
      outputs,
      signal: ac.signal,
    });
    code = result.code;
    if (relay) stdoutBytes = relay.stdoutBytes;
    await direct?.close();
  } finally {
    await fileOut()?.close();
    await wired?.close();
    fileIn?.stream.destroy();
    inFlight.delete(ac);
    clearTimeout(grace);
    // An upload the call did not read (a usage error): drain it so the caller's curl ends.
    stdin?.stream.resume();
  }
  const halted = ac.signal.reason === STOPPED ? `${STOPPED}\n` : ''; // the daemon stopped under the call
  // What `s` would hold (offset moves, the status when not 0): a call without curl gets it
  // in the answer's body instead, no file (the shell would remove it with a process).
  let answer = '';
  try {
    if (wired) answer = offsetLines(wired.file, fileIn) + (halted || (code !== 0 ? `${code}\n` : ''));
    else if (relay) {
      await uploadDone;
      await relay.finish(halted ? 0 : code, offsetLines(fileOut(), fileIn) + halted);
    } else if (sFile && !res.destroyed) {
      const say = offsetLines(fileOut(), fileIn) + (halted || (code !== 0 ? `${code}\n` : ''));
      if (say) await fs.promises.writeFile(sFile, say, { mode: 0o600 });
    }
  } finally {
    // Even when `s` cannot be written (its directory removed): a /wait never waits for ever.
    calls.end(sFile, call, code, stdoutBytes, readerLeft);
    resolveEnded(code);
  }
  // A big body went through: give its memory back before the answer ends (src/shell-verbs/idle-gc.ts).
  if (req.socket.bytesRead + req.socket.bytesWritten >= BIG_CALL_BYTES) collectAfterBig();
  if (wired) {
    res.sendDate = false;
    if (!res.destroyed) res.writeHead(200, 'Wired', { 'Content-Length': String(Buffer.byteLength(answer)), Connection: 'close' }).end(answer);
  } else if (!relay) res.end();
}

/** A Writable that drops what it is given (stderr of a caller that named no status file). */
function discard(): Writable {
  return new Writable({ write: (_c, _e, cb) => cb() });
}
