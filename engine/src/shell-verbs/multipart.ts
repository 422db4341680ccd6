/**
 * The daemon's request (docs/shell.md, "The daemon"): `multipart/form-data` (RFC 7578) as
 * `curl -F` writes it, read as a stream. The small text fields come first and are collected;
 * the optional last part `stdin` (the caller's standard input) is not collected but handed on
 * as a Readable while it arrives, with back-pressure to the socket, so an upload of any size
 * passes through in constant memory.
 */
import { PassThrough, type Readable } from 'node:stream';

/** One multipart text field, bytes as sent. */
export interface Field {
  name: string;
  data: Buffer;
}

export interface RunRequest {
  fields: Field[];
  /** The `stdin` part, streaming; `size` when the request had a Content-Length. */
  stdin?: { stream: Readable; size?: number };
}

/**
 * Read the fields of a multipart request up to the `stdin` part (or the end).
 * @throws Error when the content type has no boundary or the body is not multipart.
 */
export function readRunRequest(req: Readable, contentType: string, contentLength?: number): Promise<RunRequest> {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) return Promise.reject(new Error('no multipart boundary'));
  const delim = Buffer.from(`\r\n--${m[1] ?? m[2]}`);
  const fields: Field[] = [];
  // The body is read as if it began with CRLF, so every delimiter is "\r\n--boundary".
  let buf: Buffer = Buffer.from('\r\n');
  let consumed = -2; // bytes of the request before buf[0]
  let body: PassThrough | undefined;
  let done = false;
  return new Promise<RunRequest>((resolve, reject) => {
    const fail = (e: Error) => {
      if (done) body?.destroy(e);
      else reject(e);
      done = true;
    };
    const parse = () => {
      for (;;) {
        const at = buf.indexOf(delim);
        if (at < 0) return;
        const after = at + delim.length;
        if (buf.length < after + 2) return;
        if (buf[after] === 0x2d && buf[after + 1] === 0x2d) {
          // The closing delimiter: no stdin part.
          done = true;
          resolve({ fields });
          return;
        }
        const headEnd = buf.indexOf('\r\n\r\n', after);
        if (headEnd < 0) return;
        const head = buf.subarray(after + 2, headEnd).toString('latin1');
        const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
        const start = headEnd + 4;
        if (name === 'stdin') {
          body = new PassThrough({ highWaterMark: 1 << 20 });
          const dataStart = consumed + start;
          // curl ends the body with CRLF "--" boundary "--" CRLF.
          const size = contentLength !== undefined ? contentLength - dataStart - (delim.length + 4) : undefined;
          buf = buf.subarray(start);
          consumed += start;
          done = true;
          body.on('drain', () => req.resume());
          resolve({ fields, stdin: { stream: body, size: size !== undefined && size >= 0 ? size : undefined } });
          flushBody(false);
          return;
        }
        const next = buf.indexOf(delim, start);
        if (next < 0) return;
        fields.push({ name, data: Buffer.from(buf.subarray(start, next)) });
        consumed += next;
        buf = buf.subarray(next);
      }
    };
    // Everything but the last delimiter's length (it may be the closing one) goes on.
    const keep = delim.length + 8;
    const flushBody = (end: boolean) => {
      if (!body) return;
      if (end) {
        const close = buf.lastIndexOf(delim);
        if (close >= 0) buf = buf.subarray(0, close);
        if (buf.length) body.write(buf);
        buf = Buffer.alloc(0);
        body.end();
        return;
      }
      if (buf.length > keep) {
        const out = buf.subarray(0, buf.length - keep);
        buf = Buffer.from(buf.subarray(buf.length - keep));
        if (!body.write(out)) req.pause();
      }
    };
    req.on('data', (c: Buffer) => {
      if (body && c.length > keep) {
        // The body part: the held tail, then the chunk but its own tail, without copying it.
        let ok = buf.length ? body.write(buf) : true;
        ok = body.write(c.subarray(0, c.length - keep)) && ok;
        buf = Buffer.from(c.subarray(c.length - keep));
        if (!ok) req.pause();
        return;
      }
      buf = buf.length ? Buffer.concat([buf, c]) : c;
      if (body) flushBody(false);
      else parse();
    });
    req.on('end', () => {
      if (body) flushBody(true);
      else if (!done) fail(new Error('the multipart body ended early'));
    });
    req.on('error', fail);
  });
}
