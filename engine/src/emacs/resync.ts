/**
 * Keeps the stdio input aligned on its frames, in front of vscode-jsonrpc's reader. A frame
 * whose `Content-Length` is shorter than its body leaves the rest of the body in front of the
 * next frame's header; the reader would then take `...}Content-Length: 42` as a header line,
 * fail, and stay one frame off for good, answering nothing ever again (issue 30). Here a header
 * block that holds a `Content-Length` header after other bytes loses those bytes (logged), so
 * the next frame is read as sent. The short frame itself still reaches the reader and is
 * answered -32700 (its JSON is cut short, framing.ts).
 *
 * Bytes are passed through as they come; only a header block (at most {@link MAX_HEADER}
 * bytes) is held. Frames: the base protocol of the Language Server Protocol, which JSON-RPC
 * over stdio uses (`Content-Length: N\r\n\r\n` then N bytes).
 */
import { Transform, type TransformCallback } from 'node:stream';

/** A header block longer than this is passed on as it is (the reader reports it). */
const MAX_HEADER = 64 * 1024;
const CONTENT_LENGTH = /(^|[^\r\n])(Content-Length:[ \t]*(\d+)[ \t]*\r\n)/i;
const LENGTH_LINE = /^Content-Length:[ \t]*(\d+)[ \t]*$/im;

export class FrameResync extends Transform {
  private held: Buffer = Buffer.alloc(0);
  /** Body bytes still to pass through before the next header block. */
  private body = 0;

  constructor(private readonly log: (line: string) => void = (l) => process.stderr.write(l)) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    let data: Buffer = chunk;
    while (data.length) {
      if (this.body > 0) {
        const n = Math.min(this.body, data.length);
        this.push(data.subarray(0, n));
        this.body -= n;
        data = data.subarray(n);
        continue;
      }
      this.held = this.held.length ? Buffer.concat([this.held, data]) : data;
      data = Buffer.alloc(0);
      const end = this.held.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.held.length > MAX_HEADER) this.flushHeld();
        break;
      }
      let head = this.held.subarray(0, end + 4);
      const rest = this.held.subarray(end + 4);
      this.held = Buffer.alloc(0);
      const text = head.toString('latin1');
      const m = CONTENT_LENGTH.exec(text);
      if (m && m.index + m[1]!.length > 0 && !/^[A-Za-z-]+:/.test(text)) {
        // Bytes before the header that are not a header line: the tail of a short frame.
        const cut = m.index + m[1]!.length;
        this.log(`engine: dropped ${cut} bytes in front of a frame header (the frame before was shorter than its Content-Length said)\n`);
        head = head.subarray(cut);
      }
      const len = LENGTH_LINE.exec(head.toString('latin1'));
      this.push(head);
      this.body = len ? Number(len[1]) : 0;
      data = rest;
    }
    cb();
  }

  override _flush(cb: TransformCallback): void {
    this.flushHeld();
    cb();
  }

  private flushHeld(): void {
    if (this.held.length) this.push(this.held);
    this.held = Buffer.alloc(0);
  }
}
