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
 * A Writable that forwards to `target` without ever ending it (send ends what it is given;
 * process.stdout must stay open). Tracks the last byte, for the terminal newline. Errors of
 * the target (EPIPE: the reader went away) fail the forwarder, which aborts the transfer.
 */
export class Forward extends Writable {
  last = -1;
  bytes = 0;
  constructor(private readonly target: Writable) {
    // 1 MiB in flight: fewer pause/resume turns with the socket than the 16 KiB default.
    super({ highWaterMark: 1 << 20 });
    const onErr = (e: Error) => this.destroy(e);
    target.on('error', onErr);
    this.once('close', () => target.off('error', onErr));
  }
  override _write(c: Buffer, _e: BufferEncoding, cb: (e?: Error | null) => void): void {
    if (!c.length) return cb();
    this.bytes += c.length;
    this.last = c[c.length - 1]!;
    if (this.target.destroyed) return cb(new Error('output closed'));
    if (this.target.write(c)) cb();
    else this.target.once('drain', () => cb());
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
