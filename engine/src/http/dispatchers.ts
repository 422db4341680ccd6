/**
 * The connection pools: one undici Agent per TLS mode for direct requests, and one undici
 * ProxyAgent per proxy (origin, credentials, TLS mode), kept for the life of the process so
 * keep-alive works through a proxy too. Which proxy a URL takes is `proxy.ts`'s rule.
 *
 * As curl does without `--proxytunnel`, an https:// URL goes through a CONNECT tunnel, made by
 * undici's ProxyAgent (undici's docs, ProxyAgent; no hand-written CONNECT), and an http:// URL is
 * sent to the proxy in absolute form (`GET http://host/path`, RFC 9112 3.2.2) with the target's
 * Host and the proxy's credentials: an ordinary request on a pooled connection to the proxy
 * ({@link ForwardProxy}). undici's own absolute-form path (ProxyAgent with `proxyTunnel: false`,
 * 7.30.2) turns a 407 into an error and then fails an internal assertion outside any promise,
 * which would take the whole daemon down; curl shows that 407 as the response, and so does this.
 */
import tls from 'node:tls';
import type * as Undici from 'undici';
import type { buildConnector, Dispatcher, Pool, ProxyAgent } from 'undici';
import type { ClientIdentity } from './client-cert.js';
import type { ProxyChoice } from './proxy.js';
import type { Trust } from './trust.js';

let undici: typeof Undici | undefined;
let loading: Promise<typeof Undici> | undefined;

/**
 * undici, loaded at the first HTTP exchange or fetch and kept (await it before
 * {@link dispatcherFor}): a `sheet run` of gRPC calls only, `sheet --version` and every other
 * command that sends no HTTP request do not pay for loading it (about 50 ms of each start).
 */
export function loadUndici(): Promise<typeof Undici> {
  return (loading ??= import('undici').then((m) => (undici = m)));
}

function u(): typeof Undici {
  if (!undici) throw new Error('undici is not loaded yet: await loadUndici() before dispatcherFor()');
  return undici;
}

/** keep-alive of an idle pooled connection, in ms. */
const KEEP_ALIVE_MS = 30_000;

/**
 * The default limit on connecting (TCP and the TLS handshake), in ms: undici's. curl's is
 * 300 s; a shell user waits 10 s at most for a port that never answers, and the error says
 * this limit and curl's --connect-timeout that sets it (transport-error.ts; docs/shell.md).
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The connect timeout in ms for a call whose own timeout is `timeoutMs` and whose connect
 * timeout is `connectMs` (curl's --connect-timeout; default {@link CONNECT_TIMEOUT_MS}).
 * undici does not abort a connection attempt (a TLS handshake a server never answers) when
 * the request's signal aborts; it gives up at the connect timeout. A call with a shorter
 * timeout gets pools with that connect timeout, so the attempt ends with the call, as `curl
 * -m` does (send.ts also stops waiting at once).
 */
export function effectiveConnectTimeout(timeoutMs: number | undefined, connectMs?: number): number {
  const connect = connectMs && connectMs > 0 ? Math.max(1, Math.ceil(connectMs)) : CONNECT_TIMEOUT_MS;
  return timeoutMs && timeoutMs < connect ? Math.max(1, Math.ceil(timeoutMs)) : connect;
}

/**
 * Headers as undici's object form with repeated names as arrays: ProxyAgent turns the array
 * form into an object and would keep only the last of two headers with one name.
 */
function grouped(headers: unknown): unknown {
  if (!Array.isArray(headers)) return headers;
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const n = headers[i] as string;
    const v = headers[i + 1] as string;
    const had = out[n];
    out[n] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}

let GroupedProxyAgent: (new (o: ProxyAgent.Options) => ProxyAgent) | undefined;

/** undici's ProxyAgent sending repeated header names as arrays (made once undici is loaded). */
function groupedProxyAgent(o: ProxyAgent.Options): ProxyAgent {
  GroupedProxyAgent ??= class extends u().ProxyAgent {
    override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      return super.dispatch({ ...opts, headers: grouped(opts.headers) as Dispatcher.DispatchOptions['headers'] }, handler);
    }
  };
  return new GroupedProxyAgent(o);
}

/**
 * Headers as undici's flat array form, from the array form (send.ts) or the object form
 * (undici's fetch: http/fetch.ts), repeated names of the object form (arrays) kept.
 */
function flat(headers: unknown): string[] {
  if (Array.isArray(headers)) return [...(headers as string[])];
  if (!headers || typeof headers !== 'object') return [];
  const pairs: [string, unknown][] = Symbol.iterator in headers ? [...(headers as Iterable<[string, unknown]>)] : Object.entries(headers);
  return pairs.flatMap(([n, v]) => (Array.isArray(v) ? v.flatMap((x) => [n, String(x)]) : v === undefined ? [] : [n, String(v)]));
}

/** http:// URLs through a proxy: requests in absolute form on a keep-alive pool to the proxy. */
class ForwardProxy {
  private readonly agent: Undici.Agent;
  constructor(
    private readonly proxy: ProxyChoice,
    timeout: number,
  ) {
    this.agent = new (u().Agent)({ keepAliveTimeout: KEEP_ALIVE_MS, connect: { timeout } });
  }
  dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const target = new URL(String(opts.origin));
    const headers = flat(opts.headers);
    if (!headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')) headers.push('Host', target.host);
    if (this.proxy.auth) headers.push('Proxy-Authorization', this.proxy.auth);
    return this.agent.dispatch({ ...opts, origin: this.proxy.origin, path: target.origin + opts.path, headers }, handler);
  }
  close(): Promise<void> {
    return this.agent.close();
  }
}

const pools = new Map<string, Pick<Dispatcher, 'dispatch' | 'close'>>();

/** The HTTP version each pool's connections negotiated, by `host:port` (ALPN: `2` for h2). */
const negotiated = new WeakMap<object, Map<string, string>>();

/**
 * The last TLS alert a server sent on a pool's new connection, by `host:port`: under
 * TLS 1.3 a server refuses a client certificate after the handshake, and undici reports only
 * "other side closed"; the alert says why.
 */
const alerts = new WeakMap<object, Map<string, Error>>();

/** How one request connects: everything that decides which pool it takes. */
export interface Connection {
  /** The proxy (proxy.ts); undefined: direct. */
  proxy?: ProxyChoice;
  /**
   * Skip the target's certificate verification (curl's -k; the proxy's own certificate, for an
   * https:// proxy, is still verified, as curl's -k leaves it).
   */
  insecure: boolean;
  /** Authorities other than Node's defaults (trust.ts), for the target's certificate. */
  trust?: Trust;
  /** The call's own timeout in ms, which bounds connecting too (see effectiveConnectTimeout). */
  timeoutMs?: number;
  /** The connect timeout in ms (curl's --connect-timeout); default {@link CONNECT_TIMEOUT_MS}. */
  connectTimeoutMs?: number;
  /** The client certificate presented to the target (client-cert.ts; inside a CONNECT tunnel too). */
  identity?: ClientIdentity;
  /**
   * Offer HTTP/2 by ALPN (curl's --http2; undici's allowH2): https:// only, direct or inside a
   * CONNECT tunnel; the server may still answer HTTP/1.1.
   */
  http2?: boolean;
  /** Connect to this Unix socket instead of the URL's host (curl's --unix-socket); no proxy. */
  socketPath?: string;
}

/**
 * The dispatcher for a request to `url`: direct (`c.proxy` undefined), or through the proxy
 * (a CONNECT tunnel for https://, absolute form for http://). Pools are kept per TLS mode, set
 * of authorities, client certificate, HTTP/2 offer, socket and proxy. Needs undici loaded
 * ({@link loadUndici}).
 */
export function dispatcherFor(url: URL, c: Connection): Dispatcher {
  const { proxy, insecure, trust, identity } = c;
  const tunnel = url.protocol === 'https:';
  const timeout = effectiveConnectTimeout(c.timeoutMs, c.connectTimeoutMs);
  const h2 = !!c.http2 && tunnel;
  const tlsKey = `${insecure ? 'insecure' : 'verify'} ${trust?.key ?? 'default'} ${timeout} ${identity?.key ?? ''}`;
  const key = proxy ? `${tunnel ? 'connect' : 'forward'} ${proxy.origin} ${proxy.auth ?? ''} ${tunnel ? `${tlsKey} ${h2 ? 'h2' : ''}` : timeout}` : `${tlsKey} ${h2 ? 'h2' : ''} ${c.socketPath ?? ''}`;
  let d = pools.get(key);
  if (!d) {
    // Node ignores cert and key beside a secureContext: with both, one context holds all three.
    const context = trust && identity ? tls.createSecureContext({ ca: trust.ca, ...identity.tls }) : trust?.context;
    const targetTls = { rejectUnauthorized: !insecure, ...(context ? { secureContext: context } : identity ? identity.tls : {}) };
    const versions = new Map<string, string>();
    const refused = new Map<string, Error>();
    if (!proxy) {
      const base = u().buildConnector({ ...targetTls, timeout, allowH2: h2, ...(c.socketPath ? { socketPath: c.socketPath } : {}) });
      d = new (u().Agent)({ keepAliveTimeout: KEEP_ALIVE_MS, allowH2: h2, connect: recording(base, versions, refused) });
    } else if (!tunnel) d = new ForwardProxy(proxy, timeout);
    else {
      d = groupedProxyAgent({
        uri: proxy.origin,
        ...(proxy.auth ? { token: proxy.auth } : {}),
        keepAliveTimeout: KEEP_ALIVE_MS,
        // HTTP/2 inside the tunnel, as curl --http2 -x: ALPN on the target's TLS (requestTls).
        requestTls: { ...targetTls, ...(h2 ? { allowH2: true } : {}) },
        ...(h2 ? { allowH2: true } : {}),
        // undici's own factory (a Pool, a Client for one connection), its tunnels recorded.
        factory: (origin: string | URL, o: Pool.Options) => {
          const opts = { ...o, connect: recording(o.connect as buildConnector.connector, versions, refused) };
          return o.connections === 1 ? new (u().Client)(origin, opts) : new (u().Pool)(origin, opts);
        },
      });
    }
    negotiated.set(d, versions);
    alerts.set(d, refused);
    pools.set(key, d);
  }
  return d as Dispatcher;
}

/**
 * The HTTP version ALPN chose on `dispatcher` for `url`: `2` when it chose h2 for its origin
 * (RFC 9113 3.2), else `1.1`. An HTTP/1.x answer's own version (an HTTP/1.0 server's `1.0`)
 * comes from its status line instead (dispatch.ts); this is the fallback.
 */
export function versionFor(dispatcher: Dispatcher, url: URL): string {
  return negotiated.get(dispatcher)?.get(originKey(url.hostname, url.port, url.protocol)) ?? '1.1';
}

/**
 * `connect` recording, for each origin, which protocol ALPN chose (the trailer and -v) and the
 * TLS alert a server sends after the handshake (a refused client certificate, TLS 1.3).
 */
function recording(connect: buildConnector.connector, versions: Map<string, string>, refused: Map<string, Error>): buildConnector.connector {
  return (opts, cb) => {
    let tcpUp = false;
    const s = connect(opts, (err, socket) => {
      // A connect timeout after the TCP connect is the TLS handshake's (curl: "SSL connection
      // timeout"): said in the error (transport-error.ts).
      if (err && (err as { code?: string }).code === 'UND_ERR_CONNECT_TIMEOUT') (err as { phase?: string }).phase = tcpUp && opts.protocol === 'https:' ? 'tls' : 'tcp';
      if (!err && socket) {
        const origin = originKey(opts.hostname, opts.port, opts.protocol);
        versions.set(origin, (socket as { alpnProtocol?: string | false }).alpnProtocol === 'h2' ? '2' : '1.1');
        refused.delete(origin);
        socket.on('error', (e: NodeJS.ErrnoException) => {
          if (/ALERT/.test(e.code ?? '')) refused.set(origin, e);
        });
      }
      (cb as (e: Error | null, s: unknown) => void)(err, socket);
    });
    (s as unknown as { once?: (e: string, f: () => void) => void } | undefined)?.once?.('connect', () => (tcpUp = true));
    return s;
  };
}

/** The TLS alert the server of `url` sent on `dispatcher`'s last new connection, once (then forgotten). */
export function tlsAlertFor(dispatcher: Dispatcher, url: URL): Error | undefined {
  const m = alerts.get(dispatcher);
  const k = originKey(url.hostname, url.port, url.protocol);
  const e = m?.get(k);
  m?.delete(k);
  return e;
}

function originKey(hostname: string, port: string | number | null | undefined, protocol: string): string {
  return `${hostname.replace(/^\[|\]$/g, '')}:${port || (protocol === 'https:' ? 443 : 80)}`;
}

/** Close the pooled connections (for a clean exit). */
export async function closeConnections(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((a) => a.close().catch(() => undefined)));
}
