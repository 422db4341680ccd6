/**
 * Where a verb's bytes go: the caller's stdout and stderr as streams (the direct mode's own
 * process streams, or the daemon's HTTP response and error file), or, when none is given,
 * buffers (tests). Body bytes are forwarded chunk by chunk with back-pressure; nothing here
 * holds a whole body except {@link holdUpTo}, which is capped.
 */
import { Writable } from 'node:stream';

/** The two outputs of one call. */
export interface Outputs {
  stdout: Writable;
  stderr: Writable;
  /** stdout is a terminal: a body that does not end with a newline gets one (never when piped). */
  tty?: boolean;
  /** stderr is a terminal: the same for a body that goes to stderr (a status other than 2xx). */
  ttyErr?: boolean;
  /**
   * Called when a 2xx body is about to go to stdout, with its Content-Length in bytes when
   * the response gave one: the caller may replace `stdout` then (the daemon writes a big body
   * into the caller's own file itself; src/shell-verbs/caller-files.ts).
   */
  pick?: (length: number | undefined) => void;
}

/** A Writable that collects into `into` (the buffered mode of {@link run}). */
export function collect(into: Buffer[]): Writable {
  return new Writable({
    write(c: Buffer, _e, cb) {
      into.push(Buffer.from(c));
      cb();
    },
  });
}

/**
 * curl writes a pipe through its stdio buffer: in blocks of this many bytes (glibc's buffer for
 * a pipe, one page), the last one when the transfer ends. Measured with curl 7.88 and
 * `curl -s URL | head -1; echo ${PIPESTATUS[0]}`: a body of at most one block is one write after
 * the transfer, which a waiting reader takes whole, so curl exits 0 however the body arrived
 * (httpbin's /stream/20, 3490 bytes in 20 chunks: 0 in 10 of 10); a longer body has a write
 * after the first block, which fails once the reader has gone (64 KiB and more: 23 in 10 of 10).
 */
export const CURL_PIPE_BLOCK = 4096;

/**
 * The exit status of a call whose stdout reader went away (EPIPE, a closed socket) after
 * `bytes` bytes were meant for it, as curl's (see {@link CURL_PIPE_BLOCK}): `code` (the status
 * the response gave) when the whole output was at most one block and `complete`; otherwise
 * 23, curl's "Failure writing output". One rule for the direct mode ({@link Forward}) and the
 * daemon (a call that ended before it saw its caller's curl go; src/shell-verbs/daemon.ts).
 */
export function exitAfterReaderLeft(code: number, bytes: number, complete: boolean): number {
  return complete && bytes <= CURL_PIPE_BLOCK ? code : 23;
}

/**
 * A Writable that forwards to `target` without ever ending it (send ends what it is given;
 * process.stdout must stay open). Tracks the last byte, for the terminal newline.
 *
 * When the target fails (EPIPE: the reader went away; a destroyed socket), the forwarder does
 * not fail at once: curl would not have noticed yet while the output still fits in its first
 * block ({@link CURL_PIPE_BLOCK}), so the rest of the body is read and dropped until it passes
 * that block (then it fails, the transfer is aborted: curl's 23) or ends (the call ends as the
 * response says, as `curl URL | head -1` does). `readerLeft` tells which happened.
 */
export class Forward extends Writable {
  last = -1;
  bytes = 0;
  /** The target failed: the bytes since are counted and dropped. */
  readerLeft = false;
  /** Sees each chunk once it has been written (run.ts: a stream's events counted for its error message). */
  tap: ((c: Buffer) => void) | undefined;
  constructor(private readonly target: Writable) {
    // 1 MiB in flight: fewer pause/resume turns with the socket than the 16 KiB default.
    super({ highWaterMark: 1 << 20 });
    const onErr = () => {
      this.readerLeft = true;
    };
    target.on('error', onErr);
    this.once('close', () => target.off('error', onErr));
  }
  override _write(c: Buffer, _e: BufferEncoding, cb: (e?: Error | null) => void): void {
    if (!c.length) return cb();
    this.bytes += c.length;
    this.last = c[c.length - 1]!;
    if (this.target.destroyed || this.target.writableEnded) this.readerLeft = true;
    if (this.readerLeft) {
      this.tap?.(c);
      return cb(this.bytes > CURL_PIPE_BLOCK ? new Error('output closed') : null);
    }
    // The bytes go out first; the tap (a stream's event count) looks at them after the write.
    const ok = this.target.write(c);
    this.tap?.(c);
    const onClose = () => {
      this.readerLeft = true;
      done();
    };
    const done = () => {
      this.target.off('drain', done);
      this.target.off('close', onClose);
      cb(this.readerLeft && this.bytes > CURL_PIPE_BLOCK ? new Error('output closed') : null);
    };
    if (ok) return cb();
    // Wait for room, or for the target to go (a closed socket never drains).
    this.target.once('drain', done);
    this.target.once('close', onClose);
  }
}

/**
 * Hold the first `max` bytes in memory for a transformation that needs the whole body (HTML
 * rendering); past `max` the held bytes and the rest pass through unchanged. `finishWith` is
 * called at the end with the held body (under the cap) and returns what to write instead.
 */
export function holdUpTo(target: Writable, max: number, finishWith: (body: Buffer) => Uint8Array): Writable {
  let held: Buffer[] | undefined = [];
  let size = 0;
  const put = (b: Uint8Array, cb: (e?: Error | null) => void) => {
    if (target.write(b)) cb();
    else target.once('drain', () => cb());
  };
  return new Writable({
    write(c: Buffer, _e, cb) {
      if (held) {
        held.push(c);
        size += c.length;
        if (size <= max) return cb();
        const all = Buffer.concat(held);
        held = undefined;
        return put(all, cb);
      }
      put(c, cb);
    },
    final(cb) {
      if (held) put(finishWith(Buffer.concat(held)), (e) => (e ? cb(e) : target.end(cb)));
      else target.end(cb);
    },
  });
}
