/**
 * The `proxy` setting of the protocol (`Settings.proxy`, docs/protocol.md and docs/networks.md)
 * as the proxy options of `send` (http/proxy.ts). Two forms meet here:
 *
 * - `sheet run --proxy URL [--noproxy LIST]`: `all` and `noProxy`, read as curl reads `-x` and
 *   `--noproxy` (the proxy variables still give NO_PROXY when `noProxy` is absent).
 * - sheet-mode, from url.el's `url-proxy-services` when the user set it: `http`, `https` and
 *   `noProxyRegexp` (its `no_proxy` entry, an Emacs regexp matched against the host name, as
 *   url.el's `url-default-find-proxy-for-url` does). Then the environment is not read at all,
 *   as url.el does not: a scheme without a proxy goes direct.
 *
 * Without the setting (null or absent) the engine reads the environment it was started with
 * (Emacs's `process-environment`, `sheet run`'s shell).
 */
import { EngineError } from '../errors.js';
import type { ProxyOptions } from '../http/proxy.js';
import type { ProxySetting } from './types.js';

/** Where url.el's settings come from, named in errors. */
const URL_EL = 'url-proxy-services';

function bad(value: string, why: string): EngineError {
  return new EngineError('bad-proxy', `${URL_EL}: the no_proxy regexp ${JSON.stringify(value)} ${why}`, {
    hint: 'Write the no_proxy entry with \\\\( \\\\| \\\\) groups, . * + ? [...] ^ $ only, or leave it out.',
    details: { variable: URL_EL, value },
  });
}

/**
 * An Emacs regexp (the Elisp manual, "Syntax of Regular Expressions") as a JavaScript one, for
 * the constructs a `no_proxy` entry uses: `\\(`, `\\(?:`, `\\|`, `\\)`, `\\{m,n\\}`, `\\``, `\\'`,
 * back-references, `. * + ? ^ $`, bracket expressions without `[:class:]`. Case-insensitive, as
 * `string-match` is under the default `case-fold-search`.
 * @throws EngineError `bad-proxy` naming `url-proxy-services` for any other construct.
 */
export function emacsRegexp(src: string): RegExp {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      const n = src[++i];
      if (n === undefined) throw bad(src, 'ends with a lone backslash');
      if (n === '(' && src.startsWith('?:', i + 1)) {
        out += '(?:';
        i += 2;
      } else if ('()|{}'.includes(n)) out += n;
      else if (n === '`') out += '^';
      else if (n === "'") out += '$';
      else if ('.*+?[]^$\\'.includes(n) || /[1-9]/.test(n)) out += `\\${n}`;
      else throw bad(src, `uses \\${n}, which the engine does not read`);
    } else if ('(){}|/'.includes(c)) out += `\\${c}`;
    else if (c === '[') {
      let j = i + 1;
      let cls = '[';
      if (src[j] === '^') cls += src[j++];
      if (src[j] === ']') cls += `\\${src[j++]}`;
      for (; j < src.length && src[j] !== ']'; j++) {
        if (src.startsWith('[:', j)) throw bad(src, 'uses a [:class:], which the engine does not read');
        cls += src[j] === '\\' ? '\\\\' : src[j];
      }
      if (j >= src.length) throw bad(src, 'has an unclosed [');
      out += `${cls}]`;
      i = j;
    } else out += c;
  }
  try {
    return new RegExp(out, 'i');
  } catch (e) {
    throw bad(src, `is not a regexp: ${(e as Error).message}`);
  }
}

/**
 * The proxy options for `send` from the setting and the engine's environment.
 * @throws EngineError `bad-proxy` for a `noProxyRegexp` the engine cannot read.
 */
export function proxyOptions(setting: ProxySetting | null | undefined, env: Record<string, string | undefined> = process.env): ProxyOptions {
  if (!setting) return { env };
  if (setting.http !== undefined || setting.https !== undefined) {
    const re = setting.noProxyRegexp ? emacsRegexp(setting.noProxyRegexp) : undefined;
    return {
      perScheme: { ...(setting.http ? { http: setting.http } : {}), ...(setting.https ? { https: setting.https } : {}), source: URL_EL },
      ...(re ? { bypass: (host: string) => re.test(host) } : {}),
    };
  }
  return { env, ...(setting.all ? { proxy: setting.all } : {}), ...(setting.noProxy !== undefined ? { noProxy: setting.noProxy } : {}) };
}
