// The engine's message writer: each JSON-RPC message goes to the stream in one write, header
// and body together, with Content-Length counting the UTF-8 bytes (docs/protocol.md, framing).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FramedStreamWriter } from '../../engine/src/emacs/server.js';

describe('FramedStreamWriter', () => {
  it('writes each message with one write: Content-Length (in bytes), blank line, the JSON', async () => {
    const chunks: Buffer[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    });
    const writer = new FramedStreamWriter(out);
    const first = { jsonrpc: '2.0', id: 1, result: { text: '\u00e9t\u00e9 \u65e5\u672c \u{1f600}' } } as const;
    const second = { jsonrpc: '2.0', method: 'lisp/eval', id: 0, params: { form: '(+ 1 2)' } } as const;
    await writer.write(first);
    await writer.write(second);
    expect(chunks).toHaveLength(2);
    for (const [chunk, msg] of [[chunks[0]!, first], [chunks[1]!, second]] as const) {
      const text = chunk.toString('utf8');
      const m = /^Content-Length: (\d+)\r\n\r\n/.exec(text)!;
      expect(m).not.toBeNull();
      const body = chunk.subarray(Buffer.byteLength(m[0]));
      expect(body.length).toBe(Number(m[1]));
      expect(JSON.parse(body.toString('utf8'))).toEqual(msg);
    }
    expect(Number(/\d+/.exec(chunks[0]!.toString())![0])).toBeGreaterThan(JSON.stringify(first).length);
  });

  it('a failed write rejects and is reported as an error of the writer', async () => {
    const out = new Writable({
      write(_chunk, _enc, done) {
        done(new Error('EPIPE'));
      },
    });
    out.on('error', () => undefined);
    const writer = new FramedStreamWriter(out);
    const errors: unknown[] = [];
    writer.onError(([e]) => errors.push(e));
    await expect(writer.write({ jsonrpc: '2.0', id: 1, result: null } as never)).rejects.toThrow('EPIPE');
    expect(errors.length).toBeGreaterThan(0);
  });
});
