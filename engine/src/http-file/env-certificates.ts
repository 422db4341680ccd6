/**
 * Client certificates in `.http` environment files (docs/networks.md, docs/http-files.md):
 *
 * - JetBrains HTTP Client: `"SSLConfiguration": { "clientCertificate": "cert.pem",
 *   "clientCertificateKey": "key.pem" }` in an environment of http-client.env.json or its private
 *   file; each may also be `{ "path": "...", "format": "PEM" }`. It applies to every host of
 *   that environment (key `*`). JetBrains asks for a passphrase in a dialog
 *   (`hasCertificatePassphrase`); here `"certificatePassphrase"` gives it, else the key must be
 *   unencrypted.
 * - httpyac: `"clientCertificates": { "api.example.com:8443": { "cert": "...", "key": "...",
 *   "passphrase": "..." } }`, keyed by host (`host` or `host:port`).
 * - VS Code REST Client: `"rest-client.certificates"` in .vscode/settings.json, the same shape,
 *   for every environment, relative paths from the workspace (the folder holding .vscode).
 *
 * Relative paths start at the environment file's directory. Only PEM files: a `pfx` entry or a
 * `format` other than PEM is `bad-environment` naming the file and the entry.
 */
import path from 'node:path';
import { EngineError } from '../errors.js';
import type { ClientCertSpec } from '../http/send.js';

function bad(file: string, where: string, why: string): EngineError {
  return new EngineError('bad-environment', `${file}: ${where}: ${why}`, {
    hint: 'Give PEM files: "clientCertificate" and "clientCertificateKey" (JetBrains), or "cert" and "key" (httpyac); paths relative to the environment file.',
    details: { path: file },
  });
}

/** A path entry: a string, or JetBrains' `{ path, format }`; relative ones from `base`. */
function pathOf(v: unknown, file: string, where: string, base = path.dirname(file)): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return path.resolve(base, v);
  if (typeof v === 'object' && typeof (v as { path?: unknown }).path === 'string') {
    const format = (v as { format?: unknown }).format;
    if (format !== undefined && String(format).toUpperCase() !== 'PEM') throw bad(file, where, `format ${JSON.stringify(format)} is not read; convert the file to PEM (openssl pkcs12 -in F.p12 -out F.pem -nodes)`);
    return path.resolve(base, (v as { path: string }).path);
  }
  throw bad(file, where, `expected a file name, not ${JSON.stringify(v)}`);
}

/**
 * The client certificates one environment section of `file` names, by host (`*`: every host),
 * added to `into` (later sections win, as for variables). `base`: where relative paths start
 * (default the file's directory); `name`: the key of the by-host object in messages.
 * @throws EngineError `bad-environment` naming the file and the entry.
 */
export function addCertificates(section: unknown, file: string, into: Record<string, ClientCertSpec>, base = path.dirname(file), name = 'clientCertificates'): void {
  if (typeof section !== 'object' || section === null) return;
  const s = section as Record<string, unknown>;
  const ssl = s.SSLConfiguration as Record<string, unknown> | undefined;
  if (ssl && typeof ssl === 'object') {
    const cert = pathOf(ssl.clientCertificate, file, 'SSLConfiguration.clientCertificate');
    if (cert) {
      const key = pathOf(ssl.clientCertificateKey, file, 'SSLConfiguration.clientCertificateKey');
      const pass = ssl.certificatePassphrase;
      const passWhere = `"certificatePassphrase" in SSLConfiguration of ${file} (JetBrains asks for it in a dialog: hasCertificatePassphrase)`;
      into['*'] = { cert, ...(key ? { key } : {}), ...(typeof pass === 'string' ? { pass } : {}), passWhere };
    }
  }
  const by = s.clientCertificates;
  if (by === undefined) return;
  if (typeof by !== 'object' || by === null || Array.isArray(by)) throw bad(file, name, 'expected an object keyed by host');
  for (const [host, v] of Object.entries(by as Record<string, unknown>)) {
    const where = `${name}[${JSON.stringify(host)}]`;
    if (typeof v !== 'object' || v === null) throw bad(file, where, 'expected { "cert": FILE, "key": FILE }');
    const e = v as Record<string, unknown>;
    if (e.pfx !== undefined) throw bad(file, `${where}.pfx`, 'PKCS#12 files are not read; convert it to PEM (openssl pkcs12 -in F.p12 -out F.pem -nodes) and give "cert"');
    const cert = pathOf(e.cert, file, `${where}.cert`, base);
    if (!cert) throw bad(file, where, 'no "cert" file');
    const key = pathOf(e.key, file, `${where}.key`, base);
    into[host] = { cert, ...(key ? { key } : {}), ...(typeof e.passphrase === 'string' ? { pass: e.passphrase } : {}), passWhere: `"passphrase" in ${where} of ${file}` };
  }
}
