/**
 * A `fetch` that connects as `send` does: the proxy by curl's rules (proxy.ts), the certificate
 * authorities (trust.ts), `-k`, the client certificate for the URL's host (client-cert.ts), a
 * Unix socket, on the same kept pools (dispatchers.ts). For callers that speak through a
 * library wanting a `fetch` (oauth4webapi's `customFetch`: the OAuth2 token and device
 * requests, engine/src/tokens/), so that such requests reach a server exactly as the user's
 * own requests do (docs/networks.md, "OAuth2 token requests").
 *
 * The request and its answer are undici's `fetch` (the package this layer bundles), the
 * answer handed on as the global `Response` class, which oauth4webapi checks with `instanceof`.
 */
import type { RequestInit as UndiciInit } from 'undici';
import { chooseClientCert, type ClientCertOptions } from './client-cert.js';
import { dispatcherFor, loadUndici } from './dispatchers.js';
import { chooseProxy, type ProxyOptions } from './proxy.js';
import { chooseTrust, type TrustOptions } from './trust.js';

/** The connection options of `send` a fetch takes: each as send.ts `SendOptions` documents it. */
export interface FetchConnection {
  proxy?: ProxyOptions;
  trust?: TrustOptions;
  /** Skip the server's certificate verification (curl's -k). */
  insecure?: boolean;
  clientCert?: ClientCertOptions;
  unixSocket?: string;
  /** ms; bounds connecting too (dispatchers.ts `effectiveConnectTimeout`). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
}

/** A `fetch` of the shape oauth4webapi's `customFetch` calls (URL as a string, its own init). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * A fetch connecting by `c`: the proxy, CA set and client certificate are chosen per URL when
 * it is called (as `send` chooses them per hop), so `bad-proxy`, `bad-ca-file` and
 * `bad-client-cert` are thrown before anything is sent. No redirect is followed (a token
 * endpoint that redirects is an error to see, RFC 6749 3.2 does not provide for it).
 * @throws EngineError `bad-proxy`, `bad-ca-file`, `bad-client-cert`; undici's TypeError
 *   (`fetch failed`, the reason in `cause`) when the server cannot be reached.
 */
export function fetchWith(c: FetchConnection): FetchLike {
  return async (href, init) => {
    const url = new URL(href);
    const proxy = c.unixSocket ? undefined : chooseProxy(url, c.proxy);
    const https = url.protocol === 'https:';
    const trust = https && !c.insecure ? chooseTrust(c.trust) : undefined;
    const identity = https ? chooseClientCert(url, c.clientCert) : undefined;
    const { fetch: undiciFetch } = await loadUndici();
    const dispatcher = dispatcherFor(url, { proxy, insecure: !!c.insecure, trust, timeoutMs: c.timeoutMs, connectTimeoutMs: c.connectTimeoutMs, identity, socketPath: c.unixSocket });
    const r = await undiciFetch(href, { ...(init as UndiciInit), redirect: 'manual', dispatcher });
    const body = r.status === 204 || r.status === 304 ? null : await r.arrayBuffer();
    return new Response(body, { status: r.status, statusText: r.statusText, headers: r.headers as unknown as Headers });
  };
}
