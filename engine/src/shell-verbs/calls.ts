/**
 * The daemon's calls, in flight and just ended, by their status file `s` (one per calling
 * shell process), for the shell's follow-up requests about its own call (docs/shell.md, "The
 * engine daemon"):
 *
 * - `POST /next` (field `s`): the next output segment of the call (src/shell-verbs/relay.ts).
 * - `POST /wait` (field `s`): sent when the shell's curl exited 23 with a pipe as its stdout (the
 *   reader went away). Answers when the call has ended, with its exit status written to `s`:
 *   curl's rule for a reader that left (src/shell-verbs/output.ts, `exitAfterReaderLeft`), so
 *   `GET /stream/20 | head -1` exits 0 where curl does. A call still running when its reader
 *   left has applied that rule itself (`Forward`); one that ended before the daemon saw its
 *   socket close gets it here, from the bytes it wrote to stdout.
 */
import fs from 'node:fs';
import type http from 'node:http';
import { exitAfterReaderLeft } from './output.js';
import { endResponse, type Relay } from './relay.js';

/**
 * The reason a call is aborted with when the daemon stops (rest --stop, a rebuilt engine): its
 * status file then says `stopped`, and the shell says so (shell/rest-daemon, `_rest_daemon_rest`).
 */
export const STOPPED = 'stopped';

/** One call in flight. */
export interface Call {
  relay?: Relay;
  /** Settles with the exit status when the call has ended. */
  ended: Promise<number>;
  /** A `/wait` came: keep the call running until it ends; `res` closing early aborts it. */
  waiting(res: http.ServerResponse): void;
}

/** Ended calls remembered for a late `/wait` (the newest ones). */
const KEEP_ENDED = 64;

export class Calls {
  private readonly live = new Map<string, Call>();
  private readonly ended = new Map<string, { code: number; stdoutBytes: number }>();

  /** Register a call under its status file (a call without one cannot be asked about). */
  begin(sFile: string | undefined, call: Call): void {
    if (!sFile) return;
    this.ended.delete(sFile);
    this.live.set(sFile, call);
  }

  /**
   * The call has ended with `code` after writing `stdoutBytes` to stdout; `decided`: its status
   * already follows curl's rule for a reader that left (it saw the reader go).
   */
  end(sFile: string | undefined, call: Call, code: number, stdoutBytes: number, decided: boolean): void {
    if (!sFile || this.live.get(sFile) !== call) return;
    this.live.delete(sFile);
    this.ended.set(sFile, { code: decided ? code : exitAfterReaderLeft(code, stdoutBytes, true), stdoutBytes });
    for (const k of this.ended.keys()) {
      if (this.ended.size <= KEEP_ENDED) break;
      this.ended.delete(k);
    }
  }

  /** `POST /next`: attach `res` as the call's next output segment; 404 when none is awaited. */
  next(sFile: string, res: http.ServerResponse): void {
    if (!this.live.get(sFile)?.relay?.attach(res)) res.writeHead(404).end();
  }

  /** `POST /wait`: answer once the call has ended, its status in `s`; at once when unknown. */
  async wait(sFile: string, res: http.ServerResponse): Promise<void> {
    const call = this.live.get(sFile);
    if (call) {
      call.waiting(res);
      await call.ended.catch(() => undefined);
    }
    const done = this.ended.get(sFile);
    if (done && !res.destroyed) {
      this.ended.delete(sFile);
      await fs.promises.writeFile(sFile, `${done.code}\n`, { mode: 0o600 });
    }
    await endResponse(res);
  }
}
