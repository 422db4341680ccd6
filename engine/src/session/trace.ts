/**
 * The exchange as curl prints it: the status line and header block of -i and HEAD, and -v's
 * `>` / `<` lines on stderr (curl's manual, -i and -v; HTTP/1.1 message syntax, RFC 9112).
 */
import type { Exchange, Header, Response } from '../model.js';

/**
 * The status line as curl prints it, with the version the server answered with: `HTTP/1.1 200
 * OK`, `HTTP/1.0 404 File not found`; `HTTP/2 200` (HTTP/2 has no reason phrase, RFC 9113 8.3.2).
 * The shell verbs' -i, -v and terminal notes, and Emacs' trailer (`ResponseInfo.statusLine`).
 */
export function statusLine(r: Pick<Response, 'httpVersion' | 'status' | 'statusText' | 'protocol'>): string {
  // A gRPC call: `GRPC 0 OK`, `GRPC 5 NOT_FOUND: no user x` (session/grpc.ts).
  if (r.protocol === 'grpc') return `GRPC ${r.status} ${r.statusText}`;
  return `HTTP/${r.httpVersion} ${r.status}${r.statusText && r.httpVersion !== '2' ? ' ' + r.statusText : ''}`;
}

/** The status line and the headers, CRLF-separated, ending in an empty line (-i, HEAD). */
export function headerBlock(r: Response): string {
  return [statusLine(r), ...r.headers.map(([n, v]) => `${n}: ${v}`)].join('\r\n') + '\r\n\r\n';
}

/**
 * -v: the request as sent (`>`, own headers first) and the response head (`<`), one per line.
 * @param wire when the engine sent the request (not curl): the lines its HTTP client (undici)
 *   writes itself, shown where they go on the wire: `Connection: keep-alive` after Host, and
 *   the body's `Content-Length` (`bodyLength` for a streamed body, `chunked` when its length is
 *   unknown; else the length of `request.body`) after the headers. Through a proxy
 *   (`wire.proxy`), a `*` line names it and where it came from, and an http:// request line is
 *   the absolute URL the proxy received, as curl -v shows them. Through a Unix socket
 *   (`wire.socketPath`) a `* Connected to HOST (PATH)` line names it; when HTTP/2 was offered to
 *   an https:// server (`wire.http2`), `* ALPN:` lines say what the server accepted, as curl's.
 */
export function verboseLines(ex: Exchange, own: Header[], wire?: { bodyLength?: number | 'chunked'; proxy?: { origin: string; source: string }; socketPath?: string; http2?: boolean }): string {
  const u = new URL(ex.request.url);
  const proxy = wire?.proxy;
  const target = proxy && u.protocol === 'http:' ? `${u.origin}${u.pathname}${u.search}` : `${u.pathname}${u.search}`;
  const out = proxy ? [`* Uses proxy ${proxy.origin} (from ${proxy.source})`] : [];
  if (wire?.socketPath) out.push(`* Connected to ${u.hostname} (${wire.socketPath}) port ${u.port || (u.protocol === 'https:' ? 443 : 80)}`);
  if (wire?.http2 && u.protocol === 'https:') out.push('* ALPN: offers h2,http/1.1', `* ALPN: server accepted ${ex.response.httpVersion === '2' ? 'h2' : 'http/1.1'}`);
  // HTTP/2 has no Connection header and sends Host as :authority (curl -v still shows Host).
  const two = ex.response.httpVersion === '2';
  out.push(`> ${ex.request.method} ${target} HTTP/${two ? '2' : '1.1'}`, `> Host: ${u.host}`);
  if (wire && !two) out.push('> Connection: keep-alive');
  const headers = [...own, ...ex.request.headers];
  for (const [n, v] of headers) out.push(`> ${n}: ${v}`);
  if (wire && !headers.some(([n]) => /^(content-length|transfer-encoding)$/i.test(n))) {
    const body = ex.request.body;
    const length = wire.bodyLength ?? (body === undefined ? undefined : body.kind === 'text' ? Buffer.byteLength(body.text) : body.bytes.length);
    // HTTP/2 frames the body itself (RFC 9113 8.2.2): no chunked coding.
    if (length === 'chunked') {
      if (!two) out.push('> Transfer-Encoding: chunked');
    }
    else if (length !== undefined) out.push(`> Content-Length: ${length}`);
  }
  out.push('>');
  out.push(`< ${statusLine(ex.response)}`);
  for (const [n, v] of ex.response.headers) out.push(`< ${n}: ${v}`);
  out.push('<');
  return out.join('\n') + '\n';
}
