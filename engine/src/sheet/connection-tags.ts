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
 * The values are substituted when the request is resolved, by the pass of the request's own
 * headers (a sheet's `:name`, a `.http` file's `{{name}}`: {@link substitutedDirectives}), and
 * checked after it; file names are relative to the file's directory, as `< file` bodies are.
 * `# @noproxy ""` (or `''`) is curl's `--noproxy ''`: the empty list, every host through the proxy.
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

/** A directive after substitution: the value as written, and the variables that made it. */
export interface SubstitutedDirective extends Directive {
  /** The value as written (`{{proxy}}`, `:certDir/c.pem`). */
  written?: string;
  /** The references in the written value, as written (`{{proxy}}`, `:certDir`). */
  variables?: string[];
}

/** One directive's value and where it was written, for messages: `# @cacert (line 3)`. */
export interface TagValue {
  value: string;
  line: number;
  /** `# @cacert (line 3)`, `# @cacert (line 3, {{certDir}})`: how errors name it. */
  where: string;
  /** The variables the value was made from, as written (`{{proxy}}`, `:proxy`); absent: written as is. */
  variables?: string[];
}

/**
 * `request` with the value of each of its connection directives substituted by `apply`, the pass
 * the resolver runs on the request's header values (../resolve/resolve.ts for sheets,
 * ../resolve/resolve-http.ts for `.http` files), so a directive follows the header rule: an
 * undefined `{{name}}` is `unknown-variable`, an undeclared `:name` stays as written. The other
 * directives are returned as they are. httpyac substitutes the values of the metadata it acts
 * on at run time (`# @ref {{name}}`, `>> {{file}}`) with the replacer of its requests
 * (httpyac 6.16 `utils.replaceVariables`); docs/networks.md "Per request" says how this differs.
 * @param apply the resolver's substitution of one text on its line; throws as it throws.
 * @param references the references a text holds, as written (`{{proxy}}`, `:proxy`).
 */
export function substitutedDirectives(directives: readonly Directive[] | undefined, apply: (text: string, line: number) => string, references: (text: string) => string[]): SubstitutedDirective[] {
  return (directives ?? []).map((d) => {
    if (!Object.hasOwn(CONNECTION_TAGS, d.name)) return d;
    const variables = references(d.value);
    return variables.length ? { ...d, value: apply(d.value, d.line), written: d.value, variables } : d;
  });
}

/** ` (from {{proxy}})`: where an error says a bad value came from; '' for a value written as is. */
export const fromVariables = (t: { variables?: readonly string[] } | undefined): string => (t?.variables?.length ? ` (from ${t.variables.join(', ')})` : '');

/** curl's `--noproxy ''` as a directive's value: `""` or `''` (the empty list). */
const EMPTY_QUOTES = /^(""|'')$/;

/**
 * The problem of a value that still holds a `{{name}}` after substitution: a sheet's (whose
 * variables read `:name`, docs/sheet-format.md "Substitution"); a `.http` file's pass leaves none.
 * As in a header the text is left as written, but no proxy or file is named so: refused.
 */
export function templateProblem(name: ConnectionTagName, t: TagValue): { line: number; message: string; hint: string } | undefined {
  const m = /\{\{\s*(.*?)\s*\}\}/.exec(t.value);
  if (!m) return undefined;
  return { line: t.line, message: `# @${name} ${t.value}: ${m[0]} is not substituted in a sheet`, hint: `a sheet refers to a variable as :name (:${m[1]} = VALUE above the request, then # @${name} :${m[1]}); {{name}} is .http syntax.` };
}

/** A request's connection directives (the last of a name wins), and what is wrong with them. */
export interface ConnectionDirectives {
  tags: Partial<Record<ConnectionTagName, TagValue>>;
  /** Directives that cannot be used: a missing value, a value given to a switch, `# @key` without `# @cert`. */
  problems: { line: number; message: string; hint: string }[];
}

/** `# @NAME (line N)`, `# @NAME (line N, {{var}})` for a substituted value: how a message names a directive. */
export const tagWhere = (name: string, line: number, variables?: readonly string[]) => `# @${name} (line ${line}${variables?.length ? `, ${variables.join(', ')}` : ''})`;

/**
 * The connection directives of a request (`RequestNode.directives`), in order; the last of a
 * name wins. Problems are listed, not thrown: the lint layer shows them, the session refuses
 * to send (../session/connection.ts).
 */
export function connectionOf(directives: readonly SubstitutedDirective[] | undefined): ConnectionDirectives {
  const tags: ConnectionDirectives['tags'] = {};
  const problems: ConnectionDirectives['problems'] = [];
  for (const d of directives ?? []) {
    if (!Object.hasOwn(CONNECTION_TAGS, d.name)) continue;
    const name = d.name as ConnectionTagName;
    const spec = CONNECTION_TAGS[name];
    const trimmed = d.value.trim();
    // `# @noproxy ""`: curl's `--noproxy ''`, the empty list (every host through the proxy).
    const quoted = EMPTY_QUOTES.test(trimmed);
    const value = quoted ? '' : trimmed;
    if (spec.value && value === '' && !(quoted && name === 'noproxy')) {
      const why = quoted ? `; ${trimmed} (the empty list) is for # @noproxy only` : d.variables?.length ? `: ${d.written!.trim()} is empty after substitution` : '';
      const hint = d.variables?.length && !quoted ? `Give ${d.variables.join(', ')} a value, or write the value after # @${name}.` : `Write # @${name} ${name === 'proxy' ? 'http://host:port' : spec.file ? 'FILE' : 'VALUE'}, or remove the line.`;
      problems.push({ line: d.line, message: `# @${name} needs a value (curl's ${spec.curl} ${spec.file ? 'FILE' : 'VALUE'})${why}`, hint });
      continue;
    }
    if (!spec.value && value !== '') {
      problems.push({ line: d.line, message: `# @${name} takes no value (curl's ${spec.curl}), but has ${JSON.stringify(value)}${fromVariables(d)}`, hint: `Write # @${name} alone on its line.` });
      continue;
    }
    tags[name] = { value, line: d.line, where: tagWhere(name, d.line, d.variables), ...(d.variables?.length ? { variables: d.variables } : {}) };
  }
  for (const n of ['key', 'pass'] as const) {
    const t = tags[n];
    if (t && !tags.cert) problems.push({ line: t.line, message: `# @${n} needs # @cert: the ${n === 'key' ? 'key' : 'passphrase'} belongs to a client certificate`, hint: 'Add # @cert FILE above the request too.' });
  }
  return { tags, problems };
}
