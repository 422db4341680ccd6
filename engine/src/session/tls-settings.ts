/**
 * The connection settings of the protocol beyond proxies and CA files (`Settings.clientCert`,
 * `clientCertificates`, `http2`, `unixSocket`; docs/protocol.md and docs/networks.md): their
 * shape checked where settings arrive (server.ts), and turned into `send`'s options
 * (http/client-cert.ts, http/dispatchers.ts). File names: `~` expanded, relative to the
 * engine's directory (as `caFile`).
 *
 * - `clientCert`: curl's `--cert`/`--key`/`--pass` for every host (`sheet run --cert`).
 * - `clientCertificates`: one certificate per host (`host` or `host:port`): Emacs's
 *   `sheet-client-certificates`; `clientCert` wins, as curl's `--cert` does.
 */
import path from 'node:path';
import { EngineError } from '../errors.js';
import { expandPath } from '../resolve/resolve.js';
import { pickClientCert, splitCertArg, type ClientCertOptions, type ClientCertSpec, type SendOptions } from '../http/send.js';
import type { ClientCertSetting, Settings } from './types.js';
import type { RequestNode } from '../sheet/ast.js';
import { requestMeta } from '../resolve/resolve-http.js';

const FIELDS = ['cert', 'key', 'pass'] as const;

/** The defaults of these settings (session.ts's DEFAULT_SETTINGS): none, HTTP/1.1, the network. */
export const NO_CONNECTION_SETTINGS = { clientCert: null, clientCertificates: null, http2: false, unixSocket: null } as const;

function checkOne(v: unknown, where: string): void {
  const ok = typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as ClientCertSetting).cert === 'string' && FIELDS.every((f) => (v as Record<string, unknown>)[f] === undefined || typeof (v as Record<string, unknown>)[f] === 'string');
  if (!ok) throw new EngineError('bad-argument', `${where} must be {cert, key?, pass?} with strings (a PEM certificate file, its key file, the key's passphrase), not ${JSON.stringify(v)}`, { hint: 'See ClientCertSetting in docs/protocol.md.' });
}

/**
 * Check the shapes of `clientCert` and `clientCertificates` (the types of the others are
 * checked with every setting).
 * @throws EngineError `bad-argument` naming the field.
 */
export function checkTlsSettings(s: Record<string, unknown>, where: string): void {
  if (s.clientCert !== undefined && s.clientCert !== null) checkOne(s.clientCert, `${where}.clientCert`);
  const by = s.clientCertificates;
  if (by === undefined || by === null) return;
  if (typeof by !== 'object' || Array.isArray(by)) throw new EngineError('bad-argument', `${where}.clientCertificates must be an object keyed by host, not ${JSON.stringify(by)}`, { hint: 'See Settings in docs/protocol.md.' });
  for (const [host, v] of Object.entries(by)) checkOne(v, `${where}.clientCertificates[${JSON.stringify(host)}]`);
}

function spec(c: ClientCertSetting, cwd: string): ClientCertSpec {
  return { cert: expandPath(c.cert, cwd), ...(c.key !== undefined ? { key: expandPath(c.key, cwd) } : {}), ...(c.pass !== undefined ? { pass: c.pass } : {}) };
}

/**
 * `send`'s client certificate options from the settings, with `byHost` entries of a `.http`
 * environment (`extraByHost`, already absolute) after the setting's own; undefined when none.
 */
export function clientCertOptions(s: Settings, extraByHost?: Record<string, ClientCertSpec>, cwd = process.cwd()): ClientCertOptions | undefined {
  if (s.clientCert) {
    const c = spec(s.clientCert, cwd);
    // A `:` in the name is the file's own here (no curl FILE:PASS split): escape it.
    return { cert: c.cert.replace(/:/g, '\\:'), ...(c.key ? { key: c.key } : {}), pass: c.pass, cwd };
  }
  const byHost: Record<string, ClientCertSpec> = {};
  for (const [h, c] of Object.entries(s.clientCertificates ?? {})) byHost[h] = spec(c, cwd);
  for (const [h, c] of Object.entries(extraByHost ?? {})) if (!(h in byHost)) byHost[h] = c;
  return Object.keys(byHost).length ? { byHost, cwd, names: { cert: 'client certificate', key: 'client key', pass: 'the "pass" of the clientCertificates setting (:pass in sheet-client-certificates)' } } : undefined;
}

/**
 * The `clientCert` setting from curl-style options (`sheet run --cert FILE[:PASS] --key FILE
 * --pass PASS`): the name split as curl splits it, files made absolute from `cwd`; undefined
 * without `--cert`.
 * @throws EngineError `bad-option` for `--key` or `--pass` without `--cert`.
 */
export function clientCertSetting(o: { cert?: string; key?: string; pass?: string }, cwd: string): ClientCertSetting | undefined {
  if (o.cert === undefined) {
    const stray = o.key !== undefined ? '--key' : o.pass !== undefined ? '--pass' : undefined;
    if (stray) throw new EngineError('bad-option', `${stray} needs --cert: the key and passphrase belong to a client certificate`, { hint: 'Give --cert FILE too.' });
    return undefined;
  }
  const { file, pass } = splitCertArg(o.cert);
  const p = o.pass ?? pass;
  return { cert: path.resolve(cwd, file), ...(o.key !== undefined ? { key: path.resolve(cwd, o.key) } : {}), ...(p !== undefined ? { pass: p } : {}) };
}

/**
 * The curl options that make curl connect as the engine would for a request to `url` with
 * these settings (C-c C-u, `sheet/curl`): `--cert`/`--key` of the certificate that applies
 * (the passphrase is left for curl to ask for, so it is not printed), `--http2`, `--unix-socket`.
 */
export function connectionCurlArgs(url: string, s: Settings, http2: boolean, extraByHost?: Record<string, ClientCertSpec>): string[] {
  const args: string[] = [];
  const o = clientCertOptions(s, extraByHost);
  let u: URL | undefined;
  try {
    u = new URL(url);
  } catch {
    u = undefined;
  }
  const picked = o && u?.protocol === 'https:' ? pickClientCert(u, o) : undefined;
  if (picked) {
    args.push('--cert', picked.spec.cert.replace(/:/g, '\\:'));
    if (picked.spec.key) args.push('--key', picked.spec.key);
  }
  if (http2) args.push('--http2');
  if (s.unixSocket) args.push('--unix-socket', expandPath(s.unixSocket, process.cwd()));
  return args;
}

/** Whether a request offers HTTP/2: the `http2` setting, `# @http2`, or `HTTP/2` on its request line (resolve-http.ts). */
export function wantsHttp2(s: Settings, node: RequestNode): boolean {
  return !!s.http2 || requestMeta(node).http2;
}

/** `send`'s connection options (client certificate, HTTP/2, Unix socket) for a request `node` with these settings. */
export function connectionSendOptions(s: Settings, node: RequestNode, envCertificates?: Record<string, ClientCertSpec>): Pick<SendOptions, 'clientCert' | 'http2' | 'unixSocket'> {
  return { clientCert: clientCertOptions(s, envCertificates), http2: wantsHttp2(s, node), ...(s.unixSocket ? { unixSocket: expandPath(s.unixSocket, process.cwd()) } : {}) };
}
