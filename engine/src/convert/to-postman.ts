/**
 * A `.http` file or a sheet -> a Postman collection v2.1 (and environments), for `sheet export
 * --to postman` (issue 42 item 3; docs/import.md, "Back to Postman"). Pure. A sheet goes
 * through `sheet-http.ts` first (its problems become warnings), so one mapping reads both.
 *
 * - requests in order, named by their `###` title (`Folder / Sub / Name`, as `sheet import` writes
 *   it, becomes folders again; else `# @name`, else `METHOD URL`); `{{variables}}` kept (Postman's
 *   syntax is the same); file variables -> collection variables;
 * - headers as written; bodies: urlencoded (by Content-Type) as `urlencoded` fields, GraphQL
 *   (`GRAPHQL` line, `X-REQUEST-TYPE: GraphQL`) as `graphql`, `< file` as `file`, the rest `raw`
 *   (a multipart body stays raw, with its Content-Type and boundary: warned);
 * - JetBrains handlers and pre-request scripts: the `pm.*` subset `sheet import` converts, back
 *   (`toPm`); a script using more of the `client` API is kept as `//` comment lines, warned.
 */
import type { RequestNode } from '../sheet/ast.js';
import { parseHttpFile } from '../http-file/parse.js';
import type { EnvFile, ImportWarning } from './model.js';
import { sheetToHttp } from './sheet-http.js';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** What `httpToPostman` returns: the collection's JSON object and what was not carried. */
export interface PostmanExport {
  collection: Record<string, unknown>;
  warnings: ImportWarning[];
}

function body(r: RequestNode, where: string, warnings: ImportWarning[]): Record<string, unknown> | undefined {
  const b = r.body;
  if (!b) return undefined;
  const type = r.headers.find((h) => h.kind === 'header' && h.name.toLowerCase() === 'content-type');
  const ct = type && type.kind === 'header' ? type.value.toLowerCase() : '';
  if (b.kind === 'file') return { mode: 'file', file: { src: b.path } };
  if (b.kind === 'parts') {
    warnings.push({ where, message: 'a multipart body with file parts is written as raw text; make it form-data in Postman' });
    return { mode: 'raw', raw: b.parts.map((p) => (p.kind === 'text' ? p.text : `< ${p.path}`)).join('\r\n') };
  }
  const graphql = r.graphql || r.headers.some((h) => h.kind === 'header' && h.name.toLowerCase() === 'x-request-type' && /graphql/i.test(h.value));
  if (graphql) {
    const parts = b.text.split(/\n[ \t]*\n/);
    const last = parts.length > 1 ? parts[parts.length - 1]!.trim() : '';
    const vars = last.startsWith('{') ? last : '';
    return { mode: 'graphql', graphql: { query: vars ? parts.slice(0, -1).join('\n\n') : b.text, variables: vars } };
  }
  if (ct.includes('application/x-www-form-urlencoded')) {
    const text = b.text.split(/\r?\n/).map((l) => l.trim()).join('');
    return {
      mode: 'urlencoded',
      urlencoded: text.split('&').filter(Boolean).map((kv) => {
        const i = kv.indexOf('=');
        const dec = (s: string) => {
          try {
            return decodeURIComponent(s.replace(/\+/g, ' '));
          } catch {
            return s;
          }
        };
        return { key: dec(i < 0 ? kv : kv.slice(0, i)), value: i < 0 ? '' : dec(kv.slice(i + 1)), type: 'text' };
      }),
    };
  }
  const language = ct.includes('json') ? 'json' : ct.includes('xml') ? 'xml' : ct.includes('html') ? 'html' : ct.includes('javascript') ? 'javascript' : 'text';
  return { mode: 'raw', raw: b.text, options: { raw: { language } } };
}

/**
 * JetBrains handler JavaScript -> Postman's, the inverse of postman-scripts.ts's subset
 * (`client.global.set/get/clear` -> `pm.environment.*`, `client.test` -> `pm.test`,
 * `client.assert(c, m)` -> `pm.expect(c, m).to.be.true`, `response.body` -> `pm.response.json()`,
 * `response.status` -> `pm.response.code`); undefined when anything else of the API is used.
 */
function toPm(js: string): string | undefined {
  const out = js
    .replace(/\bclient\.global\.set\(/g, 'pm.environment.set(')
    .replace(/\bclient\.global\.get\(/g, 'pm.environment.get(')
    .replace(/\bclient\.global\.clear\(/g, 'pm.environment.unset(')
    .replace(/\bclient\.test\(/g, 'pm.test(')
    .replace(/\bclient\.assert\(([^;]*)\);/g, 'pm.expect($1).to.be.true;')
    .replace(/\bresponse\.body\b/g, 'pm.response.json()')
    .replace(/\bresponse\.status\b/g, 'pm.response.code');
  const code = out.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
  return /\b(client|request|response)\s*\./.test(code.replace(/pm\.response\./g, '')) ? undefined : out;
}

function scripts(r: RequestNode, where: string, warnings: ImportWarning[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [listen, list] of [['prerequest', r.preScripts ?? []], ['test', r.handlers ?? []]] as const) {
    if (!list.length) continue;
    const exec: string[] = [];
    for (const h of list) {
      const pm = h.kind === 'inline' ? toPm(h.source) : undefined;
      if (pm !== undefined) exec.push(...pm.split('\n'));
      else {
        warnings.push({ where, message: `${listen === 'test' ? 'a response handler' : 'a pre-request script'} uses more of JetBrains' client API than the pm.* subset; kept as comments in the Postman ${listen} script` });
        exec.push(`// JetBrains HTTP Client ${listen === 'test' ? 'handler' : 'pre-request script'}, not converted:`, ...(h.kind === 'inline' ? h.source : `> ${h.path}`).split('\n').map((l) => `// ${l}`));
      }
    }
    out.push({ listen, script: { type: 'text/javascript', exec } });
  }
  return out;
}

const kv = (o: Record<string, string>) => Object.entries(o).map(([key, value]) => ({ key, value, type: 'string' }));

/**
 * The `.http` dialects' `Authorization` shorthands as Postman auth (Postman would send them as
 * written): `Basic user:password` / `Basic user password` (not base64), `Digest user password`,
 * `AWS key secret [token:T] [region:R] [service:S]`; `{{$auth.token(...)}}` is warned about
 * (Postman's OAuth2 needs its own configuration).
 */
function authOf(r: RequestNode, where: string, warnings: ImportWarning[]): { auth: Record<string, unknown>; header: unknown } | undefined {
  const h = r.headers.find((x) => x.kind === 'header' && x.name.toLowerCase() === 'authorization');
  if (!h || h.kind !== 'header') return undefined;
  if (/\$auth\.(id)?token/i.test(h.value)) warnings.push({ where, message: 'the token of {{$auth.token(...)}} comes from the environment\'s Security.Auth; set up OAuth 2.0 in Postman (the header is exported as written)' });
  const basic = /^Basic\s+(\S+?)(?::|\s+)(.*)$/.exec(h.value);
  if (basic && !/^[A-Za-z0-9+/]+=*$/.test(h.value.slice(6).trim())) return { auth: { type: 'basic', basic: kv({ username: basic[1]!, password: basic[2]! }) }, header: h };
  const digest = /^Digest\s+(\S+)\s+(.+)$/.exec(h.value);
  if (digest && !/=/.test(digest[1]!)) return { auth: { type: 'digest', digest: kv({ username: digest[1]!, password: digest[2]! }) }, header: h };
  const aws = /^AWS\s+(\S+)\s+(\S+)(.*)$/.exec(h.value);
  if (aws) {
    const o: Record<string, string> = { accessKey: aws[1]!, secretKey: aws[2]! };
    for (const m of aws[3]!.matchAll(/(token|region|service):(\S+)/g)) o[m[1] === 'token' ? 'sessionToken' : m[1]!] = m[2]!;
    return { auth: { type: 'awsv4', awsv4: kv(o) }, header: h };
  }
  return undefined;
}

/**
 * `text` (a `.http` file, or a sheet when `syntax` is `sheet`) named `name` -> a Postman v2.1
 * collection. Requests that did not parse are left out with a warning naming their line.
 */
export function httpToPostman(text: string, syntax: 'http' | 'sheet', name: string): PostmanExport {
  const warnings: ImportWarning[] = [];
  let http = text;
  if (syntax === 'sheet') {
    const c = sheetToHttp(text);
    for (const p of c.problems) warnings.push({ where: `line ${p.line}`, message: `${p.construct}: ${p.message}` });
    http = c.text;
  }
  const sheet = parseHttpFile(http);
  for (const d of sheet.diagnostics.filter((x) => x.severity === 'error')) warnings.push({ where: `line ${d.line}`, message: `not exported: ${d.message}` });
  const lines = http.split(/\r?\n/);
  // The `###` title, `Folder / Sub / Name` as `sheet import` writes it: folders again.
  const titleOf = (r: RequestNode) => {
    for (let l = r.line - 1; l >= 1; l--) {
      const m = /^###[ \t]*(.*?)[ \t]*$/.exec(lines[l - 1]!);
      if (m) return m[1]!;
    }
    return '';
  };
  const root: Record<string, unknown>[] = [];
  const folders = new Map<string, Record<string, unknown>[]>();
  const into = (path: string[]) => {
    let list = root;
    for (let i = 0; i < path.length; i++) {
      const key = path.slice(0, i + 1).join('\u0000');
      let sub = folders.get(key);
      if (!sub) {
        sub = [];
        folders.set(key, sub);
        list.push({ name: path[i], item: sub });
      }
      list = sub;
    }
    return list;
  };
  sheet.requests.forEach((r) => {
    const where = `line ${r.line}`;
    for (const h of r.headers) if (h.kind === 'use-var') warnings.push({ where: `line ${h.line}`, message: `header block ${h.name} is not exported` });
    for (const d of r.directives ?? []) if (d.name !== 'name') warnings.push({ where: `line ${d.line}`, message: `# @${d.name} has no Postman equivalent; not exported` });
    const event = scripts(r, where, warnings);
    const path = titleOf(r).split(' / ').filter(Boolean);
    const leaf = path.pop() ?? r.name ?? `${r.method} ${r.url}`;
    const auth = authOf(r, where, warnings);
    into(path).push({
      name: leaf,
      ...(event.length ? { event } : {}),
      request: {
        method: r.method,
        ...(auth ? { auth: auth.auth } : {}),
        header: r.headers.flatMap((h) => (h.kind === 'header' && h !== auth?.header ? [{ key: h.name, value: h.value }] : [])),
        url: r.url,
        ...(body(r, where, warnings) ? { body: body(r, where, [])! } : {}),
      },
    });
  });
  const item = root;
  const variable = sheet.vars.filter((v) => v.kind === 'literal').map((v) => ({ key: v.name.replace(/^:/, ''), value: v.value }));
  return { collection: { info: { name, schema: SCHEMA }, ...(variable.length ? { variable } : {}), item }, warnings };
}

/** Environment `env` of the `.http` environment files (public, private) as a Postman environment export. */
export function envToPostman(env: string, pub: EnvFile, priv: EnvFile): Record<string, unknown> | undefined {
  if (!pub[env] && !priv[env]) return undefined;
  const values: Record<string, unknown>[] = [];
  const add = (vars: Record<string, unknown> | undefined, secret: boolean) => {
    for (const [key, value] of Object.entries(vars ?? {})) {
      if (typeof value === 'object' && value !== null) continue;
      const i = values.findIndex((v) => v.key === key);
      const entry = { key, value: String(value), type: secret ? 'secret' : 'default', enabled: true };
      if (i >= 0) values[i] = entry;
      else values.push(entry);
    }
  };
  add(pub.$shared, false);
  add(pub[env], false);
  add(priv.$shared, true);
  add(priv[env], true);
  return { name: env, values, _postman_variable_scope: 'environment' };
}
