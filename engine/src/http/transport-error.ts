/**
 * Transport failures as engine errors: the undici / Node error of a failed exchange mapped to a
 * stable code (docs/errors.md) that names the URL, with the exit status curl gives for the same
 * failure (curl's manual, "EXIT CODES"), which the shell verbs return as resty does.
 */
import { EngineError, type ErrorCode } from '../errors.js';
import { BodyError } from './dispatch.js';
import type { ProxyChoice } from './proxy.js';
import { CONNECT_TIMEOUT_MS } from './dispatchers.js';

/** curl's exit codes (curl's manual, "EXIT CODES") for the transport failures, by engine error code. */
export const CURL_EXIT = { unknownProxy: 5, unknownHost: 6, refused: 7, partial: 18, timeout: 28, tls: 35, tlsCert: 60, redirects: 47, emptyReply: 52, recv: 56 } as const;

/**
 * The engine error code for a transfer curl failed with exit status `code` (the curl fallback,
 * via-curl.ts): the reverse of {@link CURL_EXIT}; `network-error` for any other status.
 */
function errorCodeForCurlExit(code: number): ErrorCode {
  switch (code) {
    case CURL_EXIT.timeout:
      return 'timeout';
    case CURL_EXIT.unknownHost:
      return 'unknown-host';
    case CURL_EXIT.refused:
      return 'connection-refused';
    case CURL_EXIT.redirects:
      return 'too-many-redirects';
    case CURL_EXIT.tls:
    case CURL_EXIT.tlsCert:
      return 'tls-error';
    default:
      return 'network-error';
  }
}

/**
 * The error of a transfer the real curl failed with exit status `code` (the curl fallback,
 * via-curl.ts), named from curl's `stderr` as the engine names its own failures.
 */
export function curlExitError(code: number, stderr: string, url: string, partial: boolean): EngineError {
  if (code === CURL_EXIT.tls && WRONG_VERSION.test(stderr)) return plainHttpError(url);
  return new EngineError(errorCodeForCurlExit(code), `${url}: ${stderr.trim() || `curl exited ${code}`}`, { details: { url, curlExit: code, partial } });
}

/** OpenSSL's words when the first bytes back are not a TLS record. */
const WRONG_VERSION = /wrong version number/;

/**
 * An https:// URL answered without TLS (OpenSSL's "wrong version number"): most often a plain
 * HTTP server on that port. curl fails the same way, "SSL connect error" (exit 35).
 */
function plainHttpError(url: string): EngineError {
  const u = new URL(url);
  return new EngineError('tls-error', `${url}: the server at ${u.hostname}:${u.port || 443} answered in plain HTTP, not TLS; use http://`, {
    hint: `Send it to http:${url.slice(u.protocol.length)}, or check the port: the server on it does not speak TLS.`,
    details: { url, curlExit: CURL_EXIT.tls },
  });
}

/**
 * Map a transport failure to an engine error that names the URL. `details.curlExit` is the
 * exit status curl gives for the same failure (the shell returns it, as resty does).
 */
export function transportError(e: unknown, url: string, why: { timedOut: boolean; cancelled: boolean; timeoutMs?: number; connectTimeoutMs?: number; proxy?: ProxyChoice; caSources?: string[]; clientCert?: string; socketPath?: string }): EngineError {
  if (why.timedOut) {
    return new EngineError('timeout', `${url}: no complete response within ${why.timeoutMs} ms`, {
      hint: 'Raise the timeout, or check that the server answers.',
      details: { url, curlExit: CURL_EXIT.timeout },
    });
  }
  if (why.cancelled) return new EngineError('cancelled', `${url}: request cancelled`, { details: { url } });
  if (e instanceof BodyError) {
    const inner = e.cause as { code?: string; message?: string } | undefined;
    // A clean close (FIN) mid-body is curl's 18 ("transfer closed with N bytes remaining to
    // read"); a reset or a framing error mid-body is 56, as with curl.
    const short = inner?.code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || inner?.code === 'UND_ERR_SOCKET';
    return new EngineError('network-error', `${url}: the connection ${short ? 'closed' : 'broke'} after ${e.received} bytes of the body (${inner?.code ?? inner?.message ?? 'reset'}); the output is incomplete`, {
      hint: short ? 'The server closed the connection before the end of the body; try again, or check the server.' : 'The connection was reset or the body was malformed; try again, or check the server.',
      details: { url, partial: true, received: e.received, curlExit: short ? CURL_EXIT.partial : CURL_EXIT.recv },
    });
  }
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err?.code ?? err?.cause?.code ?? '';
  const msg = err?.message ?? String(e);
  if (why.proxy) {
    const failed = proxyError(code, msg, url, why.proxy);
    if (failed) return failed;
  }
  if (why.socketPath && (code === 'ECONNREFUSED' || code === 'ENOENT' || code === 'EACCES' || code === 'ENOTSOCK')) {
    // curl --unix-socket: "Failed to connect to ... port 80" (exit 7) for a missing or dead socket.
    return new EngineError('connection-refused', `${url}: cannot connect to the Unix socket ${why.socketPath} (${code})`, {
      hint: code === 'EACCES' ? 'You may not open that socket; check its permissions (the Docker socket wants the docker group).' : 'Is the server listening on that socket? Check the path after --unix-socket.',
      details: { url, socketPath: why.socketPath, curlExit: CURL_EXIT.refused },
    });
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return connectTimeoutError(url, (e as { phase?: string }).phase === 'tls', why.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, why.proxy);
  if (code === 'ECONNREFUSED') {
    return new EngineError('connection-refused', `${url}: connection refused`, { hint: 'Is the server running, and on that port?', details: { url, curlExit: CURL_EXIT.refused } });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new EngineError('unknown-host', `${url}: unknown host ${new URL(url).hostname}`, { hint: 'Check the host name in the URL.', details: { url, curlExit: CURL_EXIT.unknownHost } });
  }
  if (code === 'ERR_ASSERTION' && /upgrade/.test(msg)) {
    // undici asserts when a 101 answers a request that asked for no upgrade (RFC 9110 15.2.2).
    return new EngineError('network-error', `${url}: the server switched protocols (101) though no upgrade was asked for`, {
      hint: 'The server answered with no final response; check the server (curl -v shows the exchange).',
      details: { url, status: 101, curlExit: CURL_EXIT.recv },
    });
  }
  // The server refused the handshake over the client certificate: a TLS alert (TLS 1.2) or, in
  // TLS 1.3, an alert or a close right after it. curl says "SSL connect error" (exit 35) for a
  // refused handshake; curl 7.88 over TLS 1.3 reports the late alert as 56 or 52 instead.
  const alert = /ALERT_(CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|HANDSHAKE_FAILURE|ACCESS_DENIED|DECRYPT_ERROR)/.exec(code + ' ' + msg);
  // TLS 1.3 servers may instead close at once, before any byte of a response.
  const closedAfterCert = !alert && why.clientCert && code === 'UND_ERR_SOCKET' && (e as { socket?: { bytesRead?: number } }).socket?.bytesRead === 0;
  if (closedAfterCert) {
    return new EngineError('tls-error', `${url}: the server closed the connection right after the TLS handshake, without a response: it did not accept the client certificate (${why.clientCert})`, {
      hint: 'Check which authority the server wants client certificates from (curl -v shows it).',
      details: { url, curlExit: CURL_EXIT.tls },
    });
  }
  if (alert) {
    const given = why.clientCert ? `the client certificate (${why.clientCert})` : 'no client certificate';
    return new EngineError('tls-error', `${url}: the server refused the TLS handshake with ${given}: ${alert[1]!.toLowerCase().replace(/_/g, ' ')}`, {
      hint: why.clientCert ? 'The server does not accept that certificate: check which authority it wants (curl -v shows it).' : 'The server wants a client certificate: give one with --cert FILE --key FILE.',
      details: { url, alert: alert[1], curlExit: CURL_EXIT.tls },
    });
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || WRONG_VERSION.test(msg)) return plainHttpError(url);
  if (/CERT|SSL|TLS|self.signed|certificate/i.test(code + ' ' + msg)) {
    const cert = /CERT|self.signed|certificate|UNABLE_TO_VERIFY/i.test(code + ' ' + msg);
    const against = why.caSources?.length ? ` (authorities: ${why.caSources.join(', ')})` : '';
    return new EngineError('tls-error', `${url}: TLS error: ${msg}${against}`, {
      hint: 'Check the certificate and the CA file (--cacert, CURL_CA_BUNDLE, SSL_CERT_FILE, NODE_EXTRA_CA_CERTS), or skip verification (curl -k).',
      details: { url, curlExit: cert ? CURL_EXIT.tlsCert : CURL_EXIT.tls },
    });
  }
  // A connection closed before any response: curl's "Empty reply from server".
  const empty = code === 'UND_ERR_SOCKET' || /other side closed/i.test(msg);
  return new EngineError('network-error', `${url}: ${empty ? 'the server closed the connection without a response' : msg}${code ? ` (${code})` : ''}`, {
    details: { url, errno: code, curlExit: empty ? CURL_EXIT.emptyReply : CURL_EXIT.recv },
  });
}

/**
 * The connect timeout ran out (undici's UND_ERR_CONNECT_TIMEOUT): curl's exit 28 and curl's
 * words, "SSL connection timeout" when the TCP connect succeeded and the TLS handshake did not
 * end (a port that does not speak TLS, or a server that never answers), else "Connection timed
 * out after N milliseconds"; the hint names the limit and curl's --connect-timeout, which sets it.
 */
function connectTimeoutError(url: string, handshake: boolean, ms: number, proxy: ProxyChoice | undefined): EngineError {
  const u = new URL(url);
  const where = proxy ? `the proxy ${proxy.origin}` : `${u.hostname}:${u.port || (u.protocol === 'https:' ? 443 : 80)}`;
  const what = handshake ? `SSL connection timeout: ${where} accepted the connection but did not finish the TLS handshake within ${ms} ms` : `Connection timed out after ${ms} milliseconds (connecting to ${where})`;
  const limit = ms === CONNECT_TIMEOUT_MS ? `${ms / 1000} s, the default` : `${ms / 1000} s`;
  return new EngineError('timeout', `${url}: ${what}`, {
    hint: `${handshake ? 'Is that port a TLS port? ' : ''}The connect timeout (${limit}) bounds the TCP connect and the TLS handshake; set it with --connect-timeout SECONDS (curl's option).`,
    details: { url, curlExit: CURL_EXIT.timeout, connectTimeoutMs: ms, phase: handshake ? 'tls' : 'connect' },
  });
}

/**
 * A failure of the proxy itself (every connection goes to it): refused (curl exit 7), its host
 * unknown (curl exit 5, "Could not resolve proxy"), or it refused the request or the CONNECT
 * tunnel, 407 included (curl exit 56); undefined for other failures.
 */
function proxyError(code: string, msg: string, url: string, proxy: ProxyChoice): EngineError | undefined {
  const which = `the proxy ${proxy.origin} (from ${proxy.source})`;
  const details = { url, proxy: proxy.origin, proxySource: proxy.source };
  if (code === 'ECONNREFUSED') return new EngineError('connection-refused', `${url}: connection refused by ${which}`, { hint: 'Is the proxy running, and on that port? Check the proxy setting.', details: { ...details, curlExit: CURL_EXIT.refused } });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new EngineError('unknown-host', `${url}: unknown proxy host in ${which}`, { hint: 'Check the proxy host name.', details: { ...details, curlExit: CURL_EXIT.unknownProxy } });
  }
  const status = /Proxy Authentication Required \((\d+)\)|Proxy response \((\d+)\)/.exec(msg);
  if (status) {
    const n = status[1] ?? status[2];
    return new EngineError('network-error', `${url}: ${which} answered ${n}${n === '407' ? ' (it wants credentials)' : ''}`, {
      hint: n === '407' ? 'Give the proxy credentials: user:password@ in the proxy URL, or -U user:password.' : 'The proxy refused the request; check the proxy and its access rules.',
      details: { ...details, status: Number(n), curlExit: CURL_EXIT.recv },
    });
  }
  return undefined;
}
