/**
 * Following redirects (RFC 9110 15.4; curl's manual for -L and --max-redirs): 301/302/303 turn
 * a non-GET/HEAD request into a GET without body, as curl -L and browsers do (303 any method but
 * HEAD, 301/302 only POST); 307/308 keep method and body, which a body read from a pipe cannot
 * give again; Authorization and Cookie are dropped when the origin changes.
 */
import { EngineError } from '../errors.js';
import { headerValue, type Header, type Redirect, type Request } from '../model.js';
import type { BodyStream } from './request-body.js';
import { CURL_EXIT } from './transport-error.js';

/** curl's default redirect limit (curl's manual, --max-redirs): the one limit of every front end. */
export const MAX_REDIRECTS = 50;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Whether a response is a redirect to follow: one of 301, 302, 303, 307, 308 with a Location. */
export function isRedirect(status: number, headers: Header[]): boolean {
  return REDIRECTS.has(status) && headerValue(headers, 'location') !== undefined;
}

/** One redirect being followed: the request that got it, its URL, the status and the Location. */
export interface Hop {
  current: Request;
  url: URL;
  status: number;
  location: string;
  /** The request body read as a stream, if any. */
  stream: BodyStream | undefined;
}

/**
 * The request to send next after a redirect; the redirect is appended to `redirects`.
 * @param original the URL first asked for, named in the too-many-redirects error.
 * @throws EngineError `too-many-redirects` past `maxRedirects` (curl exit 47), `network-error`
 *   when a 307/308 asks again for a body read from a pipe (curl exit 65) or the Location is
 *   not http or https (a file:// redirect; curl exit 1).
 */
export function redirectRequest(hop: Hop, original: string, redirects: Redirect[], maxRedirects: number): Request {
  const { current, url, status, location, stream } = hop;
  if (redirects.length >= maxRedirects) {
    throw new EngineError('too-many-redirects', `${original}: more than ${maxRedirects} redirects`, {
      hint: 'The server redirects in a loop, or raise the redirect limit.',
      details: { url: original, curlExit: CURL_EXIT.redirects },
    });
  }
  const nextUrl = new URL(location, url);
  const next = nextUrl.href;
  if (nextUrl.protocol !== 'http:' && nextUrl.protocol !== 'https:') {
    // A server must not make the client read a local file or speak another protocol; curl
    // refuses such a redirect too ("Protocol not supported", exit 1).
    throw new EngineError('network-error', `${url.href}: the server redirects (${status}) to ${next}; only http and https redirects are followed, so it was not`, {
      hint: `A redirect to ${nextUrl.protocol.replace(/:$/, '')}: would let the server read local files or reach other services; fetch that URL yourself if you mean to.`,
      details: { url: url.href, location: next, curlExit: 1 },
    });
  }
  redirects.push({ status, url: url.href, location: next });
  const toGet = (status === 303 && current.method !== 'HEAD') || ((status === 301 || status === 302) && current.method === 'POST');
  if (!toGet && stream && !stream.reopen) {
    throw new EngineError('network-error', `${url.href}: the server redirects (${status}) and asks for the body again, but it was read from a pipe`, {
      hint: 'Send the body from a file (--data-binary @file, -T file, or < file), or send it to the final URL.',
      details: { url: url.href, curlExit: 65 },
    });
  }
  let headers = current.headers;
  if (toGet) headers = headers.filter(([n]) => !/^(content-type|content-length|transfer-encoding)$/i.test(n));
  if (new URL(next).origin !== url.origin) headers = headers.filter(([n]) => !/^(authorization|cookie)$/i.test(n));
  const { target: _asWritten, ...rest } = current; // the Location is a new URL, encoded as such
  return { ...rest, url: next, method: toGet ? 'GET' : current.method, body: toGet ? undefined : current.body, headers };
}
