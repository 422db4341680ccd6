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
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import type { ProxyChoice } from './proxy.js';
import type { Trust } from './trust.js';

/** keep-alive of an idle pooled connection, in ms. */
const KEEP_ALIVE_MS = 30_000;

/** undici's own limit on connecting (TCP and the TLS handshake), in ms. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The connect timeout for a call whose own timeout is `timeoutMs`. undici does not abort a
 * connection attempt (a TLS handshake a server never answers) when the request's signal
 * aborts; it gives up at the connect timeout. A call with a shorter timeout gets pools with
 * that connect timeout, so the attempt ends with the call, as `curl -m` does (send.ts also
 * stops waiting at once).
 */
function connectTimeout(timeoutMs: number | undefined): number {
  return timeoutMs && timeoutMs < CONNECT_TIMEOUT_MS ? Math.max(1, Math.ceil(timeoutMs)) : CONNECT_TIMEOUT_MS;
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

class GroupedProxyAgent extends ProxyAgent {
  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return super.dispatch({ ...opts, headers: grouped(opts.headers) as Dispatcher.DispatchOptions['headers'] }, handler);
  }
}

/** http:// URLs through a proxy: requests in absolute form on a keep-alive pool to the proxy. */
class ForwardProxy {
  private readonly agent: Agent;
  constructor(
    private readonly proxy: ProxyChoice,
    timeout: number,
  ) {
    this.agent = new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: { timeout } });
  }
  dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const target = new URL(String(opts.origin));
    const headers = Array.isArray(opts.headers) ? [...(opts.headers as string[])] : [];
    if (!headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')) headers.push('Host', target.host);
    if (this.proxy.auth) headers.push('Proxy-Authorization', this.proxy.auth);
    return this.agent.dispatch({ ...opts, origin: this.proxy.origin, path: target.origin + opts.path, headers }, handler);
  }
  close(): Promise<void> {
    return this.agent.close();
  }
}

const pools = new Map<string, Pick<Dispatcher, 'dispatch' | 'close'>>();

/**
 * The dispatcher for a request to `url`: direct (`proxy` undefined), or through the proxy
 * (a CONNECT tunnel for https://, absolute form for http://).
 * @param insecure skip the target's certificate verification (curl's -k; the proxy's own
 *   certificate, for an https:// proxy, is still verified, as curl's -k leaves it).
 * @param trust authorities other than Node's defaults (trust.ts), for the target's certificate.
 * @param timeoutMs the call's own timeout, which bounds connecting too (see connectTimeout).
 */
export function dispatcherFor(url: URL, proxy: ProxyChoice | undefined, insecure: boolean, trust?: Trust, timeoutMs?: number): Dispatcher {
  const tunnel = url.protocol === 'https:';
  const timeout = connectTimeout(timeoutMs);
  const tlsKey = `${insecure ? 'insecure' : 'verify'} ${trust?.key ?? 'default'} ${timeout}`;
  const key = proxy ? `${tunnel ? 'connect' : 'forward'} ${proxy.origin} ${proxy.auth ?? ''} ${tunnel ? tlsKey : timeout}` : tlsKey;
  const targetTls = { rejectUnauthorized: !insecure, ...(trust ? { secureContext: trust.context } : {}) };
  let d = pools.get(key);
  if (!d) {
    if (!proxy) d = new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: { ...targetTls, timeout } });
    else if (!tunnel) d = new ForwardProxy(proxy, timeout);
    else {
      d = new GroupedProxyAgent({
        uri: proxy.origin,
        ...(proxy.auth ? { token: proxy.auth } : {}),
        keepAliveTimeout: KEEP_ALIVE_MS,
        requestTls: targetTls,
      });
    }
    pools.set(key, d);
  }
  return d as Dispatcher;
}

/** Close the pooled connections (for a clean exit). */
export async function closeConnections(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((a) => a.close().catch(() => undefined)));
}
