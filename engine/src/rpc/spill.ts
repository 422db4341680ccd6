/**
 * Big response bodies for `sheet/send` go to a file as they arrive (issue 10, docs/protocol.md
 * `bodyFileMin`): a body is held in memory up to `spillAt` bytes (after decoding); past that the
 * held bytes and the rest are written to a body file (src/rpc/body-file.ts) chunk by chunk, so
 * the engine never holds a big body, not even a gzip bomb expanding in its decoder. The file
 * holds the bytes as received (decoded); the answer names it, raw (not pretty-printed), as text
 * in UTF-8 when the body is text whose bytes are valid UTF-8, else as bytes.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { EngineError } from '../errors.js';
import { headerValue, type Header } from '../model.js';
import { isUtf8Label, modeFor, parseContentType } from '../present/present.js';
import type { PresentationInfo } from './protocol.js';
import { newBodyFilePath, removeBodyFile } from './body-file.js';

/** Bodies up to this many bytes are presented as before (pretty-printed, read by hooks). */
export const SPILL_MIN_BYTES = 16 * 1024 * 1024;

/**
 * From how many bytes a body is spilled, for a client that takes files (`bodyFileMin`): past
 * {@link SPILL_MIN_BYTES}, and past 4 bytes per character of the threshold (UTF-8's longest),
 * so a body the threshold calls small is never spilled and one that is spilled is over it.
 * Undefined (never): the client takes no files, or the threshold is off (null).
 */
export function spillBytes(threshold: number | null, bodyFileMin: number | undefined): number | undefined {
  if (bodyFileMin === undefined || threshold === null) return undefined;
  return Math.max(SPILL_MIN_BYTES, threshold * 4);
}

/** Bytes at the end of `b` that begin a UTF-8 sequence `b` does not complete (0 to 3). */
function openTail(b: Buffer): number {
  for (let i = 1; i <= Math.min(3, b.length); i++) {
    const x = b[b.length - i]!;
    if ((x & 0xc0) === 0x80) continue;
    const need = x >= 0xf0 ? 4 : x >= 0xe0 ? 3 : x >= 0xc0 ? 2 : 1;
    return need > i ? i : 0;
  }
  return 0;
}

/**
 * The sink of a `sheet/send` body: memory up to `spillAt` bytes, then a body file; more than
 * `max` bytes in all fail the exchange with `network-error` (the file is removed).
 */
export class SpillSink extends Writable {
  private held: Buffer[] = [];
  /** Bytes received (decoded). */
  size = 0;
  /** The body file, once spilled. */
  file: string | undefined;
  private out: fs.WriteStream | undefined;
  /** Whether every byte so far is valid UTF-8 (checked as the chunks pass). */
  private utf8 = true;
  private carry: Buffer = Buffer.alloc(0);

  constructor(
    private readonly spillAt: number,
    private readonly max: number,
    private readonly url: string,
  ) {
    super({ highWaterMark: 1 << 20 });
  }

  /** The body held in memory (not spilled). */
  body(): Buffer {
    return Buffer.concat(this.held);
  }

  private check(c: Buffer): void {
    if (!this.utf8) return;
    const b = this.carry.length ? Buffer.concat([this.carry, c]) : c;
    const tail = openTail(b);
    this.utf8 = isUtf8(b.subarray(0, b.length - tail));
    this.carry = Buffer.from(b.subarray(b.length - tail));
  }

  private put(c: Buffer, cb: (e?: Error | null) => void): void {
    if (this.out!.write(c)) cb();
    else this.out!.once('drain', () => cb());
  }

  override _write(c: Buffer, _e: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.size += c.length;
    if (this.size > this.max) {
      return cb(
        new EngineError('network-error', `${this.url}: the response body is larger than ${this.max} bytes, the most the engine hands to the editor`, {
          hint: 'Fetch it with the shell verbs or curl -o FILE, which stream it to a file.',
          details: { url: this.url, maxBodyBytes: this.max },
        }),
      );
    }
    this.check(c);
    if (this.out) return this.put(c, cb);
    this.held.push(c);
    if (this.size <= this.spillAt) return cb();
    newBodyFilePath().then((file) => {
      this.file = file;
      this.out = fs.createWriteStream(file, { mode: 0o600, flags: 'wx', highWaterMark: 1 << 20 });
      this.out.on('error', (e) => this.destroy(e));
      const all = Buffer.concat(this.held);
      this.held = [];
      this.put(all, cb);
    }, cb);
  }

  override _final(cb: (e?: Error | null) => void): void {
    if (this.carry.length) this.utf8 = false;
    if (!this.out) return cb();
    this.out.end(() => cb());
  }

  override _destroy(e: Error | null, cb: (e?: Error | null) => void): void {
    // After 'finish' (autoDestroy) the body stays; a failed or cut transfer (also a destroy
    // without error before the end) drops what it held, and its file: nobody will read it.
    if (this.writableFinished && !e) return cb(null);
    this.held = [];
    const file = this.file;
    this.out?.destroy();
    if (file) void removeBodyFile(file).finally(() => cb(e));
    else cb(e);
  }

  /**
   * The presentation of a spilled body: the file, raw. Text (by its Content-Type, as
   * present/present.ts decides) in UTF-8 when its bytes are valid UTF-8 and its charset is
   * UTF-8 or absent; else the bytes (`kind` image or binary).
   */
  presentation(headers: Header[]): Omit<PresentationInfo, 'received' | 'receivedFile'> {
    const { type, charset } = parseContentType(headerValue(headers, 'content-type'));
    const mode = modeFor(type);
    const textual = mode !== 'image' && (mode !== 'text' || !!charset || type.startsWith('text/'));
    const asText = textual && isUtf8Label(charset) && this.utf8;
    return {
      kind: asText ? 'text' : mode === 'image' ? 'image' : 'binary',
      file: this.file,
      fileEncoding: asText ? 'utf-8' : 'binary',
      contentType: type,
      ...(asText ? { charset: charset || 'utf-8' } : {}),
      mode,
      formatted: false,
      overThreshold: true,
    };
  }
}
