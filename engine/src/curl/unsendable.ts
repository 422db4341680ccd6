/**
 * Headers a curl command may set that the engine's HTTP client (undici) refuses at send time,
 * or replaces: `Transfer-Encoding`, `Expect`, `Keep-Alive`, `Upgrade` and a `Connection` other
 * than `keep-alive`/`close` (undici's request checks; RFC 9112 section 6.1 and RFC 9110 sections
 * 7.6.1, 7.8 and 10.1.1). The import leaves them out instead of writing a request that fails
 * when sent, and says which change only the framing or handshake (the same request: a chunked
 * body arrives as the same bytes with a Content-Length; curl's `Expect: 100-continue` waits for
 * the server's 100 before the same body) and which change what the server is asked.
 */
import type { Header } from '../model.js';

/** A header left out: why, and whether the request then differs from curl's. */
export interface LeftOutHeader {
  header: Header;
  message: string;
  differs: boolean;
}

/**
 * Split `headers` into those the sheet can send and those it cannot (see the file comment).
 * @returns the headers kept, in order, and one entry per header left out.
 */
export function dropUnsendable(headers: Header[]): { kept: Header[]; left: LeftOutHeader[] } {
  const kept: Header[] = [];
  const left: LeftOutHeader[] = [];
  for (const h of headers) {
    const [name, value] = h;
    const lower = name.toLowerCase();
    const v = value.trim().toLowerCase();
    const say = (why: string, differs: boolean) => left.push({ header: h, message: `-H '${name}: ${value}': ${why}`, differs });
    if (lower === 'transfer-encoding') {
      if (v === 'chunked') say('not written: the sheet sends the same body bytes with a Content-Length (only the framing differs)', false);
      else say('not written: the engine cannot send a transfer coding; the body goes as it is, with a Content-Length', true);
    } else if (lower === 'expect') {
      if (v === '100-continue') say("not written: the sheet sends the body at once instead of waiting for the server's 100 (the same request)", false);
      else say('not written: the engine cannot send an Expect header', true);
    } else if (lower === 'keep-alive' || lower === 'upgrade') {
      say(`not written: the engine cannot send ${name} (a connection's header, RFC 9110 section 7.6.1)`, true);
    } else if (lower === 'connection' && v !== 'keep-alive' && v !== 'close') {
      say('not written: the engine sends Connection: keep-alive or close only', true);
    } else kept.push(h);
  }
  return { kept, left };
}
