/**
 * The parts of a `sheet/send` answer as they travel (docs/protocol.md): request and body on the
 * wire (`wireBody`: UTF-8 text or base64), and a presentation's body inline or in a file from
 * `bodyFileMin` characters on. Split from session.ts, which runs the pipeline.
 */
import { urlWithTarget } from '../url/as-written.js';
import { isUtf8 } from 'node:buffer';
import type { Request, Response } from '../model.js';
import { charLength, decodeExact, type Presentation } from '../present/present.js';
import { longestLineOf } from '../present/longest-line.js';
import { writeBodyFile } from './body-file.js';
import { statusLine } from './trace.js';
import type { PresentationInfo, RequestInfo, ResponseInfo, WireBody } from './types.js';

/**
 * A body for the wire: UTF-8 text as a string when it is valid UTF-8 without NUL, else base64
 * (Emacs 28's JSON parser rejects "\u0000" in a string, and would lose the whole answer).
 */
export function wireBody(bytes: Uint8Array | undefined): WireBody | undefined {
  if (!bytes) return undefined;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buf) && !buf.includes(0)) return { encoding: 'utf-8', data: buf.toString('utf8') };
  return { encoding: 'base64', data: buf.toString('base64') };
}

/** The response part of an answer: `bytes` is the body's size as received (spilled or kept). */
export function responseInfo(r: Response, bytes: number): ResponseInfo {
  return { httpVersion: r.httpVersion, status: r.status, statusText: r.statusText, statusLine: statusLine(r), headers: r.headers, bytes };
}

export function requestInfo(r: Request): RequestInfo {
  const body = r.body ? (r.body.kind === 'text' ? Buffer.from(r.body.text, 'utf8') : r.body.bytes) : undefined;
  // A request sent as written (`# @no-auto-encoding`) shows the URL it put on the wire.
  return { method: r.method, url: urlWithTarget(r.url, r.target), headers: r.headers.map(([n, v]) => [n, v]), body: wireBody(body), line: r.line };
}

/**
 * The body part of a presentation: `text`/`base64` in the answer, or, from `min` characters
 * on, a file (docs/protocol.md, `bodyFileMin`); text holding NUL always in the file (or as
 * kind `binary` when the client takes no files). Written last, once nothing else can fail.
 */
export async function bodyOut(pres: Presentation, bytes: Uint8Array, min: number | undefined): Promise<Partial<PresentationInfo>> {
  // Text holding NUL cannot be a JSON string Emacs 28 reads ("\u0000 is not allowed"): it
  // goes in the file whatever its size, or, for a client that takes no files, as the bytes.
  const nul = pres.kind === 'text' && (pres.text ?? '').includes('\u0000');
  if (nul && min === undefined) return { kind: 'binary', base64: Buffer.from(bytes).toString('base64') };
  if (min !== undefined) {
    if (pres.kind === 'text') {
      const text = pres.text ?? '';
      if (nul || (text.length >= min && (min <= text.length / 2 || charLength(text) >= min))) {
        return { file: await writeBodyFile(text), fileEncoding: 'utf-8' };
      }
    } else if ((pres.base64 ?? '').length >= min) {
      return { file: await writeBodyFile(bytes), fileEncoding: 'binary' };
    }
  }
  return pres.kind === 'text' ? { text: pres.text } : { base64: pres.base64 };
}

/** The body as received (`received` in SendParams), inline or in a file like the body. */
export async function receivedOut(pres: Presentation, bytes: Uint8Array, min: number | undefined): Promise<Partial<PresentationInfo>> {
  // Only a body that is text in its charset has an "as received" text; binary bodies and
  // bodies not valid in their charset are left out (the client falls back to the body).
  const decoded = pres.kind === 'text' ? decodeExact(bytes, pres.charset) : undefined;
  if (!decoded) return {};
  const text = decoded.text;
  // NUL cannot travel in a JSON string Emacs 28 parses: such text goes in a file or not at all.
  const nul = text.includes('\0');
  if (min !== undefined && (nul || text.length >= min)) return { receivedFile: await writeBodyFile(text) };
  return nul ? {} : { received: text };
}


/**
 * A presented body as the answer's `presentation` (docs/protocol.md): its body inline or in a
 * file from `p.bodyFileMin` characters on ({@link bodyOut}), the body as received when
 * `p.received` asks and it was pretty-printed ({@link receivedOut}), the longest line of text.
 */
export async function presentationOut(pres: Presentation, bytes: Uint8Array, p: { bodyFileMin?: number; received?: boolean }): Promise<PresentationInfo> {
  return {
    kind: pres.kind,
    ...(await bodyOut(pres, bytes, p.bodyFileMin)),
    ...(p.received && pres.formatted ? await receivedOut(pres, bytes, p.bodyFileMin) : {}),
    contentType: pres.contentType,
    charset: pres.charset,
    mode: pres.mode,
    formatted: pres.formatted,
    ...(pres.unformatted ? { unformatted: pres.unformatted } : {}),
    ...(pres.kind === 'text' ? { longestLine: longestLineOf(pres.text ?? '') } : {}),
    overThreshold: pres.overThreshold,
  };
}
