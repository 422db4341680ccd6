/**
 * Big response bodies for `sheet/send` go to a file as they arrive (issue 10, docs/protocol.md
 * `bodyFileMin`): a body is held in memory up to `spillAt` bytes (after decoding); past that the
 * held bytes and the rest are written to a body file (src/session/body-file.ts) chunk by chunk, so
 * the engine never holds a big body, not even a gzip bomb expanding in its decoder.
 *
 * A UTF-8 JSON or XML body (not asked raw) is re-indented on the way (present/json-stream.ts and
 * present/xml-stream.ts, the same text json.ts and xml.ts give a smaller body) into a second
 * file, beside the one that takes the bytes as received: at the end one of the two is kept, the
 * re-indented one when the body was well-formed, else the raw one with the reason
 * (`unformatted`) for the trailer (issue 22). Memory stays bounded
 * by the spill size and the chunks: neither the whole body nor its pretty form is held. The
 * answer names the file, as text in UTF-8 when the body is text whose bytes are valid UTF-8,
 * else as bytes.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { EngineError } from '../errors.js';
import { headerValue, type Header } from '../model.js';
import { isUtf8Label, modeFor, parseContentType, type Mode } from '../present/present.js';
import { JsonReindenter } from '../present/json-stream.js';
import { XmlReindenter } from '../present/xml-stream.js';
import { LongestLine } from '../present/longest-line.js';
import type { PresentationInfo } from './types.js';
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

/** What the sink needs to know of the response and the request to present the body. */
export interface SpillOptions {
  /** The response's headers (Content-Type decides the mode and the charset). */
  headers: Header[];
  /** Asked raw (C-c C-r): the bytes as received, never re-indented. */
  raw?: boolean;
}

/** One of the sink's files: where it is and its stream. */
interface Out {
  file: string;
  stream: fs.WriteStream;
}

/**
 * The sink of a `sheet/send` body: memory up to `spillAt` bytes, then a body file (and, for
 * UTF-8 JSON or XML, a second one re-indented as the bytes pass); more than `max` bytes in all fail
 * the exchange with `network-error` (the files are removed).
 */
export class SpillSink extends Writable {
  private held: Buffer[] = [];
  /** Bytes received (decoded). */
  size = 0;
  /** The body file, once spilled: at the end, the one the answer names. */
  file: string | undefined;
  private raw: Out | undefined;
  private pretty: Out | undefined;
  /** The re-indenter while the body may still be JSON (or XML). */
  private reindenter: JsonReindenter | XmlReindenter | undefined;
  /** The longest line of the bytes as received: counted only while they may be shown raw. */
  private rawLines: LongestLine | undefined;
  private prettyLines = new LongestLine();
  /** Whether the file named is the re-indented one. */
  private formatted = false;
  /** Why a JSON or XML body was not pretty-printed (set when it is known). */
  private unformatted: string | undefined;
  private readonly mode: Mode;
  private readonly type: string;
  private readonly charset: string | undefined;
  /** Whether every byte so far is valid UTF-8 (checked as the chunks pass). */
  private utf8 = true;
  private carry: Buffer = Buffer.alloc(0);

  constructor(
    private readonly spillAt: number,
    private readonly max: number,
    private readonly url: string,
    opts: SpillOptions = { headers: [] },
  ) {
    super({ highWaterMark: 1 << 20 });
    const { type, charset } = parseContentType(headerValue(opts.headers, 'content-type'));
    this.type = type;
    this.charset = charset;
    this.mode = modeFor(type);
    if (!opts.raw && (this.mode === 'json' || this.mode === 'xml')) {
      if (isUtf8Label(charset)) this.reindenter = this.mode === 'json' ? new JsonReindenter() : new XmlReindenter();
      else this.unformatted = `it is in ${charset}: bodies past ${SPILL_MIN_BYTES / 1048576} MiB are re-indented as they arrive only in UTF-8`;
    }
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

  /** The re-indenter is given up: the body will be named raw, with `why`. */
  private dropReindenter(why: string): void {
    this.reindenter = undefined;
    this.unformatted = why;
    this.pretty?.stream.end();
  }

  /** Write `chunks` to the files (re-indented to the second), then call `cb` once both drained. */
  private put(chunks: Buffer[], cb: (e?: Error | null) => void): void {
    let waiting = 1;
    const done = () => {
      if (--waiting === 0) cb();
    };
    // One 'drain' wait per file, however many of the chunks (the 16 MiB held) fill it.
    const full = new Set<Out>();
    const write = (out: Out, data: Uint8Array) => {
      if (!out.stream.write(data) && !full.has(out)) {
        full.add(out);
        waiting++;
        out.stream.once('drain', done);
      }
    };
    if (this.reindenter && !this.utf8) this.dropReindenter('its bytes are not valid UTF-8');
    for (const c of chunks) {
      this.rawLines?.feed(c);
      write(this.raw!, c);
      if (this.reindenter) {
        const out = this.reindenter.push(c);
        if (this.reindenter.error !== undefined) this.dropReindenter(this.reindenter.error);
        else if (out.length) {
          this.prettyLines.feed(out);
          write(this.pretty!, out);
        }
      }
    }
    done();
  }

  private async open(): Promise<Out> {
    const file = await newBodyFilePath();
    const stream = fs.createWriteStream(file, { mode: 0o600, flags: 'wx', highWaterMark: 1 << 20 });
    stream.on('error', (e) => this.destroy(e));
    return { file, stream };
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
    if (this.raw) return this.put([c], cb);
    this.held.push(c);
    if (this.size <= this.spillAt) return cb();
    (async () => {
      this.raw = await this.open();
      this.file = this.raw.file;
      if (this.reindenter) this.pretty = await this.open();
      else this.rawLines = new LongestLine();
    })().then(() => {
      // Chunk by chunk, as they came: no 16 MiB copy, no 16 MiB re-indenting at once.
      const held = this.held;
      this.held = [];
      this.put(held, cb);
    }, cb);
  }

  override _final(cb: (e?: Error | null) => void): void {
    if (this.carry.length) this.utf8 = false;
    if (!this.raw) return cb();
    if (this.reindenter && !this.utf8) this.dropReindenter('its bytes are not valid UTF-8');
    if (this.reindenter) {
      const last = this.reindenter.end();
      if (last === undefined) this.dropReindenter(this.reindenter.error!);
      else {
        this.prettyLines.feed(last);
        this.pretty!.stream.write(last);
      }
    }
    const closed = (out: Out | undefined) => new Promise<void>((resolve) => (out && !out.stream.closed ? out.stream.end(() => resolve()) : resolve()));
    Promise.all([closed(this.raw), closed(this.pretty)])
      .then(async () => {
        // Raw after all, but its lines were not counted while it was re-indented: counted now,
        // from the file (in the page cache), in chunks.
        if (!this.reindenter && !this.rawLines && this.raw) {
          this.rawLines = new LongestLine();
          for await (const chunk of fs.createReadStream(this.raw.file, { highWaterMark: 1 << 20 })) this.rawLines.feed(chunk as Buffer);
        }
        // One of the two files is kept; the other goes now.
        const drop = this.reindenter ? this.raw! : this.pretty;
        if (this.reindenter) {
          this.formatted = true;
          this.file = this.pretty!.file;
          this.raw = this.pretty;
        }
        this.pretty = undefined;
        if (drop) await removeBodyFile(drop.file);
      })
      .then(() => cb(), cb);
  }

  override _destroy(e: Error | null, cb: (e?: Error | null) => void): void {
    // After 'finish' (autoDestroy) the body stays; a failed or cut transfer (also a destroy
    // without error before the end) drops what it held, and its files: nobody will read them.
    if (this.writableFinished && !e) return cb(null);
    this.held = [];
    const files = [this.raw, this.pretty].filter((o): o is Out => !!o);
    for (const o of files) o.stream.destroy();
    this.raw = this.pretty = undefined;
    this.file = undefined;
    if (files.length) void Promise.all(files.map((o) => removeBodyFile(o.file))).finally(() => cb(e));
    else cb(e);
  }

  /**
   * The presentation of a spilled body: the file, re-indented (`formatted`) or raw (with
   * `unformatted` saying why, for JSON and XML not asked raw). Text (by its Content-Type, as
   * present/present.ts decides) in UTF-8 when its bytes are valid UTF-8 and its charset is
   * UTF-8 or absent, with its longest line; else the bytes (`kind` image or binary).
   */
  presentation(): Omit<PresentationInfo, 'received' | 'receivedFile'> {
    const { type, charset, mode } = this;
    const textual = mode !== 'image' && (mode !== 'text' || !!charset || type.startsWith('text/'));
    const asText = textual && isUtf8Label(charset) && this.utf8;
    return {
      kind: asText ? 'text' : mode === 'image' ? 'image' : 'binary',
      file: this.file,
      fileEncoding: asText ? 'utf-8' : 'binary',
      contentType: type,
      ...(asText ? { charset: charset || 'utf-8' } : {}),
      mode,
      formatted: this.formatted,
      ...(this.unformatted && !this.formatted ? { unformatted: this.unformatted } : {}),
      ...(asText ? { longestLine: (this.formatted ? this.prettyLines : this.rawLines)?.max ?? 0 } : {}),
      overThreshold: true,
    };
  }
}
