/**
 * curl-style options (argv words) -> what the engine does with them. The table follows curl's
 * manual (https://curl.se/docs/manpage.html) for the options listed in {@link KNOWN_OPTIONS};
 * any other option is kept, with the words that follow it up to the next option, in
 * `unknown`, so the caller can hand the request to the real curl with it unchanged.
 */
import { EngineError } from '../errors.js';
import type { Header } from '../model.js';

/** One data option as given: which kind and its argument (curl joins them with `&`). */
export interface DataPart {
  kind: 'data' | 'ascii' | 'raw' | 'binary' | 'urlencode' | 'json';
  value: string;
}

/** The options the engine performs itself. */
export interface CurlOptions {
  headers: Header[];
  /** Lower-case names of headers removed with `-H "Name:"` (the engine adds none of them). */
  removeHeaders: string[];
  /** -u user:password (Basic auth). */
  user?: string;
  data: DataPart[];
  /** -G: data goes into the query string. */
  get: boolean;
  /** -X */
  method?: string;
  /** -i: response headers before the body. */
  include: boolean;
  /** -I: HEAD request, headers only. */
  head: boolean;
  /** -L (the engine follows redirects by default, as resty's `curl -L`). */
  location: boolean;
  maxRedirs?: number;
  /** -k */
  insecure: boolean;
  /** -s */
  silent: boolean;
  /** -v: request and response headers on stderr. */
  verbose: boolean;
  /** -o file ('-' = stdout) */
  output?: string;
  /** -b: cookie strings (name=value) and cookie files to read. */
  cookieStrings: string[];
  cookieFiles: string[];
  /** -c file */
  cookieJar?: string;
  /** -j */
  junkSession: boolean;
  /** -m / --max-time, in seconds. */
  maxTime?: number;
  /**
   * --connect-timeout, in seconds: the limit on connecting, the TCP connect and the TLS
   * handshake (curl's manual); the engine's default is 10 s (http/dispatchers.ts).
   */
  connectTimeout?: number;
  /** --compressed: ask for gzip, deflate or br and decode the body (curl's manual). */
  compressed: boolean;
  /** -T / --upload-file FILE ('-' = standard input): the body, streamed; in curl PUT unless -X (the shell verbs' verb is their -X). */
  uploadFile?: string;
  /** -x / --proxy URL: beats the proxy variables (http/proxy.ts; curl's manual). */
  proxy?: string;
  /** --noproxy LIST: beats NO_PROXY, even when empty. */
  noProxy?: string;
  /** -U / --proxy-user user:password: the proxy's credentials, over those in its URL. */
  proxyUser?: string;
  /** --cacert FILE: the authorities that verify the server, over CURL_CA_BUNDLE and SSL_CERT_FILE (http/trust.ts). */
  cacert?: string;
  /** -E / --cert FILE[:PASS]: the client certificate for mutual TLS (http/client-cert.ts). */
  cert?: string;
  /** --key FILE: the client certificate's private key (default: the --cert file). */
  key?: string;
  /** --pass PASS: the private key's passphrase. */
  pass?: string;
  /** --http2: offer HTTP/2 by ALPN to https:// servers. */
  http2: boolean;
  /** --unix-socket PATH: connect to this socket instead of the URL's host. */
  unixSocket?: string;
  /** -n / --netrc (`required`), --netrc-optional: credentials from ~/.netrc (http/netrc.ts). */
  netrc?: 'required' | 'optional';
  /** --netrc-file FILE: that file instead of ~/.netrc (implies --netrc). */
  netrcFile?: string;
  /** --digest: -u, the URL's or .netrc's credentials answer a Digest challenge (http/auth.ts). */
  digest?: boolean;
  /** --aws-sigv4 "aws:amz[:REGION[:SERVICE]]": sign with -u KEY:SECRET (http/sigv4.ts). */
  awsSigv4?: string;
  /** The words of options the engine does not understand, in order, unchanged. */
  unknown: string[];
}

type Handler = (o: CurlOptions, arg: string) => void;
interface Spec {
  /** Takes an argument. */
  arg: boolean;
  apply: Handler;
}

function header(o: CurlOptions, raw: string): void {
  // curl: "Name:" removes an internal header, "Name;" sends it empty; "@file" reads headers.
  if (raw.startsWith('@')) throw new EngineError('bad-option', `-H ${raw}: header files are not supported by the engine`, { hint: 'Write each header with its own -H.' });
  const semi = /^([^:;\s]+);\s*$/.exec(raw);
  if (semi) {
    o.headers.push([semi[1]!, '']);
    return;
  }
  const i = raw.indexOf(':');
  if (i <= 0) throw new EngineError('bad-option', `-H ${JSON.stringify(raw)}: a header is "Name: value"`, { hint: 'Write -H "Name: value".' });
  const name = raw.slice(0, i).trim();
  const value = raw.slice(i + 1).trim();
  if (value === '') {
    // "Name:" with nothing after it: curl removes that header (its own or an earlier -H).
    o.headers = o.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
    o.removeHeaders.push(name.toLowerCase());
    return;
  }
  o.headers.push([name, value]);
}

/** The error of an option word `name` (`-H`, `--header`) given last, without its argument. */
export function missingArgument(name: string): EngineError {
  return new EngineError('bad-option', `${name} needs an argument`, { hint: `Write ${name} followed by its value.` });
}

function seconds(name: string, v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new EngineError('bad-option', `${name} ${JSON.stringify(v)}: not a number of seconds`, { hint: `Write ${name} 10 or ${name} 2.5.` });
  return n;
}

const data = (kind: DataPart['kind']): Spec => ({ arg: true, apply: (o, v) => o.data.push({ kind, value: v }) });

/** Long name -> spec; short single-letter names map onto the long ones. */
const LONG: Record<string, Spec> = {
  header: { arg: true, apply: header },
  user: { arg: true, apply: (o, v) => (o.user = v) },
  data: data('data'),
  'data-ascii': data('ascii'),
  'data-raw': data('raw'),
  'data-binary': data('binary'),
  'data-urlencode': data('urlencode'),
  json: { arg: true, apply: (o, v) => o.data.push({ kind: 'json', value: v }) },
  get: { arg: false, apply: (o) => (o.get = true) },
  request: { arg: true, apply: (o, v) => (o.method = v) },
  include: { arg: false, apply: (o) => (o.include = true) },
  head: { arg: false, apply: (o) => (o.head = true) },
  location: { arg: false, apply: (o) => (o.location = true) },
  'max-redirs': {
    arg: true,
    apply: (o, v) => {
      const n = Number(v);
      if (!Number.isInteger(n)) throw new EngineError('bad-option', `--max-redirs ${JSON.stringify(v)}: not a whole number`, { hint: 'Write --max-redirs 5.' });
      o.maxRedirs = n < 0 ? 1000 : n;
    },
  },
  insecure: { arg: false, apply: (o) => (o.insecure = true) },
  silent: { arg: false, apply: (o) => (o.silent = true) },
  'show-error': { arg: false, apply: () => undefined },
  verbose: { arg: false, apply: (o) => (o.verbose = true) },
  output: { arg: true, apply: (o, v) => (o.output = v) },
  cookie: { arg: true, apply: (o, v) => (v.includes('=') ? o.cookieStrings.push(v) : o.cookieFiles.push(v)) },
  'cookie-jar': { arg: true, apply: (o, v) => (o.cookieJar = v) },
  'junk-session-cookies': { arg: false, apply: (o) => (o.junkSession = true) },
  'max-time': { arg: true, apply: (o, v) => (o.maxTime = seconds('--max-time', v)) },
  'connect-timeout': { arg: true, apply: (o, v) => (o.connectTimeout = seconds('--connect-timeout', v)) },
  'user-agent': { arg: true, apply: (o, v) => o.headers.push(['User-Agent', v]) },
  referer: { arg: true, apply: (o, v) => o.headers.push(['Referer', v]) },
  compressed: { arg: false, apply: (o) => (o.compressed = true) },
  'upload-file': { arg: true, apply: (o, v) => (o.uploadFile = v) },
  proxy: { arg: true, apply: (o, v) => (o.proxy = v) },
  noproxy: { arg: true, apply: (o, v) => (o.noProxy = v) },
  'proxy-user': { arg: true, apply: (o, v) => (o.proxyUser = v) },
  cacert: { arg: true, apply: (o, v) => (o.cacert = v) },
  cert: { arg: true, apply: (o, v) => (o.cert = v) },
  key: { arg: true, apply: (o, v) => (o.key = v) },
  pass: { arg: true, apply: (o, v) => (o.pass = v) },
  // PEM is curl's default and all the engine reads; another type (DER, P12, ENG) goes to curl.
  'cert-type': { arg: true, apply: (o, v) => (v.toUpperCase() === 'PEM' ? undefined : o.unknown.push('--cert-type', v)) },
  http2: { arg: false, apply: (o) => (o.http2 = true) },
  'unix-socket': { arg: true, apply: (o, v) => (o.unixSocket = v) },
  netrc: { arg: false, apply: (o) => (o.netrc = 'required') },
  'netrc-optional': { arg: false, apply: (o) => (o.netrc = 'optional') },
  'netrc-file': { arg: true, apply: (o, v) => (o.netrcFile = v) },
  digest: { arg: false, apply: (o) => (o.digest = true) },
  'aws-sigv4': { arg: true, apply: (o, v) => (o.awsSigv4 = v) },
};

const SHORT: Record<string, string> = {
  H: 'header',
  u: 'user',
  d: 'data',
  G: 'get',
  X: 'request',
  i: 'include',
  I: 'head',
  L: 'location',
  k: 'insecure',
  s: 'silent',
  S: 'show-error',
  v: 'verbose',
  o: 'output',
  b: 'cookie',
  c: 'cookie-jar',
  j: 'junk-session-cookies',
  m: 'max-time',
  A: 'user-agent',
  e: 'referer',
  T: 'upload-file',
  x: 'proxy',
  U: 'proxy-user',
  E: 'cert',
  n: 'netrc',
};

/**
 * The long name (without dashes) of the option the engine performs that `name` switches off
 * with curl's `--no-<option>` form (`no-verbose` -> `verbose`), or undefined: only boolean
 * options have that form.
 */
export function negatedOption(name: string): string | undefined {
  const base = name.startsWith('no-') ? name.slice(3) : undefined;
  return base !== undefined && LONG[base] && !LONG[base]!.arg ? base : undefined;
}

/**
 * Whether the engine performs the long option `name` (without dashes) itself, and whether it
 * takes an argument; undefined when the engine does not know it.
 */
export function knownLongOption(name: string): { arg: boolean } | undefined {
  const spec = LONG[name];
  return spec && { arg: spec.arg };
}

/** The long name of the short option letter `c` when the engine performs it (`H` -> `header`). */
export function knownShortOption(c: string): string | undefined {
  return SHORT[c];
}

/** Every option the engine performs itself, for the docs and `rest --help`. */
export const KNOWN_OPTIONS: string[] = Object.keys(LONG).map((l) => {
  const s = Object.entries(SHORT).find(([, v]) => v === l)?.[0];
  return s ? `-${s}/--${l}` : `--${l}`;
});

/**
 * Whether the option word `w` is a known option whose argument is the NEXT word (so that word
 * is data, not an option: `-d -Q` sends "-Q").
 */
export function takesNextWord(w: string): boolean {
  if (w.startsWith('--')) return LONG[w.slice(2)]?.arg ?? false;
  if (!w.startsWith('-') || w.length < 2) return false;
  for (let k = 1; k < w.length; k++) {
    const long = SHORT[w[k]!];
    if (!long) return false;
    if (LONG[long]!.arg) return k === w.length - 1;
  }
  return false;
}

/** Empty options. */
export function emptyOptions(): CurlOptions {
  return {
    headers: [],
    removeHeaders: [],
    data: [],
    get: false,
    include: false,
    head: false,
    location: false,
    insecure: false,
    silent: false,
    verbose: false,
    cookieStrings: [],
    cookieFiles: [],
    junkSession: false,
    compressed: false,
    http2: false,
    unknown: [],
  };
}

/**
 * Parse curl-style option words. Short options may be bundled (`-sSL`) and may carry their
 * argument attached (`-HAccept:x`, `-XPUT`); long ones take it as the next word or after `=`
 * is NOT accepted (curl does not either). An option the table does not know goes, with every
 * following word that does not start with `-`, into `unknown`.
 *
 * @throws EngineError `bad-option` when a known option misses its argument or it is malformed,
 *   `bad-argument` for a stray word that belongs to no option.
 */
export function parseCurlOptions(words: string[], into: CurlOptions = emptyOptions()): CurlOptions {
  const o = into;
  let i = 0;
  const take = (name: string): string => {
    if (i >= words.length) throw missingArgument(name);
    return words[i++]!;
  };
  const unknown = (w: string) => {
    o.unknown.push(w);
    while (i < words.length && !words[i]!.startsWith('-')) o.unknown.push(words[i++]!);
  };
  while (i < words.length) {
    const w = words[i++]!;
    if (w.startsWith('--') && w.length > 2) {
      // curl's --no-<option> forms switch a boolean option off.
      const negated = negatedOption(w.slice(2));
      const name = negated ?? w.slice(2);
      const spec = LONG[name];
      if (!spec) {
        unknown(w);
        continue;
      }
      if (negated !== undefined) {
        resetBoolean(o, name);
        continue;
      }
      spec.apply(o, spec.arg ? take(w) : '');
      continue;
    }
    if (w.startsWith('-') && w.length > 1) {
      // Short options, possibly bundled.
      for (let k = 1; k < w.length; k++) {
        const long = SHORT[w[k]!];
        if (!long) {
          // One unknown letter makes the whole word unknown: curl gets it unchanged.
          if (k === 1) unknown(w);
          else throw new EngineError('bad-option', `${w}: -${w[k]} is not understood by the engine inside a bundle`, { hint: `Write -${w[k]} as its own word.` });
          break;
        }
        const spec = LONG[long]!;
        if (spec.arg) {
          const rest = w.slice(k + 1);
          spec.apply(o, rest !== '' ? rest : take(`-${w[k]}`));
          break;
        }
        spec.apply(o, '');
      }
      continue;
    }
    // A whole URL where curl takes one: resty's verbs take a path below the base.
    const url = /^(https?:\/\/[^/?#]+)(.*)$/i.exec(w);
    throw new EngineError('bad-argument', `unexpected argument ${JSON.stringify(w)}`, {
      hint: url ? `The verbs take a path below the base URL: rest ${url[1]}, then VERB ${url[2] || '/'}${url[2]?.includes('?') ? ' -Q' : ''}.` : 'The path comes first and starts with "/"; the body (PUT, PATCH, POST) comes second; options follow.',
    });
  }
  return o;
}

function resetBoolean(o: CurlOptions, name: string): void {
  const map: Record<string, keyof CurlOptions> = {
    get: 'get',
    include: 'include',
    head: 'head',
    location: 'location',
    insecure: 'insecure',
    silent: 'silent',
    verbose: 'verbose',
    'junk-session-cookies': 'junkSession',
    compressed: 'compressed',
    http2: 'http2',
  };
  const key = map[name];
  if (key) (o as unknown as Record<string, boolean>)[key] = false;
}
