/**
 * Which proxy a request goes through, by curl's rules, in one place for every front end.
 *
 * Sources: curl's manual (https://curl.se/docs/manpage.html: `-x/--proxy`, `--noproxy`,
 * `-U/--proxy-user`, ENVIRONMENT) and CURLOPT_NOPROXY's page, checked against curl 7.88:
 *
 * - An explicit proxy (`-x`, `sheet run --proxy`, the `proxy` setting) beats the environment.
 * - Else `http_proxy` for http:// URLs (lower case only: curl never reads `HTTP_PROXY`, which a
 *   CGI server sets from a request's `Proxy:` header), `https_proxy` then `HTTPS_PROXY` for
 *   https:// URLs, then `all_proxy` then `ALL_PROXY`. An empty variable counts as unset.
 * - A proxy string without a scheme is `http://`; without a port it is 1080 (443 for
 *   `https://`), as curl says; `user:password@` in it (percent-decoded) is sent as
 *   `Proxy-Authorization: Basic`, and `-U user:password` beats it.
 * - `--noproxy LIST` beats `no_proxy`, which beats `NO_PROXY`, even when empty (an empty
 *   `--noproxy ""` proxies every host). The list applies to an explicit proxy too. `*` alone
 *   bypasses every host; each other entry is a host name that matches itself and its
 *   subdomains (a leading or trailing dot is ignored, case does not matter), or an IP address
 *   written without brackets, optionally with a CIDR prefix length (`10.0.0.0/8`, `::1`).
 *   Entries are separated by commas and/or blanks. The URL's port plays no part.
 *
 * Where curl silently never matches an entry because of its form (a port `host:8080`, `*` inside
 * a list, `*.example.com`, brackets, a URL, a bad prefix length), the engine refuses it with
 * `bad-proxy` naming the variable, so a user who meant a bypass learns it before anything is sent.
 */
import { BlockList, isIP } from 'node:net';
import { EngineError } from '../errors.js';

/** What a front end knows about proxies for one request (all optional). */
export interface ProxyOptions {
  /** curl's `-x/--proxy`, `sheet run --proxy`, the JSON-RPC `proxy` setting: beats the environment. */
  proxy?: string;
  /** curl's `--noproxy LIST`: beats `no_proxy`/`NO_PROXY`, even when empty. */
  noProxy?: string;
  /** curl's `-U/--proxy-user user:password`: beats credentials in the proxy URL. */
  proxyUser?: string;
  /**
   * The environment the proxy variables are read from: the caller's (the shell verbs pass the
   * calling shell's, through the daemon too). Default: this process's environment.
   */
  env?: Record<string, string | undefined>;
  /**
   * Proxies by scheme in place of the environment and of `proxy` (url.el's
   * `url-proxy-services`, which Emacs users set): a scheme without one goes direct, and no
   * proxy variable is read.
   */
  perScheme?: { http?: string; https?: string; source: string };
  /** A host test in place of the no-proxy lists (url.el's `no_proxy` regexp). */
  bypass?: (host: string) => boolean;
  /** How errors and `-v` name `proxy` and `noProxy` (default `--proxy`, `--noproxy`): a sheet's `# @proxy (line 3)`. */
  sources?: { proxy?: string; noProxy?: string };
}

/** The proxy chosen for one URL. */
export interface ProxyChoice {
  /** The proxy's origin (`http://host:port` or `https://host:port`), without credentials. */
  origin: string;
  /** `Basic ...` for `Proxy-Authorization`, from `-U` or the proxy URL's credentials. */
  auth?: string;
  /** Where the proxy came from: `--proxy` or the variable's name; named in errors. */
  source: string;
  /** The proxy as written there (credentials included): what curl's `-x` is given to go the same way. */
  written: string;
}

/** curl's default proxy ports (curl's manual, `-x`): 1080, and 443 for an HTTPS proxy. */
const DEFAULT_PORT: Record<string, string> = { 'http:': '1080', 'https:': '443' };

function badProxy(source: string, value: string, why: string, hint: string): EngineError {
  return new EngineError('bad-proxy', `${source}: ${why}: ${JSON.stringify(value)}`, { hint, details: { variable: source, value, curlExit: 5 } });
}

const basic = (pair: string) => `Basic ${Buffer.from(pair.includes(':') ? pair : `${pair}:`, 'utf8').toString('base64')}`;

/**
 * A proxy string as curl reads it: scheme `http://` when none, port 1080 (443 for https) when
 * none, credentials taken out.
 * @param source where the string came from (`--proxy`, `https_proxy`, ...), named in the error.
 * @throws EngineError `bad-proxy` (details.curlExit 5) for a string that is not a proxy URL or
 *   whose scheme the engine does not speak (http and https only).
 */
export function parseProxyUrl(value: string, source: string): { origin: string; auth?: string } {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw badProxy(source, value, 'not a proxy URL', 'Write the proxy as http://host:port (user:password@ before the host for credentials).');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw badProxy(source, value, `the engine speaks to http:// and https:// proxies only, not ${u.protocol}//`, 'Use an HTTP proxy (http://host:port), or curl itself for SOCKS.');
  }
  if (!u.hostname) throw badProxy(source, value, 'no host in the proxy URL', 'Write the proxy as http://host:port.');
  // new URL drops a port equal to the scheme's default: only a port written as nothing gets curl's.
  const written = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/?#]*)(:\d+)?/i.exec(text);
  const port = written?.[2] ? u.port || (u.protocol === 'http:' ? '80' : '443') : DEFAULT_PORT[u.protocol]!;
  const auth = u.username || u.password ? basic(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`) : undefined;
  return { origin: `${u.protocol}//${u.hostname}:${port}`, ...(auth ? { auth } : {}) };
}

/** A parsed no-proxy list: every host, or host names and IP ranges. */
export type NoProxyList = { all: true } | { all: false; names: string[]; ips: BlockList };

/**
 * Parse a no-proxy list as curl reads it (CURLOPT_NOPROXY): `*` alone, or entries separated
 * by commas and blanks.
 * @throws EngineError `bad-proxy` naming `source` for an entry curl would never match.
 */
export function parseNoProxy(value: string, source: string): NoProxyList {
  if (value.trim() === '*') return { all: true };
  const names: string[] = [];
  const ips = new BlockList();
  for (const entry of value.split(/[\s,]+/).filter((e) => e !== '')) {
    const bad = (why: string, hint: string) => badProxy(source, entry, why, hint);
    const slash = entry.indexOf('/');
    const addr = slash >= 0 ? entry.slice(0, slash) : entry;
    const family = isIP(addr);
    if (family) {
      const max = family === 4 ? 32 : 128;
      const bits = slash >= 0 ? Number(entry.slice(slash + 1)) : max;
      if (!/^\d+$/.test(slash >= 0 ? entry.slice(slash + 1) : '0') || bits > max) throw bad(`prefix length out of 0-${max}`, 'Write an address range as 10.0.0.0/8 or fd00::/8.');
      // curl's CIDR rule: a prefix of 0 compares the whole address.
      ips.addSubnet(addr, bits === 0 ? max : bits, family === 4 ? 'ipv4' : 'ipv6');
      continue;
    }
    if (entry.includes('://')) throw bad('an entry is a host name, not a URL', 'Write the host name alone: example.com.');
    if (entry.startsWith('[')) throw bad('IPv6 addresses are written without brackets', 'Write ::1, not [::1].');
    if (entry.includes('*')) throw bad('curl knows no wildcards but "*" alone', 'Write .example.com (or example.com) to match every host under example.com.');
    if (/:\d*$/.test(entry)) throw bad('curl matches host names, never ports', 'Leave the port out: the entry then matches the host on every port.');
    if (!/^\.?[^\s,/:@?#[\]]+$/.test(entry)) throw bad('not a host name or an IP address', 'Write host names (example.com, .example.com) or IP addresses (10.0.0.0/8).');
    const name = entry.toLowerCase().replace(/^\./, '').replace(/\.$/, '');
    if (name) names.push(name);
  }
  return { all: false, names, ips };
}

/**
 * Whether `host` (a URL's host name: `[::1]` brackets allowed) bypasses the proxy by `list`
 * (CURLOPT_NOPROXY): a name matches itself and its subdomains, an IP only the addresses listed.
 */
export function bypassesProxy(host: string, list: NoProxyList): boolean {
  if (list.all) return true;
  const h = host.startsWith('[') ? host.slice(1, -1) : host;
  const family = isIP(h);
  if (family) return list.ips.check(h, family === 4 ? 'ipv4' : 'ipv6');
  const name = h.toLowerCase().replace(/\.$/, '');
  return list.names.some((n) => name === n || name.endsWith(`.${n}`));
}

/** The first non-empty variable of `names` in `env` (curl: an empty variable is unset). */
function firstSet(env: Record<string, string | undefined>, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value) return { name, value };
  }
  return undefined;
}

/**
 * The proxy for `url` by curl's rules (see the file's comment), or undefined to go direct.
 * Nothing is read but `o`: the environment is `o.env`, else this process's.
 * @throws EngineError `bad-proxy` naming the option or variable when the proxy string or a
 *   no-proxy entry that applies is malformed (checked before anything is sent).
 */
export function chooseProxy(url: URL, o: ProxyOptions = {}): ProxyChoice | undefined {
  const env = o.perScheme ? {} : (o.env ?? process.env);
  const scheme = url.protocol.slice(0, -1);
  const own = o.perScheme?.[scheme as 'http' | 'https'];
  const found = o.perScheme
    ? own
      ? { name: o.perScheme.source, value: own }
      : undefined
    : o.proxy
      ? { name: o.sources?.proxy ?? '--proxy', value: o.proxy }
      : firstSet(env, scheme === 'http' ? ['http_proxy', 'all_proxy', 'ALL_PROXY'] : [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY']);
  if (!found) return undefined;
  const parsed = parseProxyUrl(found.value, found.name);
  if (o.bypass) {
    if (o.bypass(url.hostname.replace(/^\[(.*)\]$/, '$1'))) return undefined;
  } else {
    const skip = o.noProxy !== undefined ? { name: o.sources?.noProxy ?? '--noproxy', value: o.noProxy } : firstSet(env, ['no_proxy', 'NO_PROXY']);
    if (skip && bypassesProxy(url.hostname, parseNoProxy(skip.value, skip.name))) return undefined;
  }
  const auth = o.proxyUser !== undefined ? basic(o.proxyUser) : parsed.auth;
  return { origin: parsed.origin, ...(auth ? { auth } : {}), source: found.name, written: found.value };
}

/** The environment variables that decide the proxy (curl's manual, ENVIRONMENT), for front ends that forward them. */
export const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY', 'no_proxy', 'NO_PROXY'] as const;
