/**
 * The exchange as curl prints it: the status line and header block of -i and HEAD, and -v's
 * `>` / `<` lines on stderr (curl's manual, -i and -v; HTTP/1.1 message syntax, RFC 9112).
 */
import type { Exchange, Header, Response } from '../model.js';

/** The status line: `HTTP/1.1 200 OK`. */
function statusLine(r: Response): string {
  return `HTTP/${r.httpVersion} ${r.status}${r.statusText ? ' ' + r.statusText : ''}`;
}

/** The status line and the headers, CRLF-separated, ending in an empty line (-i, HEAD). */
export function headerBlock(r: Response): string {
  return [statusLine(r), ...r.headers.map(([n, v]) => `${n}: ${v}`)].join('\r\n') + '\r\n\r\n';
}

/**
 * -v: the request as sent (`>`, own headers first) and the response head (`<`), one per line.
 * Through a proxy, a `*` line names it and where it came from, and an http:// request line is
 * the absolute URL the proxy received, as curl -v shows them.
 */
export function verboseLines(ex: Exchange, own: Header[], proxy?: { origin: string; source: string }): string {
  const u = new URL(ex.request.url);
  const target = proxy && u.protocol === 'http:' ? `${u.origin}${u.pathname}${u.search}` : `${u.pathname}${u.search}`;
  const out = proxy ? [`* Uses proxy ${proxy.origin} (from ${proxy.source})`] : [];
  out.push(`> ${ex.request.method} ${target} HTTP/1.1`, `> Host: ${u.host}`);
  for (const [n, v] of [...own, ...ex.request.headers]) out.push(`> ${n}: ${v}`);
  out.push('>');
  out.push(`< ${statusLine(ex.response)}`);
  for (const [n, v] of ex.response.headers) out.push(`< ${n}: ${v}`);
  out.push('<');
  return out.join('\n') + '\n';
}
