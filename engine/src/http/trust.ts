/**
 * Which certificate authorities verify a server's certificate, by curl's rules, in one place
 * for every front end.
 *
 * Sources: curl's manual (`--cacert`; ENVIRONMENT: `CURL_CA_BUNDLE` and `SSL_CERT_FILE` "will
 * be used as the --cacert value") and Node's documentation of `NODE_EXTRA_CA_CERTS`:
 *
 * - `--cacert FILE` (the verbs, `sheet run`, the `caFile` setting, Emacs' `sheet-ca-file`)
 *   beats `CURL_CA_BUNDLE`, which beats `SSL_CERT_FILE`. That file's certificates *replace* the
 *   default authorities, as curl's do.
 * - `NODE_EXTRA_CA_CERTS` *adds* its certificates to whichever authorities are in use (Node's
 *   meaning). The engine reads it from the caller's environment at each request, so it works
 *   through the shell's daemon too (Node itself reads it only when a process starts; the value
 *   this process started with is already in Node's defaults and costs nothing more).
 * - Without any of them: Node's default authorities, with no cost per connection.
 *
 * Relative file names are taken from the caller's working directory. A file that cannot be
 * read, holds no PEM certificate or a block that is not one DER structure is `bad-ca-file`
 * naming the option or variable and the file, before anything is sent (curl: exit 77, "error
 * setting certificate file").
 */
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { EngineError } from '../errors.js';

/** What a front end knows about certificate authorities for one request (all optional). */
export interface TrustOptions {
  /** curl's `--cacert FILE`: over `CURL_CA_BUNDLE` and `SSL_CERT_FILE`. */
  caFile?: string;
  /** How errors name `caFile` (default `--cacert`): a sheet's `# @cacert (line 3)`. */
  caFileSource?: string;
  /** The caller's environment (`CURL_CA_BUNDLE`, `SSL_CERT_FILE`, `NODE_EXTRA_CA_CERTS`); default this process's. */
  env?: Record<string, string | undefined>;
  /** Where relative file names start; default this process's working directory. */
  cwd?: string;
}

/** Authorities other than Node's defaults: a TLS context made once per set of files, and its key. */
export interface Trust {
  /** The files and their versions; pools are kept per key. */
  key: string;
  context: tls.SecureContext;
  /** The authorities' PEM certificates, for a context that adds a client certificate (dispatchers.ts). */
  ca: string[];
  /** The files and where each came from, for messages: `--cacert /x/ca.pem`. */
  sources: string[];
}

/** The environment variables that decide the authorities, for front ends that forward them. */
export const CA_VARIABLES = ['CURL_CA_BUNDLE', 'SSL_CERT_FILE', 'NODE_EXTRA_CA_CERTS'] as const;

/** What Node itself trusted at start-up (it reads NODE_EXTRA_CA_CERTS then, from its own directory). */
const STARTUP_EXTRA = process.env.NODE_EXTRA_CA_CERTS;
const STARTUP_CWD = process.cwd();

const files = new Map<string, { stamp: string; pem: string[] }>();
const contexts = new Map<string, tls.SecureContext>();

/**
 * Whether a PEM block's base64 is one whole DER SEQUENCE (X.690 8.1: tag 0x30, then its length):
 * a cheap check for a damaged or foreign block, which Node's createSecureContext would skip
 * without a word. A full parse (crypto.X509Certificate) costs as much as the context itself.
 */
function isDerSequence(pem: string): boolean {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
  if (der.length < 2 || der[0] !== 0x30) return false;
  const b1 = der[1]!;
  if (b1 < 0x80) return 2 + b1 === der.length;
  const n = b1 & 0x7f;
  if (n < 1 || n > 4 || der.length < 2 + n) return false;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + der[2 + i]!;
  return 2 + n + len === der.length;
}

/** The PEM certificates of `file`, read again only when its size or time changed. */
function certificates(file: string, source: string): { stamp: string; pem: string[] } {
  const fail = (why: string) =>
    new EngineError('bad-ca-file', `${source} ${file}: ${why}`, {
      hint: `Give a readable file of PEM certificates (-----BEGIN CERTIFICATE-----)${source.startsWith('-') ? '' : ', or unset the variable'}.`,
      details: { variable: source, path: file, curlExit: 77 },
    });
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    throw fail(`cannot read the CA file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const stamp = `${st.size}:${st.mtimeMs}`;
  const known = files.get(file);
  if (known?.stamp === stamp) return known;
  let text: string;
  try {
    text = fs.readFileSync(file, 'latin1');
  } catch (e) {
    throw fail(`cannot read the CA file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const pem = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (pem.length === 0) throw fail('the CA file holds no PEM certificate');
  const broken = pem.findIndex((p) => !isDerSequence(p));
  if (broken >= 0) throw fail(`certificate ${broken + 1} of the CA file is not readable (not a DER certificate in base64)`);
  const entry = { stamp, pem };
  files.set(file, entry);
  return entry;
}

/**
 * The authorities for a request by curl's rules (see the file's comment), or undefined for
 * Node's defaults.
 * @throws EngineError `bad-ca-file` (details.curlExit 77) naming the option or variable and the file.
 */
export function chooseTrust(o: TrustOptions = {}): Trust | undefined {
  const env = o.env ?? process.env;
  const cwd = o.cwd ?? process.cwd();
  const main = o.caFile ? { name: o.caFileSource ?? '--cacert', value: o.caFile } : env.CURL_CA_BUNDLE ? { name: 'CURL_CA_BUNDLE', value: env.CURL_CA_BUNDLE } : env.SSL_CERT_FILE ? { name: 'SSL_CERT_FILE', value: env.SSL_CERT_FILE } : undefined;
  const extra = env.NODE_EXTRA_CA_CERTS ? { name: 'NODE_EXTRA_CA_CERTS', value: env.NODE_EXTRA_CA_CERTS } : undefined;
  // Node's defaults already hold the NODE_EXTRA_CA_CERTS this process started with.
  if (!main && (!extra || (extra.value === STARTUP_EXTRA && cwd === STARTUP_CWD))) return undefined;
  const parts: { file: string; source: string; pem: string[]; stamp: string }[] = [];
  for (const p of [main, extra]) {
    if (!p) continue;
    const file = path.resolve(cwd, p.value);
    parts.push({ file, source: p.name, ...certificates(file, p.name) });
  }
  // Without a CA file the extra certificates join Node's own authorities. Parsing costs about
  // 0.3 ms a certificate (a system bundle of 144: some 40-60 ms), so once per set of files and
  // versions, without repeats.
  const ca = [...new Set([...(main ? [] : tls.rootCertificates), ...parts.flatMap((p) => p.pem)])];
  const key = parts.map((p) => `${p.source}=${p.file}@${p.stamp}`).join(' ');
  let context = contexts.get(key);
  if (!context) {
    context = tls.createSecureContext({ ca });
    contexts.set(key, context);
  }
  return { key, context, ca, sources: parts.map((p) => `${p.source} ${p.file}`) };
}
