/**
 * One WebSocket connection (RFC 6455) with the `ws` package, on the connection rules of
 * ../http/ (curl's proxy, CA and client-certificate rules, `# @insecure`, Unix sockets): the
 * handshake, messages both ways with their times, the close with its code and reason, a cap
 * on the size of a received message. A refused handshake (401, 426, ...) is an answer, not an
 * error: its status, headers and body come back as an HTTP response. Transport failures are
 * EngineErrors with curl's exit codes (../http/transport-error.ts).
 *
 * `ws` is loaded at first use, so the engine's start-up does not pay for it.
 */
import type { IncomingMessage } from 'node:http';
import type { Header, Request, Response } from '../model.js';
import { EngineError } from '../errors.js';
import { chooseClientCert, chooseProxy, chooseTrust, CURL_EXIT, transportError, type ClientCertOptions, type ProxyOptions, type TrustOptions } from '../http/send.js';

/** One message, either way. */
export interface WsMessage {
  /** `sent` by us, `received` from the server. */
  direction: 'sent' | 'received';
  /** The text of a text frame; a binary message as base64 (`binary` true). */
  text: string;
  binary: boolean;
  /** Its size in bytes (the payload). */
  bytes: number;
  /** When it was sent or received: ms since the handshake completed. */
  atMs: number;
  /** Its sheet line, for a message the script sent. */
  line?: number;
}

/** How the connection ended. */
export interface WsClose {
  /** The close code (RFC 6455 section 7.4): 1000 normal, 1006 no close frame, 1009 too big, 4000-4999 the application's. */
  code: number;
  reason: string;
  /** Who closed it: the server, or we (the script was done, a cap, a timeout, a cancel). */
  by: 'server' | 'client';
  /** ms since the handshake completed. */
  atMs: number;
}

/** How to connect: the same connection settings as an HTTP request (../http/send.ts's options). */
export interface WsConnectOptions {
  /** Skip the server certificate's check (curl's -k, `# @insecure`). */
  insecure?: boolean;
  proxy?: ProxyOptions;
  trust?: TrustOptions;
  clientCert?: ClientCertOptions;
  /** Connect through this Unix socket (curl's --unix-socket). */
  unixSocket?: string;
  /** The handshake's time limit in ms (default 10 s, the engine's connect timeout). */
  handshakeTimeoutMs?: number;
  /** Subprotocols asked for in the handshake (`Sec-WebSocket-Protocol`), e.g. `graphql-transport-ws`; the server must pick one. */
  protocols?: string[];
  /** The largest message taken from the server, in bytes (default {@link MAX_MESSAGE_BYTES}); a bigger one closes with 1009. */
  maxMessageBytes?: number;
  signal?: AbortSignal;
}

/** Default cap of one received message: 16 MiB. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Default time limit of the handshake, ms. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

/** The open connection: messages so far, send and close, and when it closed. */
export interface WsConnection {
  /** The server's 101 response (its headers; Set-Cookie among them). */
  handshake: Response;
  /** The `ws://`/`wss://` URL connected to. */
  url: string;
  /** Every message so far, both ways, in order. */
  readonly messages: WsMessage[];
  /** The subprotocol the server chose in its 101 (`''`: none). */
  protocol: string;
  /** Send a text message (recorded in `messages`); ignored once closing. */
  send(text: string, line?: number): void;
  /** Send a binary message (recorded in `messages` as base64, `binary` true); ignored once closing. */
  sendBinary(bytes: Uint8Array, line?: number): void;
  /** Close with `code` (default 1000) and `reason`; settles `closed`. */
  close(code?: number, reason?: string): void;
  /** Called for each received message as it arrives; those received before are given to it first. */
  onMessage(listener: (m: WsMessage) => void): void;
  /** Called for each message either way as it is sent or received; those so far are given to it first. */
  onAny(listener: (m: WsMessage) => void): void;
  /** Settles when the connection is closed, whoever closed it. */
  readonly closed: Promise<WsClose>;
}

/** What a handshake gives: an open connection, or the server's refusal as an HTTP response. */
export type WsOpenResult = { kind: 'open'; connection: WsConnection } | { kind: 'refused'; response: Response; url: string };

/** `http://` -> `ws://`, `https://` -> `wss://` (the request model keeps the http form; model.ts). */
export function websocketUrlOf(httpUrl: string): string {
  return httpUrl.replace(/^http(s?):\/\//i, 'ws$1://');
}

const headersOf = (res: IncomingMessage): Header[] => {
  const out: Header[] = [];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
  return out;
};

/**
 * Open a WebSocket connection for `request` (its `url` in the http form, its headers the
 * handshake's; its body is not sent: the caller sends the messages).
 * @throws EngineError `connection-refused`, `unknown-host`, `tls-error`, `timeout` (the
 *   handshake's limit), `cancelled`, `bad-proxy`, `bad-ca-file`, `bad-client-cert`, with
 *   `details.curlExit`.
 */
export async function openWebSocket(request: Request, o: WsConnectOptions = {}): Promise<WsOpenResult> {
  const { default: WebSocket } = await import('ws');
  const httpUrl = new URL(request.url);
  const url = websocketUrlOf(request.url);
  const proxy = o.unixSocket ? undefined : chooseProxy(httpUrl, o.proxy);
  const trust = chooseTrust(o.trust);
  const identity = chooseClientCert(httpUrl, o.clientCert);
  const headers: Record<string, string> = {};
  for (const [n, v] of request.headers) headers[n] = headers[n] !== undefined ? `${headers[n]}, ${v}` : v;
  let agent: import('node:http').Agent | undefined;
  if (proxy) {
    const { HttpsProxyAgent } = await import('https-proxy-agent');
    agent = new HttpsProxyAgent(proxy.origin, proxy.auth ? { headers: { 'Proxy-Authorization': proxy.auth } } : {});
  }
  const timeoutMs = o.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
  const maxPayload = o.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const socket = new WebSocket(url, o.protocols ?? [], {
    headers,
    handshakeTimeout: timeoutMs,
    maxPayload,
    followRedirects: false,
    perMessageDeflate: false,
    ...(agent ? { agent } : {}),
    ...(o.unixSocket ? { socketPath: o.unixSocket } : {}),
    ...(o.insecure ? { rejectUnauthorized: false } : {}),
    ...(trust ? { ca: trust.ca } : {}),
    ...(identity ? identity.tls : {}),
  } as import('ws').ClientOptions);
  let cancelled = false;
  const onAbort = () => {
    cancelled = true;
    socket.terminate();
  };
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener('abort', onAbort, { once: true });

  // Every listener is in place before the handshake ends: the server's first frames may come
  // in the same read as its 101, and `ws` emits them right after 'open'.
  let t0 = 0;
  let upgrade: IncomingMessage | undefined;
  const messages: WsMessage[] = [];
  const listeners: ((m: WsMessage) => void)[] = [];
  const anyListeners: ((m: WsMessage) => void)[] = [];
  let closeBy: 'server' | 'client' = 'server';
  let tooBig = false;
  socket.once('upgrade', (res) => (upgrade = res));
  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    const m: WsMessage = { direction: 'received', text: isBinary ? buf.toString('base64') : buf.toString('utf8'), binary: isBinary, bytes: buf.length, atMs: Date.now() - t0 };
    messages.push(m);
    for (const l of listeners) l(m);
    for (const l of anyListeners) l(m);
  });
  socket.on('error', (e: Error & { code?: string }) => {
    // A message over maxPayload: `ws` closes with 1009 itself (RFC 6455 section 7.4.1).
    if (e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') tooBig = true;
  });
  const closed = new Promise<WsClose>((resolve) => {
    socket.once('close', (code: number, reason: Buffer) => {
      o.signal?.removeEventListener('abort', onAbort);
      const why = tooBig ? `a message from the server was over ${maxPayload} bytes (the message size cap)` : cancelled ? 'cancelled' : reason.toString('utf8');
      resolve({ code: tooBig ? 1009 : code, reason: why, by: tooBig || cancelled ? 'client' : closeBy, atMs: Date.now() - t0 });
    });
  });

  const opened = await new Promise<WsOpenResult | { kind: 'upgraded' }>((resolve, reject) => {
    socket.once('open', () => {
      t0 = Date.now();
      resolve({ kind: 'upgraded' });
    });
    socket.once('unexpected-response', (_req, res) => {
      // The server answered the handshake with something else than 101: read its body (capped) and end.
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < maxPayload) chunks.push(c);
        size += c.length;
      });
      const done = () => {
        socket.terminate();
        resolve({ kind: 'refused', url, response: { httpVersion: res.httpVersion, status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: headersOf(res), body: new Uint8Array(Buffer.concat(chunks)) } });
      };
      res.once('end', done);
      res.once('error', done);
    });
    socket.once('error', (e) => {
      if (socket.readyState === WebSocket.OPEN) return;
      const msg = (e as Error).message ?? '';
      if (/Opening handshake has timed out/.test(msg)) {
        reject(new EngineError('timeout', `${url}: no WebSocket handshake within ${timeoutMs} ms`, { hint: 'Check that the server answers on that URL, or raise the connect timeout.', details: { url, curlExit: CURL_EXIT.timeout } }));
        return;
      }
      reject(transportError(e, url, { timedOut: false, cancelled, proxy, ...(trust ? { caSources: trust.sources } : {}), ...(identity ? { clientCert: identity.source } : {}), ...(o.unixSocket ? { socketPath: o.unixSocket } : {}) }));
    });
  }).catch((e: unknown) => {
    o.signal?.removeEventListener('abort', onAbort);
    throw cancelled ? new EngineError('cancelled', `${url}: request cancelled`, { details: { url } }) : e;
  });
  if (opened.kind === 'refused') {
    o.signal?.removeEventListener('abort', onAbort);
    return opened;
  }
  if (opened.kind === 'open') return opened;
  const res = upgrade!;
  const connection: WsConnection = {
    handshake: { httpVersion: res.httpVersion, status: res.statusCode ?? 101, statusText: res.statusMessage ?? 'Switching Protocols', headers: headersOf(res), body: new Uint8Array(0) },
    url,
    protocol: socket.protocol,
    messages,
    send(text, line) {
      if (socket.readyState !== WebSocket.OPEN) return;
      socket.send(text);
      const m: WsMessage = { direction: 'sent', text, binary: false, bytes: Buffer.byteLength(text), atMs: Date.now() - t0, ...(line !== undefined ? { line } : {}) };
      messages.push(m);
      for (const l of anyListeners) l(m);
    },
    sendBinary(bytes, line) {
      if (socket.readyState !== WebSocket.OPEN) return;
      const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      socket.send(buf, { binary: true });
      const m: WsMessage = { direction: 'sent', text: buf.toString('base64'), binary: true, bytes: buf.length, atMs: Date.now() - t0, ...(line !== undefined ? { line } : {}) };
      messages.push(m);
      for (const l of anyListeners) l(m);
    },
    close(code = 1000, reason = '') {
      if (socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) return;
      closeBy = 'client';
      socket.close(code, reason);
      // A server that never answers the close frame: end it after a second (RFC 6455 section 7.1.1).
      setTimeout(() => socket.terminate(), 1000).unref();
    },
    onMessage(l) {
      // Those received before the listener came are given to it first, in order.
      for (const m of messages) if (m.direction === 'received') l(m);
      listeners.push(l);
    },
    onAny(l) {
      for (const m of messages) l(m);
      anyListeners.push(l);
    },
    closed,
  };
  return { kind: 'open', connection };
}
