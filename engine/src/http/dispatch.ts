/**
 * One HTTP exchange without redirects, through undici's dispatcher API (to keep header case and
 * the status text), and where the response body goes: discarded (a redirect's), collected in
 * memory up to a cap, or streamed to a caller's sink with back-pressure, through a decoder
 * (`decode.ts`) when asked. Redirects, cookies and the timeout are `send.ts`'s.
 */
import type { Dispatcher } from 'undici';
import { pipeline, Writable } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { decoder, encodings } from './decode.js';
import { dispatchBody, streamLengthHeader, type BodyStream } from './request-body.js';
import { headerValue, type Header, type Request } from '../model.js';

/** The final response before its body: what a `SendOptions.sink` (send.ts) decides on. */
export interface ResponseHead {
  url: string;
  status: number;
  statusText: string;
  headers: Header[];
  /**
   * The HTTP version that answered: the status line's (`1.0`, `1.1`; RFC 9112 2.3) as
   * undici's parser read it, else (HTTP/2) send.ts's `2` from ALPN.
   */
  httpVersion?: string;
  /** The proxy the exchange went through (send.ts), `origin` and where it came from. */
  proxy?: { origin: string; source: string };
}

/**
 * Bytes between the exchange and its consumer: `discard` (a redirect's body), `collect`
 * (capped), or a caller's sink; a decoder in front when asked. Resolves when the consumer
 * has every byte.
 */
export type BodyPlan = { kind: 'discard' } | { kind: 'collect'; max: number } | { kind: 'sink'; target: Writable };

/** The final response of one exchange; `body` is empty unless the plan collected it. */
export interface RawResponse {
  status: number;
  statusText: string;
  headers: Header[];
  body: Uint8Array;
  /** Body bytes received from the server (before decoding). */
  received: number;
  /** The status line's version (`1.0`, `1.1`); undefined over HTTP/2. */
  httpVersion?: string;
}

/**
 * A response header value as text: UTF-8 when the bytes are valid UTF-8 (what servers send in
 * practice), else Latin-1 (RFC 9110 section 5.5: field values are octets, historically ISO-8859-1).
 */
function headerText(b: Buffer): string {
  const s = b.toString('utf8');
  return !s.includes('\uFFFD') || Buffer.from(s, 'utf8').equals(b) ? s : b.toString('latin1');
}

/** An error of the body's consumer (stdout closed, disk full): not a transport failure. */
export class SinkError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'SinkError';
  }
}

/** A failure after the response head: the body was cut (curl exit 56 / 18). */
export class BodyError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly received: number,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'BodyError';
  }
}

/** One HTTP exchange without redirects, through undici's dispatcher API to keep header case and status text. */
export function dispatchOnce(dispatcher: Dispatcher, req: Request, signal: AbortSignal, stream: BodyStream | undefined, plan: (head: ResponseHead) => Promise<BodyPlan>, decode: boolean): Promise<RawResponse> {
  const url = new URL(req.url);
  const headers: string[] = [];
  // Header values are sent as UTF-8 bytes; undici writes header strings as Latin-1, so
  // non-ASCII text is handed over as the Latin-1 string of its UTF-8 bytes.
  // eslint-disable-next-line no-control-regex
  for (const [n, v] of req.headers) headers.push(n, /[^\x00-\x7f]/.test(v) ? Buffer.from(v, 'utf8').toString('latin1') : v);
  const length = streamLengthHeader(req, stream);
  if (length) headers.push(...length);
  return new Promise<RawResponse>((resolve, reject) => {
    let status = 0;
    let statusText = '';
    let httpVersion: string | undefined;
    let resHeaders: Header[] = [];
    const chunks: Buffer[] = [];
    let collected = 0;
    let received = 0;
    let headSeen = false;
    let abortFn: ((err?: Error) => void) | undefined;
    let settled = false;
    let resumeFn: (() => void) | undefined;
    // Where bytes go once the plan is known; `entry` is the decoder or the target.
    let current: BodyPlan | undefined;
    let entry: Writable | undefined;
    let done: Promise<void> | undefined;
    let pre: Buffer[] | undefined; // first bytes held to pick the decoder
    let preLen = 0;
    const queue: Buffer[] = []; // bytes arriving before the plan resolved
    let completed = false;
    let encs: string[] = [];
    const onAbort = () => abortFn?.(new DOMException('aborted', 'AbortError'));
    if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err) {
        if (entry && !entry.destroyed) entry.destroy();
        if (current?.kind === 'sink' && !current.target.destroyed) current.target.destroy();
        reject(err instanceof SinkError || !headSeen ? err : new BodyError(err, received));
      } else resolve({ status, statusText, headers: resHeaders, body: Buffer.concat(chunks), received, ...(httpVersion ? { httpVersion } : {}) });
    };
    const sinkFailed = (e: unknown) => {
      const err = new SinkError(e);
      if (abortFn) abortFn(err);
      finish(err);
    };
    const collector = (max: number) =>
      new Writable({
        write(c: Buffer, _e, cb) {
          collected += c.length;
          if (collected > max) return cb(new Error(`the body is larger than ${max} bytes`));
          chunks.push(c);
          cb();
        },
      });
    const setup = (p: BodyPlan, first: Buffer) => {
      if (p.kind === 'discard') return;
      const target = p.kind === 'sink' ? p.target : collector(p.max);
      const dec = decode ? decoder(encs, first) : undefined;
      if (dec) {
        entry = dec;
        done = new Promise<void>((res, rej) => pipeline(dec, target, (e) => (e ? rej(e) : res())));
      } else {
        entry = target;
        done = new Promise<void>((res, rej) => {
          target.once('error', rej);
          target.once('finish', res);
          target.once('close', () => (target.writableFinished ? res() : rej(new Error('output closed'))));
        });
      }
      done.catch(sinkFailed);
    };
    // Write one chunk; false = paused until the consumer drains.
    const push = (c: Buffer): boolean => {
      if (!current) {
        queue.push(c);
        return false;
      }
      if (current.kind === 'discard') return true;
      if (!entry) {
        if (decode && encs.length && pre !== undefined) {
          pre.push(c);
          preLen += c.length;
          if (preLen < 2 && !completed) return true;
          const first = Buffer.concat(pre);
          pre = undefined;
          setup(current, first);
          c = first;
        } else setup(current, c);
      }
      if (!entry || entry.destroyed) return true;
      const ok = entry.write(c);
      if (!ok) entry.once('drain', () => resumeFn?.());
      return ok;
    };
    const end = () => {
      completed = true;
      if (current && current.kind !== 'discard') {
        if (!entry) setup(current, pre ? Buffer.concat(pre) : Buffer.alloc(0));
        if (pre && entry) entry.write(Buffer.concat(pre));
        pre = undefined;
        entry?.end();
        done!.then(() => finish(null), () => undefined);
      } else finish(null);
    };
    dispatcher.dispatch(
      {
        origin: url.origin,
        // A target sent as written goes as the Latin-1 string of its UTF-8 bytes, as headers do.
        // eslint-disable-next-line no-control-regex
        path: req.target === undefined ? url.pathname + url.search : /[^\x00-\x7f]/.test(req.target) ? Buffer.from(req.target, 'utf8').toString('latin1') : req.target,
        method: req.method,
        headers,
        body: dispatchBody(req, stream),
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      {
        onConnect(abort) {
          abortFn = abort;
          if (signal.aborted) onAbort();
        },
        // The fifth argument, the status line's version, is patches/undici+7.30.2.patch's:
        // undici reads it (llhttp) but hands no version to a handler.
        onHeaders(statusCode, raw, resume, text, version?: string) {
          status = statusCode;
          statusText = text || STATUS_CODES[statusCode] || '';
          httpVersion = version;
          resumeFn = resume;
          const hs: Header[] = [];
          for (let i = 0; i + 1 < raw.length; i += 2) hs.push([raw[i]!.toString('latin1'), headerText(raw[i + 1]!)]);
          resHeaders = hs;
          if (statusCode < 200) return true; // 1xx: the final response follows
          headSeen = true;
          encs = encodings(headerValue(hs, 'content-encoding'));
          if (decode && encs.length) pre = [];
          plan({ url: req.url, status, statusText, headers: hs, ...(version ? { httpVersion: version } : {}) }).then(
            (p) => {
              current = p;
              const q = queue.splice(0);
              let ok = true;
              for (const c of q) ok = push(c) && ok;
              if (completed) end();
              else if (ok) resume();
            },
            (e) => sinkFailed(e),
          );
          return false;
        },
        onData(chunk) {
          received += chunk.length;
          return push(chunk);
        },
        onComplete() {
          if (!current) {
            completed = true;
            return;
          }
          end();
        },
        onError(err) {
          finish(err);
        },
      },
    );
  });
}
