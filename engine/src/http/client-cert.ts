/**
 * Which client certificate (mutual TLS) a request presents, by curl's rules, in one place for
 * every front end, and the checks curl makes before anything is sent.
 *
 * Sources: curl's manual (`-E/--cert <certificate[:password]>`, `--key`, `--pass`,
 * `--cert-type`), JetBrains' HTTP Client (`SSLConfiguration.clientCertificate` /
 * `clientCertificateKey` in http-client.env.json) and httpyac (`clientCertificates` keyed by
 * host):
 *
 * - `--cert FILE` applies to every host of the call; without it, the first entry of `byHost`
 *   whose host (`host` or `host:port`, the port only when the URL has one) matches the URL.
 * - The key is `--key FILE`, else read from the certificate's own file (curl: "If this option
 *   is not provided, the private key is read from the same file as the certificate").
 * - The passphrase is `--pass`, else the `:PASS` after the certificate's name (`\:` for a colon
 *   in a file name), as curl splits it.
 * - PEM only (curl's default `--cert-type PEM`); the shell verbs hand other types to the real curl.
 *
 * A file that cannot be read, holds no certificate or key, a key that cannot be decrypted with
 * the passphrase, or a key that does not belong to the certificate is `bad-client-cert` naming
 * the option and the file, before anything is sent (curl: exit 58, "could not load PEM client
 * certificate" / "unable to set private key file"). Relative names start at the caller's
 * directory. Files are read again only when their size or time changed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { EngineError } from '../errors.js';

/** One client certificate as a front end names it (file names, not contents). */
export interface ClientCertSpec {
  /** A PEM file with the certificate (and the key, when `key` is absent). */
  cert: string;
  /** A PEM file with the private key. */
  key?: string;
  /** The key's passphrase. */
  pass?: string;
  /** Where a missing passphrase is given, for the message (default the option of `names.pass`). */
  passWhere?: string;
}

/** What a front end knows about client certificates for one call (all optional). */
export interface ClientCertOptions {
  /** curl's `--cert FILE[:PASS]`, `--key FILE`, `--pass PASS`: for every host. */
  cert?: string;
  key?: string;
  pass?: string;
  /**
   * Certificates by host (`api.example.com` or `api.example.com:8443`, any case; `*` for any
   * other host, as a JetBrains environment's SSLConfiguration): Emacs's
   * `sheet-client-certificates`, httpyac's `clientCertificates`, JetBrains' SSLConfiguration.
   */
  byHost?: Record<string, ClientCertSpec>;
  /** Where relative file names start; default this process's working directory. */
  cwd?: string;
  /** The option names for messages (default `--cert`, `--key`, `--pass`). */
  names?: { cert: string; key: string; pass: string };
}

/** A loaded client identity: the TLS options for undici's connector, and a key for the pools. */
export interface ClientIdentity {
  key: string;
  tls: { cert: string; key: string };
  /** The certificate's file and where it came from, for messages: `--cert /x/client.pem`. */
  source: string;
}

const cache = new Map<string, ClientIdentity>();

/**
 * curl's `--cert certificate[:password]`: the file name and the passphrase after the first
 * colon not escaped with a backslash (`\:` stands for a colon in the name). A colon right after
 * a single drive letter (`C:\...`) is part of the name, as curl reads it.
 */
export function splitCertArg(arg: string): { file: string; pass?: string } {
  let file = '';
  for (let i = 0; i < arg.length; i++) {
    const c = arg[i]!;
    if (c === '\\' && arg[i + 1] === ':') {
      file += ':';
      i++;
    } else if (c === ':' && !(i === 1 && /^[A-Za-z]$/.test(arg[0]!) && /[\\/]/.test(arg[2] ?? ''))) {
      return { file, pass: arg.slice(i + 1) };
    } else file += c;
  }
  return { file };
}

/** The byHost entry for `url`: `host:port` first, then `host` (names compared without case), then `*`. */
function forHost(url: URL, byHost: Record<string, ClientCertSpec>): [string, ClientCertSpec] | undefined {
  const host = url.hostname.toLowerCase();
  const entries = Object.entries(byHost).map(([h, s]) => [h.toLowerCase().replace(/^\[|\](?=:\d+$|$)/g, ''), s, h] as const);
  const bare = host.replace(/^\[|\]$/g, '');
  const withPort = url.port ? `${bare}:${url.port}` : undefined;
  const hit = entries.find(([h]) => h === withPort) ?? entries.find(([h]) => h === bare) ?? entries.find(([h]) => h === '*');
  return hit ? [hit[2], hit[1]] : undefined;
}

function stamp(file: string, fail: (why: string) => EngineError): string {
  try {
    const st = fs.statSync(file);
    if (st.isDirectory()) throw fail('a directory, not a file');
    return `${st.size}:${st.mtimeMs}`;
  } catch (e) {
    if (e instanceof EngineError) throw e;
    throw fail(`cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

function read(file: string, fail: (why: string) => EngineError): string {
  try {
    return fs.readFileSync(file, 'latin1');
  } catch (e) {
    throw fail(`cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/**
 * Which certificate applies to `url` (see the file's comment), its files not read: for the
 * curl command line of a request (C-c C-u) and for {@link chooseClientCert}. `where` names its
 * source for messages (`--cert`, `--cert for api.example.com`).
 */
export function pickClientCert(url: URL, o: ClientCertOptions = {}): { spec: ClientCertSpec; where: string } | undefined {
  const names = o.names ?? { cert: '--cert', key: '--key', pass: '--pass' };
  if (o.cert !== undefined) {
    const { file, pass } = splitCertArg(o.cert);
    const p = o.pass ?? pass;
    return { spec: { cert: file, ...(o.key ? { key: o.key } : {}), ...(p !== undefined ? { pass: p } : {}) }, where: names.cert };
  }
  const hit = o.byHost ? forHost(url, o.byHost) : undefined;
  return hit ? { spec: hit[1], where: `${names.cert} for ${hit[0]}` } : undefined;
}

/**
 * The client identity for a request to `url` (see the file's comment), or undefined when none
 * applies.
 * @throws EngineError `bad-client-cert` (details.curlExit 58, details.path the file) naming the
 *   option and the file and saying why: unreadable, no certificate, no key, an encrypted key
 *   without or with a wrong passphrase, a key that does not belong to the certificate.
 */
export function chooseClientCert(url: URL, o: ClientCertOptions = {}): ClientIdentity | undefined {
  const names = o.names ?? { cert: '--cert', key: '--key', pass: '--pass' };
  const picked = pickClientCert(url, o);
  if (!picked) return undefined;
  const { spec, where } = picked;
  if (spec.cert === '') throw new EngineError('bad-client-cert', `${where}: no file name`, { hint: 'Write --cert FILE (a PEM certificate).', details: { option: where, curlExit: 58 } });
  const cwd = o.cwd ?? process.cwd();
  const certFile = path.resolve(cwd, spec.cert);
  const keyFile = spec.key ? path.resolve(cwd, spec.key) : certFile;
  const keyWhere = spec.key ? (where === names.cert ? names.key : where.replace(names.cert, names.key)) : where;
  const fail = (option: string, file: string) => (why: string) =>
    new EngineError('bad-client-cert', `${option} ${file}: ${why}`, {
      hint: 'Give a PEM certificate and its private key (--cert FILE --key FILE, or both in one file), and the key\'s passphrase with --pass.',
      details: { option, path: file, curlExit: 58 },
    });
  const failCert = fail(where, certFile);
  const failKey = fail(keyWhere, keyFile);
  const key = `${certFile}@${stamp(certFile, failCert)} ${keyFile}@${stamp(keyFile, failKey)} ${spec.pass === undefined ? '' : crypto.createHash('sha256').update(spec.pass).digest('hex').slice(0, 16)}`;
  const known = cache.get(key);
  if (known) return known;
  const certText = read(certFile, failCert);
  const certPem = certText.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  if (!certPem) throw failCert('the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
  let x509: crypto.X509Certificate;
  try {
    x509 = new crypto.X509Certificate(certPem[0]!);
  } catch (e) {
    throw failCert(`the certificate is not readable (${(e as Error).message})`);
  }
  const keyText = keyFile === certFile ? certText : read(keyFile, failKey);
  const keyPem = /-----BEGIN (?:[A-Z]+ )?(?:ENCRYPTED )?PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z]+ )?(?:ENCRYPTED )?PRIVATE KEY-----/.exec(keyText)?.[0];
  if (!keyPem) {
    throw failKey(spec.key ? 'the file holds no PEM private key (-----BEGIN PRIVATE KEY-----)' : `the file holds no private key; give it with ${names.key} FILE`);
  }
  let pkey: crypto.KeyObject;
  try {
    pkey = crypto.createPrivateKey({ key: keyPem, ...(spec.pass !== undefined ? { passphrase: spec.pass } : {}) });
  } catch (e) {
    const encrypted = /ENCRYPTED|Proc-Type: 4,ENCRYPTED/.test(keyPem);
    if (encrypted) throw failKey(spec.pass === undefined ? `the key is encrypted; give its passphrase with ${spec.passWhere ?? names.pass}` : 'the passphrase does not decrypt the key');
    throw failKey(`the private key is not readable (${(e as Error).message})`);
  }
  if (!x509.checkPrivateKey(pkey)) {
    throw failKey(`the key does not belong to the certificate in ${certFile} (${x509.subject.replace(/\n/g, ', ')})`);
  }
  const identity: ClientIdentity = { key, tls: { cert: certPem.join('\n'), key: pkey.export({ type: 'pkcs8', format: 'pem' }) as string }, source: `${where} ${certFile}` };
  cache.set(key, identity);
  return identity;
}
