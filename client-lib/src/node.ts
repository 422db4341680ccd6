/**
 * The Node entry (`node` export condition of the package): everything of the main entry, with
 * a `createClient` whose default transport is the engine's HTTP layer (engine/src/http/send.ts,
 * undici): redirects followed, a timeout, cancel, and with `cookieJar: PATH` the Netscape cookie
 * file curl, the shell's `rest` and sheet-mode share (engine/src/http/cookies.ts). Failures carry
 * the engine's error (code `connection-refused`, `unknown-host`, `timeout`, ..., docs/errors.md)
 * as `cause`, mapped to ClientHttpError codes (docs/client-lib.md). Never in a browser bundle.
 */
import type { CookieJar } from 'tough-cookie';
import { loadJar, refreshJar, trySaveJar } from '../../engine/src/http/cookies.js';
import { send } from '../../engine/src/http/send.js';
import type { Request } from '../../engine/src/model.js';
import { createClient as createFetchClient, type CreateClientOptions } from './adapters/fetch.js';

export * from './index.js';

export interface EngineFetchOptions {
  /** Netscape cookie file (curl's -b/-c FILE): read before the first request, written after each answer. */
  cookieJar?: string;
  /** Follow redirects (301/302/303/307/308, RFC 9110). @default true */
  followRedirects?: boolean;
  /** At most this many redirects, then the error `too-many-redirects`. @default 10 */
  maxRedirects?: number;
  /** Limit of each whole exchange in ms (0: none); a per-request `timeout` of the HTTP config works too. @default 0 */
  timeoutMs?: number;
  /** Skip TLS certificate checks (curl's -k). @default false */
  insecure?: boolean;
  /**
   * A proxy for every request (curl's -x, `http://user:password@host:port`), over the proxy
   * variables. Without it `http_proxy`, `https_proxy`, `ALL_PROXY` and `NO_PROXY` of
   * `process.env` are read by curl's rules (docs/networks.md). @default undefined
   */
  proxy?: string;
  /** Hosts that go direct (curl's --noproxy list), over `NO_PROXY`. @default undefined */
  noProxy?: string;
  /**
   * A client certificate for mutual TLS, as curl's `--cert FILE[:PASS]` (PEM; relative to the
   * working directory), with `key` (default: in the certificate's file) and `pass` (the key's
   * passphrase). A file that cannot be used fails with the engine's `bad-client-cert` naming it,
   * before anything is sent (docs/networks.md). @default undefined
   */
  cert?: string;
  key?: string;
  pass?: string;
  /** Offer HTTP/2 to https:// servers by ALPN (curl's --http2). @default false */
  http2?: boolean;
  /** Connect to this Unix socket instead of the URL's host (curl's --unix-socket). @default undefined */
  unixSocket?: string;
  /** Called with a warning (a cookie file that could not be written: the request itself was sent). @default console.warn */
  onWarning?: (message: string) => void;
}

/**
 * A `fetch`-shaped function on the engine's `send`: what the fetch transport calls in Node.
 * Request bodies: strings, bytes, and what `fetch` takes (FormData, URLSearchParams, Blob);
 * `init.signal` cancels, `init.timeoutMs` limits this
 * exchange (with `timeoutMs` of the options, the shorter wins), `init.redirect` (fetch's:
 * `'manual'` answers with the 3xx itself, `'error'` throws a TypeError on one, `'follow'`) wins
 * over `followRedirects`; fetch's browser-only names (`credentials`, `mode`, ...) mean nothing here. The answer has `status`, `statusText`, `headers`
 * (a `Headers`), `url` (after redirects), `redirected`, `text()`, `arrayBuffer()` and `blob()`.
 * @throws the engine's EngineError (code `connection-refused`, `unknown-host`, `invalid-url`,
 *   `timeout`, `cancelled`, `too-many-redirects`, `tls-error`, `network-error`).
 */
export function engineFetch(options: EngineFetchOptions = {}): (url: string, init?: any) => Promise<any> {
  let jar: Promise<CookieJar> | undefined;
  const warn = options.onWarning || ((m: string) => console.warn(m));
  const fetchOnEngine = async function fetchOnEngine(url: string, init: any = {}) {
    const headers: [string, string][] = Object.entries(init.headers || {}).map(([k, v]) => [k, String(v)]);
    const request: Request = { method: String(init.method || 'GET').toUpperCase(), url: String(url), headers };
    const b = init.body;
    if (typeof b === 'string') request.body = { kind: 'text', text: b };
    else if (b instanceof ArrayBuffer) request.body = { kind: 'bytes', bytes: new Uint8Array(b) };
    else if (ArrayBuffer.isView(b)) request.body = { kind: 'bytes', bytes: new Uint8Array(b.buffer, b.byteOffset, b.byteLength) };
    else if (b !== undefined && b !== null) request.body = await extractBody(b, headers);
    let j: CookieJar | undefined;
    if (options.cookieJar) {
      if (!jar) jar = loadJar(options.cookieJar);
      else jar = jar.then(async (x) => (await refreshJar(x, options.cookieJar!), x));
      j = await jar;
    }
    const exchange = await send(request, {
      jar: j,
      signal: init.signal,
      timeoutMs: shorter(options.timeoutMs, init.timeoutMs),
      // fetch's `redirect` of this call ('manual', 'error': the 3xx itself) over the client's option.
      followRedirects: init.redirect === 'manual' || init.redirect === 'error' ? false : init.redirect === 'follow' ? true : options.followRedirects,
      maxRedirects: options.maxRedirects,
      insecure: options.insecure,
      proxy: { proxy: options.proxy, noProxy: options.noProxy },
      ...(options.cert ? { clientCert: { cert: options.cert, key: options.key, pass: options.pass } } : {}),
      http2: options.http2,
      ...(options.unixSocket ? { unixSocket: options.unixSocket } : {}),
    });
    if (j && options.cookieJar) {
      const warning = await trySaveJar(j, options.cookieJar);
      if (warning) warn(warning);
    }
    const res = exchange.response;
    // As fetch: redirect 'error' rejects with a TypeError (the fetch transport's NETWORK_ERROR).
    if (init.redirect === 'error' && res.status >= 300 && res.status < 400 && res.headers.some(([n]: [string, string]) => n.toLowerCase() === 'location')) {
      throw new TypeError(`${request.method} ${request.url}: redirected (status ${res.status}) and the request's redirect mode is 'error'`);
    }
    const resHeaders = new Headers();
    for (const [n, v] of res.headers) resHeaders.append(n, v);
    const body = res.body;
    return {
      status: res.status,
      statusText: res.statusText,
      headers: resHeaders,
      url: exchange.request.url,
      redirected: exchange.redirects.length > 0,
      text: async () => new TextDecoder().decode(body),
      arrayBuffer: async () => body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength),
      blob: async () => new Blob([body as Uint8Array<ArrayBuffer>], { type: resHeaders.get('content-type') || '' }),
    };
  };
  // The fetch transport hands the HTTP config's `timeout` in ms over as `init.timeoutMs` instead
  // of aborting: the engine's error then says `timeout` (not `cancelled`) and after how long.
  return Object.assign(fetchOnEngine, { handlesTimeout: true });
}

/**
 * Any other body (FormData, URLSearchParams, Blob, a ReadableStream) as Node's own `fetch` sends
 * it: the bytes and Content-Type of the Fetch standard's "extract a body" (a multipart boundary,
 * `application/x-www-form-urlencoded;charset=UTF-8`, the Blob's type), taken from a `Response`
 * of it. The Content-Type is added to `headers` only when the caller gave none, so an explicit
 * one wins as in `fetch`. Anything else (a number) is sent as its text, as `fetch` does.
 */
async function extractBody(b: unknown, headers: [string, string][]): Promise<NonNullable<Request['body']>> {
  const extracted = new Response(b as any);
  const type = extracted.headers.get('content-type');
  if (type && !headers.some(([n]) => n.toLowerCase() === 'content-type')) headers.push(['Content-Type', type]);
  return { kind: 'bytes', bytes: new Uint8Array(await extracted.arrayBuffer()) };
}

/** The smaller of two limits in ms, where 0 or undefined is none. */
function shorter(a: number | undefined, b: number | undefined): number | undefined {
  if (!a || a <= 0) return b && b > 0 ? b : a;
  return b && b > 0 && b < a ? b : a;
}

export type NodeClientOptions = CreateClientOptions & EngineFetchOptions;

/**
 * A `Client` service without AngularJS on the engine's HTTP layer (see the module comment);
 * `fetch` in the options replaces it (e.g. `globalThis.fetch`).
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', cookieJar: 'cookies.txt' });
 * const users = await client.all('users').getList();
 */
export function createClient(options: NodeClientOptions = {}): ReturnType<typeof createFetchClient> {
  return createFetchClient({ ...options, fetch: options.fetch || engineFetch(options) });
}
