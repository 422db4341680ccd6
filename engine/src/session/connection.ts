/**
 * How one request connects: the session's settings (docs/protocol.md: `proxy`, `caFile`,
 * `insecure`, `clientCert`, `http2`, `unixSocket`, `netrc`) with the request's own connection
 * directives over them (`# @proxy URL`, `# @cacert FILE`, ...: ../sheet/connection-tags.ts),
 * as `send`'s options and as the curl options that connect the same way (C-c C-u,
 * `sheet export --to curl`). One home for the precedence docs/networks.md tabulates: a
 * directive wins over the setting of the same concern, for that request only.
 *
 * File names of directives are relative to the sheet's directory (as `< file` bodies), `~`
 * expanded; the settings' relative to the engine's directory (tls-settings.ts).
 */
import fs from 'node:fs';
import { EngineError } from '../errors.js';
import { expandPath } from '../resolve/url-path.js';
import { chooseProxy, splitCertArg, type ClientCertSpec, type SendOptions } from '../http/send.js';
import { parseNoProxy, parseProxyUrl, type ProxyOptions } from '../http/proxy.js';
import { connectionOf, fromVariables, templateProblem, type ConnectionDirectives, type ConnectionTagName, type TagValue } from '../sheet/connection-tags.js';
import type { RequestNode } from '../sheet/ast.js';
import { connectionCurlArgs, connectionSendOptions } from './tls-settings.js';
import { proxyOptions } from './proxy-setting.js';
import type { Settings } from './types.js';

/** What one request connects with: the settings, its node (directives), where its relative names start. */
export interface ConnectionInput {
  settings: Required<Settings>;
  /** The request; its directives' values substituted (the resolver's `directives`: connection-tags.ts). */
  node: RequestNode;
  /** The sheet's directory (the engine's when the text has no file). */
  baseDir: string;
  /** A `.http` environment's client certificates by host (already absolute). */
  envCertificates?: Record<string, ClientCertSpec>;
}

type Tags = ConnectionDirectives['tags'];

/** The file a directive names, `~` expanded, from the sheet's directory. */
const fileOf = (t: TagValue, baseDir: string) => expandPath(t.value, baseDir);

/**
 * The request's directives, checked before anything is sent: problems (a missing value, `# @key`
 * without `# @cert`) and files that cannot be read are errors naming the line.
 * @throws EngineError `bad-option` for a problem; `bad-proxy` for a malformed proxy or no-proxy
 *   list; `bad-ca-file`, `bad-client-cert`, `bad-netrc` (details.curlExit 77, 58, 26) for a file
 *   that cannot be read; each naming the directive and its line (`EngineError.line`).
 */
export function checkedTags(node: RequestNode, baseDir: string): Tags {
  const { tags, problems } = connectionOf(node.directives);
  const p = problems[0] ?? (Object.keys(tags) as ConnectionTagName[]).map((n) => templateProblem(n, tags[n]!)).find((x) => x);
  if (p) throw new EngineError('bad-option', p.message, { line: p.line, hint: p.hint });
  // The proxy and no-proxy list by curl's rules (http/proxy.ts), before anything is sent.
  for (const [name, check] of [['proxy', parseProxyUrl], ['noproxy', parseNoProxy]] as const) {
    const t = tags[name];
    try {
      if (t) check(t.value, `# @${name}`);
    } catch (e) {
      if (e instanceof EngineError) throw new EngineError(e.code, `${e.message}${fromVariables(t)}`, { line: t!.line, hint: e.hint, details: { ...e.details, ...(t!.variables ? { variables: t!.variables } : {}) } });
      throw e;
    }
  }
  for (const [name, code, exit] of FILES) {
    const t = tags[name];
    if (!t) continue;
    const file = name === 'cert' ? expandPath(splitCertArg(t.value).file, baseDir) : fileOf(t, baseDir);
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch (e) {
      throw new EngineError(code, `# @${name}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})${fromVariables(t)}; nothing was sent`, {
        line: t.line,
        hint: `Check the file name after # @${name}${t.variables ? ` and the value of ${t.variables.join(', ')}` : ''} (relative names start at the sheet's directory).`,
        details: { path: file, curlExit: exit, ...(t.variables ? { variables: t.variables } : {}) },
      });
    }
  }
  return tags;
}

/**
 * `e` with the line of the directive its message starts with (`# @cacert (line 3) /x/ca.pem: the
 * CA file holds no PEM certificate`, `# @cacert (line 3, {{certDir}}) ...`, from ../http/ which knows no lines), for the front ends that
 * point at `EngineError.line`; any other error as it is.
 */
export function atDirectiveLine(e: unknown): unknown {
  const m = e instanceof EngineError && e.line === undefined ? /^# @[\w-]+ \(line (\d+)(?:, [^)]*)?\)/.exec(e.message) : null;
  // The error's line says it: the message drops its own `(line N)`, keeps the variables (`# @cacert ({{certDir}})`).
  return m ? new EngineError((e as EngineError).code, (e as EngineError).message.replace(/^(# @[\w-]+) \(line \d+(?:, ([^)]*))?\)/, (_, at: string, vars?: string) => (vars ? `${at} (${vars})` : at)), { line: Number(m[1]), hint: (e as EngineError).hint, details: (e as EngineError).details, cause: e }) : e;
}

/** The directives naming files read before sending, their error code and curl's exit status for it. */
const FILES: [keyof Tags, 'bad-ca-file' | 'bad-client-cert' | 'bad-netrc', number][] = [
  ['cacert', 'bad-ca-file', 77],
  ['cert', 'bad-client-cert', 58],
  ['key', 'bad-client-cert', 58],
  ['netrc-file', 'bad-netrc', 26],
];

/** `send`'s proxy options: `# @proxy`, `# @noproxy`, `# @proxy-user` over the `proxy` setting. */
function proxyOf(s: Required<Settings>, tags: Tags): NonNullable<SendOptions['proxy']> {
  const base = proxyOptions(s.proxy);
  if (!tags.proxy && !tags.noproxy && !tags['proxy-user']) return base;
  // A proxy of the request replaces the setting's (url.el's per-scheme ones too); the hosts that
  // go direct stay the setting's (`--noproxy`, url.el's no_proxy), else NO_PROXY's, as for
  // curl's -x, unless `# @noproxy` says otherwise.
  const out: ProxyOptions = tags.proxy ? { env: process.env, proxy: tags.proxy.value, ...(base.noProxy !== undefined ? { noProxy: base.noProxy } : {}), ...(base.bypass ? { bypass: base.bypass } : {}) } : { ...base };
  if (tags.noproxy) {
    delete out.bypass;
    out.noProxy = tags.noproxy.value;
  }
  if (tags['proxy-user']) out.proxyUser = tags['proxy-user'].value;
  return { ...out, sources: { ...(tags.proxy ? { proxy: tags.proxy.where } : {}), ...(tags.noproxy ? { noProxy: tags.noproxy.where } : {}) } };
}

/**
 * `send`'s connection options for one request (proxy, certificate authorities, `-k`, client
 * certificate, HTTP/2, Unix socket, `.netrc`): each directive over its setting.
 * @throws EngineError as {@link checkedTags}.
 */
export function connectionSend(c: ConnectionInput): Pick<SendOptions, 'insecure' | 'proxy' | 'trust' | 'clientCert' | 'http2' | 'unixSocket' | 'auth'> {
  const s = c.settings;
  const tags = checkedTags(c.node, c.baseDir);
  const base = connectionSendOptions(s, c.node, c.envCertificates);
  const caFile = tags.cacert ? { caFile: fileOf(tags.cacert, c.baseDir), caFileSource: tags.cacert.where } : s.caFile ? { caFile: expandPath(s.caFile, process.cwd()) } : undefined;
  const netrc = tags['netrc-file'] ? { file: fileOf(tags['netrc-file'], c.baseDir) } : tags.netrc || tags['netrc-optional'] ? {} : s.netrc ? { file: s.netrc } : undefined;
  // `base` is this call's own object: added to, not copied (a spread and then more is slow in Node 20's V8).
  return Object.assign(base, {
    insecure: s.insecure || !!tags.insecure,
    proxy: proxyOf(s, tags),
    ...(caFile ? { trust: caFile } : {}),
    ...(tags.cert ? { clientCert: clientCertOf(tags, c.baseDir) } : {}),
    ...(tags['unix-socket'] ? { unixSocket: fileOf(tags['unix-socket'], c.baseDir) } : {}),
    ...(netrc ? { auth: { netrc: { ...netrc, ...(tags['netrc-optional'] ? { optional: true } : {}) } } } : {}),
  });
}

/** `# @cert FILE[:PASS]`, `# @key`, `# @pass` as curl's --cert, --key, --pass, named by their lines in errors. */
function clientCertOf(tags: Tags, baseDir: string): NonNullable<SendOptions['clientCert']> {
  const cert = tags.cert!;
  const { file, pass } = splitCertArg(cert.value);
  const p = tags.pass?.value ?? pass;
  return {
    cert: expandPath(file, baseDir).replace(/:/g, '\\:'),
    ...(tags.key ? { key: fileOf(tags.key, baseDir) } : {}),
    ...(p !== undefined ? { pass: p } : {}),
    cwd: baseDir,
    names: { cert: cert.where, key: tags.key?.where ?? '# @key', pass: tags.pass?.where ?? '# @pass' },
  };
}

/**
 * The curl options that make curl connect as the engine would for this request (C-c C-u,
 * `sheet/curl`, `sheet export --to curl`): the proxy the engine would use for `url` as `-x`
 * (url.el's `url-proxy-services` when Emacs set it, else the environment, else none;
 * `--noproxy '*'` when a setting sends it direct), `# @noproxy`'s list, `-U`, `--cacert`, `-k`, the
 * client certificate (`--cert`/`--key`; a setting's passphrase left for curl to ask, a
 * directive's printed as `--pass`), `--http2`,
 * `--unix-socket`, `-n`/`--netrc-file`. File names are absolute, so the command runs anywhere.
 * @throws EngineError as {@link checkedTags}, and `bad-proxy` for a proxy that cannot be used.
 */
export function connectionCurl(url: string, c: ConnectionInput, http2: boolean): string[] {
  const s = c.settings;
  const tags = connectionOf(c.node.directives).tags;
  const send = connectionSend(c);
  const words: string[] = [];
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  if (u && !send.unixSocket) {
    const choice = chooseProxy(u, send.proxy);
    // The request's own proxy as written (curl applies its no-proxy list the same way), else the one chosen.
    if (tags.proxy || choice) words.push('-x', tags.proxy?.value ?? choice!.written);
    if (tags.noproxy) words.push('--noproxy', tags.noproxy.value);
    // Direct by a setting (url-proxy-services, sheet run --noproxy): curl must not take the shell's proxy.
    else if (!choice && s.proxy) words.push('--noproxy', '*');
    if (tags['proxy-user']) words.push('-U', tags['proxy-user'].value);
  }
  if (send.trust?.caFile) words.push('--cacert', send.trust.caFile);
  if (send.insecure) words.push('-k');
  if (tags['netrc-file']) words.push('--netrc-file', send.auth!.netrc!.file!);
  else if (tags.netrc) words.push('-n');
  else if (!tags['netrc-optional'] && s.netrc) words.push(...(s.netrc === '~/.netrc' ? ['-n'] : ['--netrc-file', s.netrc]));
  if (tags['netrc-optional']) words.push('--netrc-optional');
  if (tags.cert) {
    const cc = send.clientCert!;
    words.push('--cert', cc.cert!, ...(cc.key ? ['--key', cc.key] : []), ...(tags.pass || cc.pass !== undefined ? ['--pass', cc.pass!] : []));
  }
  // The settings' client certificate, HTTP/2 and socket (tls-settings.ts), unless a directive said otherwise.
  const rest = tags.cert ? connectionCurlArgs(url, { ...s, clientCert: null, clientCertificates: null }, http2) : connectionCurlArgs(url, s, http2, c.envCertificates);
  words.push(...(tags['unix-socket'] ? [...rest.filter((w, i, a) => w !== '--unix-socket' && a[i - 1] !== '--unix-socket'), '--unix-socket', send.unixSocket!] : rest));
  return words;
}
