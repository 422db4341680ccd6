/**
 * The session's settings (issue 24; split from types.ts): what a client may give in
 * `initialize` and override per `sheet/send` (docs/protocol.md, "Settings"), with the client
 * certificate and proxy settings, and the context a request carries back to its front end.
 * Plain data, JSON-ready; types.ts re-exports them. Defaults and checks: settings.ts.
 */
/** Settings a client may give in `initialize` and override per `sheet/send`. */
export interface Settings {
  /**
   * Substitution pass limit; default 10 (`sheet-vars-max-passes`); 0 substitutes nothing. After
   * the last pass the request is sent with what is left, named in `hooks.warnings`.
   */
  maxPasses?: number;
  /** Response size threshold in characters; null disables; default 100000. */
  threshold?: number | null;
  /** Do not send cookies from the jar implicitly (`sheet-inhibit-cookies`). */
  inhibitCookies?: boolean;
  /** Per-request timeout in ms; 0 = none (default). */
  timeoutMs?: number;
  /** Follow redirects (default true). */
  followRedirects?: boolean;
  /**
   * Follow at most this many redirects, then `too-many-redirects` (default 50, curl's limit).
   * sheet-mode sends restclient.el's `url-max-redirections` here when it is not its default.
   */
  maxRedirects?: number;
  /**
   * The `User-Agent` sent when the request sets none (sheet-mode's `sheet-user-agent`, by default
   * `sheet-rest/VERSION`, as curl sends `curl/VERSION`; issue 37 item 10). null (the default): none.
   */
  userAgent?: string | null;
  /** Persist the cookie jar to this file, in the Netscape format curl reads and writes. */
  cookieJarFile?: string | null;
  /** Accept any TLS certificate (curl's `-k`; `sheet run --insecure`); default false. */
  insecure?: boolean;
  /**
   * The proxy (docs/networks.md); null or absent (default): the proxy variables of the
   * engine's environment, by curl's rules (`http_proxy`, `https_proxy`, `ALL_PROXY`, `NO_PROXY`).
   */
  proxy?: ProxySetting | null;
  /**
   * A file of PEM certificates of the authorities that verify servers (curl's `--cacert`;
   * `sheet run --cacert`, Emacs' `sheet-ca-file`): over `CURL_CA_BUNDLE` and `SSL_CERT_FILE`,
   * replacing the default authorities; `NODE_EXTRA_CA_CERTS` still adds to them. `~` expanded,
   * relative to the engine's directory. null (default): the environment's (docs/networks.md).
   */
  caFile?: string | null;
  /**
   * A `.netrc` file whose credentials are sent (curl's `--netrc-file`; `"~/.netrc"` is curl's
   * `-n`; `sheet run --netrc`, Emacs' `sheet-netrc`): for a request without an Authorization of
   * its own and without a password in its URL, by curl's rules (docs/networks.md,
   * "Credentials"). `~` expanded, relative to the engine's directory; unreadable: `bad-netrc`,
   * nothing sent. null (default): none, as curl without `-n`.
   */
  netrc?: string | null;
  /**
   * A client certificate for every host (curl's `--cert`/`--key`/`--pass`; `sheet run --cert`),
   * over `clientCertificates` (docs/networks.md). null (default): none.
   */
  clientCert?: ClientCertSetting | null;
  /**
   * Client certificates by host (`host` or `host:port`, any case): Emacs's
   * `sheet-client-certificates`; a `.http` environment's `clientCertificates` /
   * `SSLConfiguration` come after these. null (default): none.
   */
  clientCertificates?: Record<string, ClientCertSetting> | null;
  /** Offer HTTP/2 to https:// servers by ALPN (curl's `--http2`; `sheet-http2`); default false. */
  http2?: boolean;
  /** Connect to this Unix socket instead of the URL's host (curl's `--unix-socket`); null: none. */
  unixSocket?: string | null;
}

/**
 * A client certificate for mutual TLS (docs/networks.md): PEM files, `~` expanded, relative to
 * the engine's directory. `key` absent: the key is read from the `cert` file, as curl does.
 */
export interface ClientCertSetting {
  cert: string;
  key?: string;
  /** The key's passphrase. */
  pass?: string;
}

/**
 * A proxy setting (proxy-setting.ts), in one of two forms:
 * `all` (+ `noProxy`), as curl's `-x` (+ `--noproxy`) and `sheet run --proxy`; or `http` /
 * `https` (+ `noProxyRegexp`), as url.el's `url-proxy-services`, which sheet-mode sends when the
 * user set it: then the environment is not read and a scheme without a proxy goes direct.
 * Proxies are `host:port` or URLs (`http://user:password@host:port`; no scheme: `http://`, no
 * port: 1080, as curl reads them); only http:// and https:// proxies.
 */
export interface ProxySetting {
  /** One proxy for every URL; the environment's NO_PROXY still applies unless `noProxy`. */
  all?: string;
  /** curl's `--noproxy` list (host names, their subdomains, IP ranges; `*` every host). */
  noProxy?: string;
  /** url.el's "http" entry: the proxy of http:// URLs. */
  http?: string;
  /** url.el's "https" entry: the proxy of https:// URLs. */
  https?: string;
  /** url.el's "no_proxy" entry: an Emacs regexp; hosts it matches go direct. */
  noProxyRegexp?: string;
}

/**
 * A value the client chooses for one request (`sheet/send`, `sheet/variables`, `sheet/curl`);
 * the engine echoes it in every `lisp/eval` it sends while serving that request, so the client
 * knows which sheet buffer a `:=` form belongs to when several requests are in flight.
 */
export type RequestContext = string | number;
