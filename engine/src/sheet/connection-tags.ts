/**
 * The per-request connection directives of sheets and `.http` files (issue 20 item 5;
 * docs/sheet-format.md "Connection directives", docs/networks.md): one home for their names,
 * their aliases and the curl option each stands for. Pure: no I/O.
 *
 * A directive is a comment line above the request, in the style of `# @no-auto-encoding`:
 * `# @proxy http://127.0.0.1:3128`, `# @insecure`. Each name is curl's long option name
 * (curl's manual), so `curl -x P --cacert F URL` imports as `# @proxy P` and `# @cacert F`,
 * and C-c C-u prints them back as the same options. The spellings of other tools are read too:
 * httpyac's `# @proxy`, `# @no-proxy` (no value: every host goes direct) and
 * `# @no-reject-unauthorized` (curl's -k), in kebab or camel case (`# @noRejectUnauthorized`,
 * as httpyac writes its metadata), and kulala.nvim's `# @curl-OPTION` form (`# @curl-insecure`).
 * JetBrains' HTTP Client and VS Code REST Client have no per-request form (their proxy and
 * certificates are settings).
 *
 * The values are taken as written (no variable substitution); file names are relative to the
 * file's directory, as `< file` bodies are.
 */
import type { Directive } from './ast.js';

/** The canonical names: curl's long options. */
export type ConnectionTagName = 'proxy' | 'noproxy' | 'proxy-user' | 'unix-socket' | 'netrc' | 'netrc-file' | 'netrc-optional' | 'cacert' | 'cert' | 'key' | 'pass' | 'insecure';

interface TagSpec {
  /** Whether the directive takes a value (`# @proxy URL`) or is a switch (`# @insecure`). */
  value: boolean;
  /** The curl option C-c C-u prints (curl's manual). */
  curl: string;
  /** The value names a file (checked readable before sending). */
  file?: boolean;
}

/** Every connection directive, by its canonical name. */
export const CONNECTION_TAGS: Readonly<Record<ConnectionTagName, TagSpec>> = {
  proxy: { value: true, curl: '-x' },
  noproxy: { value: true, curl: '--noproxy' },
  'proxy-user': { value: true, curl: '-U' },
  'unix-socket': { value: true, curl: '--unix-socket', file: true },
  netrc: { value: false, curl: '-n' },
  'netrc-file': { value: true, curl: '--netrc-file', file: true },
  'netrc-optional': { value: false, curl: '--netrc-optional' },
  cacert: { value: true, curl: '--cacert', file: true },
  cert: { value: true, curl: '--cert', file: true },
  key: { value: true, curl: '--key', file: true },
  pass: { value: true, curl: '--pass' },
  insecure: { value: false, curl: '-k' },
};

/** Each canonical name as {@link connectionTagName} answers it (made once: parsing a big sheet asks often). */
const CANONICAL = Object.fromEntries(Object.keys(CONNECTION_TAGS).map((n) => [n, { name: n }])) as Record<ConnectionTagName, { name: ConnectionTagName }>;

/** Other tools' spellings: the canonical name, and the value a switch form stands for. */
const ALIASES: Record<string, { name: ConnectionTagName; empty?: string }> = {
  'no-proxy': { name: 'noproxy', empty: '*' }, // httpyac: `# @no-proxy` sends this request direct
  'no-reject-unauthorized': { name: 'insecure' }, // httpyac
};

/**
 * The canonical name of a directive name, or undefined when it is no connection directive.
 * Reads `kebab-case`, httpyac's `camelCase` and kulala's `curl-` prefix, in any case of the
 * first letter.
 */
export function connectionTagName(written: string): { name: ConnectionTagName; empty?: string } | undefined {
  if (Object.hasOwn(CANONICAL, written)) return CANONICAL[written as ConnectionTagName];
  let n = written.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/^-/, '');
  if (n.startsWith('curl-')) n = n.slice(5);
  if (Object.hasOwn(CANONICAL, n)) return CANONICAL[n as ConnectionTagName];
  return Object.hasOwn(ALIASES, n) ? ALIASES[n] : undefined;
}

/** A directive as the parsers keep it: the canonical name, the value (a switch alias's stand-in filled in). */
export function connectionDirective(written: string, value: string, line: number): Directive | undefined {
  const t = connectionTagName(written);
  if (!t) return undefined;
  return { name: t.name, value: value === '' && t.empty !== undefined ? t.empty : value, line };
}

/** One directive's value and where it was written, for messages: `# @cacert (line 3)`. */
export interface TagValue {
  value: string;
  line: number;
  /** `# @cacert (line 3)`: how errors name it. */
  where: string;
}

/** A request's connection directives (the last of a name wins), and what is wrong with them. */
export interface ConnectionDirectives {
  tags: Partial<Record<ConnectionTagName, TagValue>>;
  /** Directives that cannot be used: a missing value, a value given to a switch, `# @key` without `# @cert`. */
  problems: { line: number; message: string; hint: string }[];
}

/** `# @NAME (line N)`: how a message names a directive. */
export const tagWhere = (name: string, line: number) => `# @${name} (line ${line})`;

/**
 * The connection directives of a request (`RequestNode.directives`), in order; the last of a
 * name wins. Problems are listed, not thrown: the lint layer shows them, the session refuses
 * to send (../session/connection.ts).
 */
export function connectionOf(directives: readonly Directive[] | undefined): ConnectionDirectives {
  const tags: ConnectionDirectives['tags'] = {};
  const problems: ConnectionDirectives['problems'] = [];
  for (const d of directives ?? []) {
    if (!Object.hasOwn(CONNECTION_TAGS, d.name)) continue;
    const name = d.name as ConnectionTagName;
    const spec = CONNECTION_TAGS[name];
    const value = d.value.trim();
    if (spec.value && value === '') {
      problems.push({ line: d.line, message: `# @${name} needs a value (curl's ${spec.curl} ${spec.file ? 'FILE' : 'VALUE'})`, hint: `Write # @${name} ${name === 'proxy' ? 'http://host:port' : spec.file ? 'FILE' : 'VALUE'}, or remove the line.` });
      continue;
    }
    if (!spec.value && value !== '') {
      problems.push({ line: d.line, message: `# @${name} takes no value (curl's ${spec.curl}), but has ${JSON.stringify(value)}`, hint: `Write # @${name} alone on its line.` });
      continue;
    }
    if (/\{\{.*\}\}/.test(value)) {
      problems.push({ line: d.line, message: `# @${name} ${value}: a directive's value is taken as written; {{...}} is not substituted here`, hint: `Write the value itself after # @${name}.` });
      continue;
    }
    tags[name] = { value, line: d.line, where: tagWhere(name, d.line) };
  }
  for (const n of ['key', 'pass'] as const) {
    const t = tags[n];
    if (t && !tags.cert) problems.push({ line: t.line, message: `# @${n} needs # @cert: the ${n === 'key' ? 'key' : 'passphrase'} belongs to a client certificate`, hint: 'Add # @cert FILE above the request too.' });
  }
  return { tags, problems };
}
