/**
 * The words of a whole curl command line (the import, `sheet import-curl`, C-c C-y) split into
 * its options and its URLs, as curl reads them (https://curl.se/docs/manpage.html). The
 * options the engine performs are `options.ts`'s table; this file knows which of curl's other
 * options take an argument, so that argument is not taken for a URL.
 */
import { knownLongOption, knownShortOption, missingArgument, negatedOption } from './options.js';

/**
 * curl options the engine does not perform that take an argument (curl's manual), so that a
 * reader of a whole curl command line ({@link splitCurlArgs}) knows their argument is not the URL.
 */
const OTHER_ARG_LONG = new Set([
  'url', 'form', 'form-string', 'upload-file', 'preproxy', 'range', 'write-out', 'dump-header',
  'config', 'continue-at', 'speed-limit', 'speed-time', 'time-cond', 'ftp-port', 'quote', 'telnet-option',
  'key-type', 'capath', 'crlfile', 'pinnedpubkey', 'ciphers', 'tls13-ciphers',
  'curves', 'resolve', 'connect-to', 'interface', 'local-port', 'dns-servers', 'dns-interface', 'limit-rate',
  'max-filesize', 'connect-timeout', 'retry', 'retry-delay', 'retry-max-time', 'keepalive-time', 'expect100-timeout',
  'happy-eyeballs-timeout-ms', 'oauth2-bearer', 'aws-sigv4', 'trace', 'trace-ascii', 'trace-config', 'output-dir',
  'proto', 'proto-redir', 'proto-default', 'abstract-unix-socket', 'netrc-file',
  'request-target', 'socks4', 'socks4a', 'socks5', 'socks5-hostname', 'tls-max', 'sasl-authzid', 'login-options',
  'mail-from', 'mail-rcpt', 'mail-auth', 'variable', 'url-query', 'stderr', 'etag-save', 'etag-compare', 'hsts',
  'alt-svc', 'doh-url', 'proxy-header', 'engine', 'random-file', 'egd-file', 'ftp-method', 'krb',
  'create-file-mode', 'parallel-max', 'rate', 'ip-tos', 'vlan-priority',
]);
const OTHER_ARG_SHORT: Record<string, string> = {
  F: 'form', T: 'upload-file', r: 'range', w: 'write-out', D: 'dump-header',
  K: 'config', C: 'continue-at', Y: 'speed-limit', y: 'speed-time', z: 'time-cond', P: 'ftp-port', Q: 'quote', t: 'telnet-option',
};
/** Short flags (no argument) the engine does not perform, by curl's long name, so `-g` and `--globoff` read the same. */
const OTHER_FLAG_SHORT: Record<string, string> = {
  g: 'globoff', N: 'no-buffer', f: 'fail', O: 'remote-name', J: 'remote-header-name', '#': 'progress-bar', q: 'disable',
  '4': 'ipv4', '6': 'ipv6', '0': 'http1.0', l: 'list-only', n: 'netrc', p: 'proxytunnel', R: 'remote-time', B: 'use-ascii',
  a: 'append', Z: 'parallel', M: 'manual', V: 'version', h: 'help',
};

/** One option of a curl command line, with its argument when it takes one. */
export interface CurlArg {
  /** The long name without dashes (`header` for `-H`), or the option word itself when curl's name is not known here. */
  name: string;
  /** The option as written (`-H`, `--header`, `--no-get`). */
  written: string;
  /** Whether the engine performs it itself ({@link parseCurlOptions} understands it). */
  known: boolean;
  arg?: string;
}

/**
 * Split the words of a whole curl command line (without the leading `curl`) into its options
 * and the other words (the URLs), as curl reads them: short options bundled or with their
 * argument attached (`-sSL`, `-XPUT`), `--` ends the options. An option neither the engine nor
 * {@link OTHER_ARG_LONG} knows is taken to have no argument.
 *
 * @throws EngineError `bad-option` when an option misses its argument.
 */
export function splitCurlArgs(words: string[]): { options: CurlArg[]; positional: string[] } {
  const options: CurlArg[] = [];
  const positional: string[] = [];
  let i = 0;
  const take = (name: string): string => {
    if (i >= words.length) throw missingArgument(name);
    return words[i++]!;
  };
  while (i < words.length) {
    const w = words[i++]!;
    if (w === '--') {
      positional.push(...words.slice(i));
      break;
    }
    if (w.startsWith('--')) {
      const name = w.slice(2);
      const spec = knownLongOption(negatedOption(name) ?? name);
      const takes = spec ? spec.arg : OTHER_ARG_LONG.has(name);
      options.push({ name, written: w, known: spec !== undefined, ...(takes ? { arg: take(w) } : {}) });
      continue;
    }
    if (w.startsWith('-') && w.length > 1) {
      for (let k = 1; k < w.length; k++) {
        const c = w[k]!;
        const known = knownShortOption(c);
        const long = known ?? OTHER_ARG_SHORT[c];
        const takes = known ? knownLongOption(known)!.arg : OTHER_ARG_SHORT[c] !== undefined;
        if (takes) {
          const rest = w.slice(k + 1);
          options.push({ name: long!, written: `-${c}`, known: known !== undefined, arg: rest !== '' ? rest : take(`-${c}`) });
          break;
        }
        options.push({ name: long ?? OTHER_FLAG_SHORT[c] ?? `-${c}`, written: `-${c}`, known: known !== undefined });
      }
      continue;
    }
    positional.push(w);
  }
  return { options, positional };
}
