/**
 * One daemon call's output carried by the calling shell's own curl processes, when the daemon
 * cannot write the caller's stderr itself (src/shell-verbs/caller-stderr.ts: a regular file opened with
 * `2>file`, whose offset only the shell's own descriptor moves; a socket; no `/proc`).
 *
 * The output is a run of segments, each the body of one HTTP response on the daemon's socket,
 * each written by one curl of the shell onto the shell's fd 1 or fd 2: the first is the answer
 * to `POST /run` (fd 1). When the call writes to the other stream, the daemon writes `>1` or
 * `>2` to the call's status file `s`, ends the response, and the shell runs its next curl
 * (`POST /next` with the same `s`; with `>&2` for stream 2), whose response carries what
 * follows, until a segment ends with no `>N` in `s` (then `s`, when present, holds the exit
 * status). So the routing is decided when the daemon knows it (the status, a message), and
 * every byte goes through the shell's own open file: its offset advances, in order with what
 * the shell writes before and after (`{ GET /500; echo after; } 2>err.txt`), and nothing is
 * spooled in the runtime directory. Memory is bounded: a write waits for its segment's reader
 * (back-pressure to the server).
 *
 * While the shell's curl is still uploading the call's stdin (the last part of `/run`), its
 * response cannot end: bytes for the other stream wait in memory up to {@link HOLD_MAX}; past
 * that, the current stream's bytes go on ahead of them (so a server that echoes the upload as
 * it reads keeps going; only then can the order across the two streams differ from the order
 * written), and the other stream's wait for the upload's end. A server that stops reading the
 * upload until more than {@link HOLD_MAX} of its answer has gone to stderr is the one case
 * that waits for `-m`.
 */
import fs from 'node:fs';
import type http from 'node:http';
import { Writable } from 'node:stream';

/** Bytes held for a segment that cannot start before the upload ends (messages, -v lines). */
export const HOLD_MAX = 1 << 20;

/** How long the daemon waits for the shell's next curl after a segment ended, in ms. */
export const NEXT_WAIT_MS = 30_000;

export type Stream = 1 | 2;

export interface RelayOptions {
  /** The response to `POST /run`: the first segment, stream 1. */
  first: http.ServerResponse;
  /** The call's status file (`s`), where `>N` announces the next segment. */
  sFile: string;
  /** Settles when the upload (the `stdin` part of `/run`) has been read to its end (at once when there is none). */
  uploadDone: Promise<void>;
  /** A segment's reader went away before the segment ended. */
  onGone: (stream: Stream) => void;
}

/** The call's two output streams as segments (see the file comment). */
export class Relay {
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Bytes written to stream 1 (curl's exit after its reader left depends on it: src/shell-verbs/output.ts). */
  stdoutBytes = 0;
  private res: http.ServerResponse;
  private stream: Stream = 1;
  private chain: Promise<void> = Promise.resolve();
  private held: Array<{ stream: Stream; chunk: Buffer }> = [];
  private heldBytes = 0;
  private uploaded = false;
  /** The held bytes of the other stream were overtaken (see the file comment). */
  private ahead = false;
  private next: ((res: http.ServerResponse) => void) | undefined;

  constructor(private readonly opts: RelayOptions) {
    this.res = opts.first;
    this.watch(opts.first, 1);
    // A stream whose reader went away fails its writes; the error is the writer's to handle
    // (src/shell-verbs/output.ts), never an uncaught 'error' event in the daemon.
    const writable = (stream: Stream) =>
      new Writable({
        write: (c: Buffer, _e, cb) => {
          this.put(stream, c).then(() => cb(), cb);
        },
      }).on('error', () => undefined);
    this.stdout = writable(1);
    this.stderr = writable(2);
    opts.uploadDone.then(
      () => this.uploadEnded(),
      () => this.uploadEnded(),
    );
  }

  /** The shell's next curl (`POST /next`): false when no segment is awaited. */
  attach(res: http.ServerResponse): boolean {
    const next = this.next;
    if (!next) return false;
    this.next = undefined;
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    next(res);
    return true;
  }

  /**
   * End the output: what is held goes out, `s` gets `lines` (the offsets the shell moves,
   * src/shell-verbs/caller-files.ts) and the exit status when it is not 0, and the last
   * segment ends. Call after the upload has been drained.
   */
  async finish(code: number, lines = ''): Promise<void> {
    // What the writers still buffer goes first (a write is done for its writer once buffered).
    await Promise.all([this.stdout, this.stderr].map((w) => new Promise<void>((resolve) => (w.destroyed ? resolve() : w.once('close', resolve).end(() => resolve())))));
    await this.chain;
    this.uploaded = true;
    await this.flushHeld().catch(() => undefined);
    this.next = undefined;
    if (this.res.destroyed) return;
    const say = lines + (code !== 0 ? `${code}\n` : '');
    if (say) await fs.promises.writeFile(this.opts.sFile, say, { mode: 0o600 });
    await endResponse(this.res);
  }

  private watch(res: http.ServerResponse, stream: Stream): void {
    res.once('close', () => {
      if (!res.writableFinished) this.opts.onGone(stream);
    });
  }

  private uploadEnded(): void {
    this.uploaded = true;
    const p = this.chain.then(() => this.flushHeld());
    this.chain = p.catch(() => undefined);
  }

  /** Writes in order across both streams. */
  private put(stream: Stream, chunk: Buffer): Promise<void> {
    const p = this.chain.then(() => this.deliver(stream, chunk));
    this.chain = p.catch(() => undefined);
    return p;
  }

  private async deliver(stream: Stream, chunk: Buffer): Promise<void> {
    if (!this.uploaded) {
      if (stream === this.stream && (this.ahead || this.held.length === 0)) return this.send(stream, chunk);
      if (this.heldBytes + chunk.length <= HOLD_MAX) {
        this.held.push({ stream, chunk });
        this.heldBytes += chunk.length;
        return;
      }
      // Full: the current stream goes on ahead of what is held for the other one, since the
      // upload may wait for it (a server that answers as it reads, /stream/echo); the other
      // stream waits for the upload's end.
      if (stream === this.stream) {
        this.ahead = true;
        await this.flushHeld(stream);
        return this.send(stream, chunk);
      }
      await this.opts.uploadDone.catch(() => undefined);
    }
    await this.flushHeld();
    await this.send(stream, chunk);
  }

  /** Send what is held, in order: all of it, or only `only`'s bytes (the rest stays held). */
  private async flushHeld(only?: Stream): Promise<void> {
    const keep: Array<{ stream: Stream; chunk: Buffer }> = [];
    while (this.held.length) {
      const h = this.held.shift()!;
      if (only !== undefined && h.stream !== only) {
        keep.push(h);
        continue;
      }
      this.heldBytes -= h.chunk.length;
      await this.send(h.stream, h.chunk);
    }
    this.held = keep;
  }

  private async send(stream: Stream, chunk: Buffer): Promise<void> {
    if (stream !== this.stream) await this.switchTo(stream);
    const res = this.res;
    if (res.destroyed) throw new Error('output closed');
    if (stream === 1) this.stdoutBytes += chunk.length;
    if (res.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', closed);
        resolve();
      };
      const closed = () => {
        res.off('drain', done);
        reject(new Error('output closed'));
      };
      res.once('drain', done);
      res.once('close', closed);
    });
  }

  /** End this segment with `>N` in `s`; the shell's next curl carries stream N. */
  private async switchTo(stream: Stream): Promise<void> {
    if (this.res.destroyed) throw new Error('output closed');
    await fs.promises.writeFile(this.opts.sFile, `>${stream}\n`, { mode: 0o600 });
    let timer: NodeJS.Timeout | undefined;
    const next = new Promise<http.ServerResponse>((resolve, reject) => {
      this.next = resolve;
      timer = setTimeout(() => reject(new Error('the shell did not come back for the rest of the output')), NEXT_WAIT_MS);
    });
    await endResponse(this.res);
    try {
      this.res = await next;
    } finally {
      clearTimeout(timer);
      this.next = undefined;
    }
    this.stream = stream;
    this.watch(this.res, stream);
  }
}

/** End a response; settles when it is sent or its reader has gone. */
export function endResponse(res: http.ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    if (res.destroyed) return resolve();
    res.once('close', () => resolve());
    res.end(() => resolve());
  });
}
