// A recording server on 127.0.0.1 port 0 for the import and export tests that run a collection
// twice, once with its own runner (newman, `bru run`, curl) and once with `sheet run`, and compare
// what reached the server: method, URL, the headers the collection set, body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface Recorded {
  method: string;
  /** The request target as sent (path and query). */
  url: string;
  /** Lower-case names, without the runner's own (`own`); repeated headers joined as node does. */
  headers: Record<string, string>;
  /** The body as Latin-1 text (every byte kept). */
  body: string;
}

export interface RecordingServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  base: string;
  /** The requests received since the last {@link reset}, in order. */
  readonly recorded: Recorded[];
  /** Start a new list (one already read stays as it was). */
  reset(): void;
  close(): Promise<void>;
}

export interface RecordingOptions {
  /** Header names (lower case) each runner adds of its own accord, left out of `headers`. */
  own: Iterable<string>;
  /** A JSON answer to every request (`application/json`); default: an empty 200. */
  answer?: string;
  /**
   * Each runner picks its own multipart boundary: write it `BOUNDARY` in the body and the
   * Content-Type, and drop the CRLF some runners (newman, httpsnippet's curl) put after the
   * close delimiter, which a .http body cannot end with (RFC 2046 5.1.1 makes it optional).
   */
  sameBoundary?: boolean;
}

/** Start a recording server; resolves once it listens. */
export async function startRecordingServer(o: RecordingOptions): Promise<RecordingServer> {
  const own = new Set(o.own);
  let recorded: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!own.has(k)) headers[k] = String(v);
      let body = Buffer.concat(chunks).toString('latin1');
      const b = o.sameBoundary ? /boundary=(\S+)/.exec(headers['content-type'] ?? '')?.[1] : undefined;
      if (b) {
        body = body.split(b).join('BOUNDARY').replace(/--BOUNDARY--\r\n$/, '--BOUNDARY--');
        headers['content-type'] = headers['content-type']!.replace(b, 'BOUNDARY');
      }
      recorded.push({ method: req.method!, url: req.url!, headers, body });
      if (o.answer === undefined) res.writeHead(200).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(o.answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get recorded() {
      return recorded;
    },
    reset() {
      recorded = [];
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
