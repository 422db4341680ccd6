/**
 * A Bruno collection folder (`bruno.json`, request `.bru` files in folders, `collection.bru`,
 * `folder.bru`, `environments/*.bru`) -> the imported model (`model.ts`). The `.bru` files are
 * parsed by Bruno's own parser, `@usebruno/lang` (loaded at first use); the mapping is ours.
 * The decisions and what is warned about: docs/import.md, "Bruno".
 *
 * - order: as `bru run` walks a folder (packages/bruno-cli/src/utils/collection.js): its
 *   subfolders first (by name, a folder's `meta.seq` placing it), then its requests by
 *   `meta.seq`, then file name; one `.http` file named after `bruno.json`'s name, the folder
 *   path as the `###` title, `# @name` from `meta.name`;
 * - headers of the collection, its folders and the request, merged by name (the request's win,
 *   as Bruno's `mergeHeaders`); disabled ones (`~name`) as comment lines, as disabled query
 *   parameters; path parameters (`:id`) replaced by their values;
 * - bodies by `body:` mode: json, text, xml, sparql (with their Content-Type when none is set),
 *   form-urlencoded, multipart-form (file parts as `< ./path`), graphql with its variables,
 *   file; `none`;
 * - auth with Bruno's `inherit` (the request's, else the nearest folder's whose mode is not
 *   `inherit`, else the collection's): `bruno-auth.ts`, then the Postman mapping (`postman-auth.ts`);
 * - vars: the collection's `vars:pre-request` as file variables, a folder's and a request's as
 *   `request.variables.set` in the pre-request script; `vars:post-response` as
 *   `client.global.set`; environments as environments, `vars:secret` names in the private file;
 * - scripts, tests, asserts: `bruno-scripts.ts`; `example` blocks and a header's `@description`
 *   as comment lines: `bruno-examples.ts`, write-http.ts.
 */
import { authOf } from './bruno-auth.js';
import { AuthContext, mapAuth, type PostmanAuth } from './postman-auth.js';
import { convertAssertion, convertBrunoScript, responseExpr } from './bruno-scripts.js';
import { exampleComments } from './bruno-examples.js';
import type { ImportedBody, ImportedField, ImportedHeader, ImportedRequest, ImportResult, ImportWarning } from './model.js';
import { emptyResult, setEnv } from './model.js';
import { fileSlug, fileTypes } from './postman.js';

/** A file of the collection folder: its path relative to the folder, `/`-separated, and its text. */
export interface BrunoFile {
  path: string;
  text: string;
}

/** A `.bru` file that does not parse: the file (relative to the collection), the line, Bruno's message. */
export class BrunoSyntaxError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- @usebruno/lang's untyped output
type Pair = { name: string; value: unknown; enabled?: boolean; type?: string; contentType?: string; filePath?: string; selected?: boolean; secret?: boolean; description?: string };

/** A folder of the collection: its `folder.bru` (or the collection's `collection.bru`), requests and subfolders. */
interface Folder {
  name: string;
  seq?: number;
  root: Json;
  /** Where its root came from, for warnings (`collection.bru`, `users/folder.bru`). */
  rootFile: string;
  folders: Folder[];
  requests: { file: string; json: Json }[];
}

const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const pairs = (v: unknown): Pair[] => (Array.isArray(v) ? (v as Pair[]).filter((p) => p && typeof p === 'object') : []);

/** `{{process.env.X}}` (Bruno's `.env` and process variables) -> `{{$processEnv X}}`. */
export const brunoVars = (s: string) => s.replace(/\{\{\s*process\.env\.([\w.-]+)\s*\}\}/g, '{{$processEnv $1}}');

/** Parse `text` of `file` with `parse`, a syntax error becoming a located `BrunoSyntaxError`. */
function parsed<T>(parse: (t: string) => T, file: string, text: string): T {
  try {
    return parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    const msg = String((e as Error).message ?? e);
    const m = /^Line (\d+), col (\d+):/.exec(msg);
    const expected = /Expected [^\n]*/.exec(msg)?.[0];
    throw new BrunoSyntaxError(file, m ? Number(m[1]) : undefined, `not a valid .bru file${m ? ` (column ${m[2]})` : ''}: ${expected ?? msg.split('\n')[0]}; fix it in Bruno or a text editor`);
  }
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The 1-based line of `text` matching `re`, after the first line matching `after` when given. */
function lineIn(text: string | undefined, re: RegExp, after?: RegExp): number | undefined {
  const lines = (text ?? '').split(/\r?\n/);
  const from = after ? lines.findIndex((l) => after.test(l)) : 0;
  if (from < 0) return undefined;
  const i = lines.findIndex((l, j) => j >= from && re.test(l));
  return i < 0 ? undefined : i + 1;
}

/** Bruno's folder order (`sortByNameThenSequence`): by name, then each folder with a `seq` moved to position seq. */
function orderFolders(folders: Folder[]): Folder[] {
  const byName = [...folders].sort((a, b) => a.name.localeCompare(b.name));
  const out = byName.filter((f) => !(Number.isInteger(f.seq) && f.seq! > 0));
  for (const f of byName.filter((x) => Number.isInteger(x.seq) && x.seq! > 0).sort((a, b) => a.seq! - b.seq!)) out.splice(Math.min(f.seq! - 1, out.length), 0, f);
  return out;
}

/** The headers of every level, merged by name (later levels win), disabled ones kept as comments. */
function headers(chain: Json[], own: Pair[]): ImportedHeader[] {
  const merged = new Map<string, ImportedHeader>();
  for (const list of [...chain.map((c) => pairs(c.request?.headers ?? c.headers)), own]) {
    for (const h of list) {
      if (!h.name) continue;
      const key = `${h.enabled === false ? '~' : ''}${h.name.toLowerCase()}`;
      merged.delete(key);
      // A header's `@description('...')` annotation: a comment line above it (write-http.ts).
      merged.set(key, { name: h.name, value: brunoVars(str(h.value)), disabled: h.enabled === false, ...(str(h.description).trim() ? { comment: str(h.description).trim() } : {}) });
    }
  }
  return [...merged.values()].filter((h) => !h.disabled || !merged.has(h.name.toLowerCase()));
}

function body(r: Json, headers: ImportedHeader[], comments: string[], where: string, warnings: ImportWarning[], source?: string): ImportedBody | undefined {
  const mode = str(r.http?.body) || 'none';
  const b = (r.body ?? {}) as Json;
  const setType = (t: string) => {
    if (!headers.some((h) => !h.disabled && h.name.toLowerCase() === 'content-type')) headers.unshift({ name: 'Content-Type', value: t });
  };
  const fields = (list: unknown): ImportedField[] =>
    pairs(list).flatMap((f): ImportedField[] =>
      f.type === 'file'
        ? (Array.isArray(f.value) ? f.value : [f.value]).map((p) => ({ name: f.name, file: str(p), contentType: f.contentType || undefined, disabled: f.enabled === false }))
        : [{ name: f.name, value: brunoVars(str(f.value)), contentType: f.contentType || undefined, disabled: f.enabled === false }],
    );
  const note = (kind: string, fs: ImportedField[]) => {
    for (const f of fs.filter((x) => x.disabled)) comments.push(`disabled ${kind} field: ${f.name}=${f.file !== undefined ? `< ${f.file}` : f.value}`);
  };
  const text = (t: unknown, type: string): ImportedBody | undefined => {
    if (!str(t)) return undefined;
    setType(type);
    return { kind: 'raw', text: brunoVars(str(t)) };
  };
  switch (mode) {
    case 'none':
      return undefined;
    case 'json':
      return text(b.json, 'application/json');
    case 'text':
      return text(b.text, 'text/plain');
    case 'xml':
      return text(b.xml, 'application/xml');
    case 'sparql':
      return text(b.sparql, 'application/sparql-query');
    case 'formUrlEncoded': {
      const fs = fields(b.formUrlEncoded);
      note('form', fs);
      return { kind: 'urlencoded', fields: fs };
    }
    case 'multipartForm': {
      const fs = fields(b.multipartForm);
      note('multipart', fs);
      return { kind: 'multipart', fields: fs };
    }
    case 'graphql':
      return { kind: 'graphql', query: brunoVars(str(b.graphql?.query)), variables: b.graphql?.variables ? brunoVars(str(b.graphql.variables)) : undefined };
    case 'file': {
      const files = pairs(b.file);
      const chosen = files.find((f) => f.selected !== false) ?? files[0];
      if (!chosen?.filePath) {
        warnings.push({ where, line: lineIn(source, /^body:file\b/), message: 'the file body names no file; the request is written without a body' });
        return undefined;
      }
      setType(chosen.contentType || 'application/octet-stream');
      return { kind: 'file', path: chosen.filePath };
    }
    default:
      warnings.push({ where, line: lineIn(source, /^\s+body:/), message: `body mode ${mode} is not known; the request is written without a body` });
      return undefined;
  }
}

/** One script of a level, converted, or kept as comments with one warning (once per collection or folder script). */
function script(text: unknown, label: string, source: string, own: boolean, ctx: Ctx, comments: string[]): string | undefined {
  const t = str(text);
  if (!t.trim()) return undefined;
  const c = convertBrunoScript(t);
  if (c.js !== undefined) return c.js;
  const key = `${source}|${label}`;
  const block = { 'pre-request script': /^script:pre-request\s*\{/, 'post-response script': /^script:post-response\s*\{/, tests: /^tests\s*\{/ }[label];
  const start = block && lineIn(ctx.texts.get(source), block);
  if (own || !ctx.warned.has(key)) ctx.warnings.push({ where: source, line: start ? start + c.failed!.line : undefined, message: `${label} line ${c.failed!.line} is not converted (${c.failed!.text.slice(0, 60)}); the whole script is kept as comments${own ? '' : ' above each request it applies to'}` });
  ctx.warned.add(key);
  comments.push(`Bruno ${label} (${source}), not converted:`, ...t.split(/\r?\n/));
  return undefined;
}

interface Ctx {
  auth: AuthContext;
  warnings: ImportWarning[];
  warned: Set<string>;
  /** The collection's files by path, to name the line of what is warned about. */
  texts: Map<string, string>;
  /** bruno.json's `scripts.flow`: `sequential` runs post-response scripts and tests collection first; Bruno's default, `sandwich`, request first. */
  sequential: boolean;
}

function request(levels: { root: Json; file: string }[], file: string, r: Json, folderPath: string[], ctx: Ctx): ImportedRequest {
  const name = str(r.meta?.name) || file.replace(/^.*\/|\.bru$/g, '');
  const where = file;
  const comments: string[] = [];
  if (str(r.docs).trim()) comments.push(...str(r.docs).trim().split(/\r?\n/));
  const hs = headers(levels.map((l) => l.root), pairs(r.headers));
  let url = brunoVars(str(r.http?.url));
  for (const p of pairs(r.params)) {
    if (p.type === 'path') url = url.replace(new RegExp(`:${p.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[/?#]|$)`), brunoVars(str(p.value)));
    else if (p.enabled === false) comments.push(`disabled query parameter: ${p.name}=${str(p.value)}`);
  }
  // Auth: the request's, else up the folders to the collection (inherit), `none` stopping.
  const text = ctx.texts.get(file);
  const authAt = ctx.warnings.length;
  let auth: PostmanAuth | undefined | 'inherit' = authOf(str(r.http?.auth), (r.auth ?? {}) as Json, where, ctx.warnings, (re, after) => lineIn(text, re, after));
  for (let i = levels.length - 1; auth === 'inherit' && i >= 0; i--) {
    const root = levels[i]!.root;
    auth = authOf(str(root.request?.auth?.mode ?? root.auth?.mode), (root.request?.auth ?? root.auth ?? {}) as Json, levels[i]!.file, ctx.warnings, (re, after) => lineIn(ctx.texts.get(levels[i]!.file), re, after));
  }
  const mapped = mapAuth(auth === 'inherit' ? undefined : auth, ctx.auth, where);
  // mapAuth's warnings (an auth the engine lacks) name the request's `auth:` line.
  for (const w of ctx.warnings.slice(authAt)) if (w.where === where && w.line === undefined) w.line = lineIn(text, /^\s+auth:/);
  if (mapped.query.length) url += (url.includes('?') ? '&' : '?') + mapped.query.map(([k, v]) => `${k}=${v}`).join('&');
  const settings = (r.settings ?? {}) as Json;
  if (settings.followRedirects === false || settings.followRedirects === 'false') comments.unshift('@no-redirect');
  for (const [k, v] of Object.entries(settings)) {
    // Bruno's defaults (encodeUrl on, no timeout of its own) need nothing.
    if (k === 'followRedirects' || (k === 'encodeUrl' && v !== false && v !== 'false') || (k === 'timeout' && !Number(v))) continue;
    ctx.warnings.push({ where, line: lineIn(text, new RegExp(`^\\s+${escaped(k)}:`), /^settings\s*\{/), message: `setting ${k}: ${str(v)} is not carried` });
  }
  const b = body(r, hs, comments, where, ctx.warnings, text);
  const authHeaders = mapped.headers.filter((a) => !hs.some((h) => !h.disabled && h.name.toLowerCase() === a.name.toLowerCase()));
  // Pre-request: the folders' and the request's vars (scoped to it, as in Bruno), then the scripts, collection first.
  const pre: string[] = [];
  for (const v of [...levels.slice(1).flatMap((l) => pairs(l.root.request?.vars?.req ?? l.root.vars?.req)), ...pairs(r.vars?.req)]) {
    if (v.enabled === false) comments.push(`disabled variable: ${v.name}=${str(v.value)}`);
    else pre.push(`request.variables.set(${JSON.stringify(v.name)}, ${JSON.stringify(brunoVars(str(v.value)))});`);
  }
  const all = [...levels, { root: r, file }];
  const scriptsOf = (pick: (j: Json) => unknown, label: string, order: typeof all) =>
    order.map((l) => script(pick(l.root), label, l.file, l.root === r, ctx, comments)).filter((s): s is string => s !== undefined);
  pre.push(...scriptsOf((j) => j.request?.script?.req ?? j.script?.req, 'pre-request script', all));
  // After the response, as Bruno runs them: post-response vars, scripts, assertions, tests.
  const post: string[] = [];
  // The collection's, the folders' and the request's post-response vars, each applying to the request.
  for (const l of all) {
    for (const v of pairs(l.root.request?.vars?.res ?? l.root.vars?.res)) {
      const e = responseExpr(str(v.value));
      if (v.enabled === false) comments.push(`disabled post-response variable: ${v.name}: ${str(v.value)}`);
      else if (e) post.push(`client.global.set(${JSON.stringify(v.name)}, ${e});`);
      else {
        comments.push(`Bruno post-response variable (${l.file}), not converted: ${v.name}: ${str(v.value)}`);
        const key = `${l.file}|vars:post-response|${v.name}`;
        if (l.root === r || !ctx.warned.has(key)) ctx.warnings.push({ where: l.file, line: lineIn(ctx.texts.get(l.file), new RegExp(`^\\s+${escaped(v.name)}:`), /^vars:post-response\s*\{/), message: `post-response variable ${v.name}: ${str(v.value)} is not converted (only res.status, res.body..., res.headers.NAME); kept as a comment` });
        ctx.warned.add(key);
      }
    }
  }
  const flow = ctx.sequential ? all : [...all].reverse();
  post.push(...scriptsOf((j) => j.request?.script?.res ?? j.script?.res, 'post-response script', flow));
  for (const a of pairs(r.assertions)) {
    const line = `${a.name}: ${str(a.value)}`;
    const js = a.enabled === false ? undefined : convertAssertion(a.name, str(a.value));
    if (js) post.push(js);
    else {
      comments.push(`${a.enabled === false ? 'disabled ' : ''}Bruno assertion, not converted: ${line}`);
      if (a.enabled !== false) ctx.warnings.push({ where, line: lineIn(text, new RegExp(`^\\s+${escaped(a.name)}:\\s*${escaped(str(a.value))}\\s*$`), /^assert\s*\{/), message: `assertion ${line} is not converted (its left side or operator has no .http form); kept as a comment` });
    }
  }
  post.push(...scriptsOf((j) => j.request?.tests ?? j.tests, 'tests', flow));
  const method = str(r.http?.method).toUpperCase() || 'GET';
  // `example` blocks: a comment block, after the other comments (bruno-examples.ts).
  comments.push(...exampleComments(r.examples, method, url, brunoVars));
  return {
    name,
    folder: folderPath,
    comments,
    method,
    url: url || 'http://localhost/',
    headers: [...authHeaders, ...hs],
    body: b,
    preScript: pre.length ? pre.join('\n') : undefined,
    handler: post.length ? post.join('\n') : undefined,
  };
}

/**
 * A Bruno collection folder (`files`: every `.bru` file and `bruno.json`, paths relative to
 * it) -> one `.http` file, its environments and secrets, and the warnings. Throws
 * `BrunoSyntaxError` for a file that does not parse (nothing is written then).
 */
export async function importBruno(files: BrunoFile[]): Promise<ImportResult> {
  const lang = await import('@usebruno/lang');
  const byPath = new Map(files.map((f) => [f.path, f.text]));
  let config: Json = {};
  try {
    config = JSON.parse(byPath.get('bruno.json') ?? '{}');
  } catch (e) {
    throw new BrunoSyntaxError('bruno.json', undefined, `not valid JSON (${(e as Error).message})`);
  }
  const result = emptyResult(`Bruno collection${config.version ? ` (bruno.json version ${str(config.version)})` : ''}`);
  const rootText = byPath.get('collection.bru');
  const top: Folder = { name: str(config.name) || 'collection', root: rootText ? parsed(lang.collectionBruToJson, 'collection.bru', rootText) : {}, rootFile: 'collection.bru', folders: [], requests: [] };
  const folders = new Map<string, Folder>([['', top]]);
  const folderOf = (dir: string): Folder => {
    let f = folders.get(dir);
    if (!f) {
      const parent = folderOf(dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '');
      const rootFile = `${dir}/folder.bru`;
      const t = byPath.get(rootFile);
      const root: Json = t ? parsed(lang.collectionBruToJson, rootFile, t) : {};
      f = { name: str(root.meta?.name) || dir.slice(dir.lastIndexOf('/') + 1), seq: root.meta?.seq === undefined ? undefined : Number(root.meta.seq), root, rootFile, folders: [], requests: [] };
      folders.set(dir, f);
      parent.folders.push(f);
    }
    return f;
  };
  for (const f of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    if (!f.path.endsWith('.bru') || f.path === 'collection.bru') continue;
    if (f.path.startsWith('environments/')) {
      const envName = f.path.slice('environments/'.length).replace(/\.bru$/, '');
      for (const v of parsed(lang.bruToEnvJsonV2, f.path, f.text).variables ?? []) {
        if (v.enabled === false) {
          result.warnings.push({ where: `${f.path}: ${v.name}`, line: lineIn(f.text, new RegExp(`^\\s+~${escaped(v.name)}:`)), message: 'disabled in Bruno; not written' });
          continue;
        }
        if (v.secret) {
          setEnv(result.privateEnv, envName, v.name, str(v.value));
          if (!str(v.value)) result.warnings.push({ where: `${f.path}: ${v.name}`, line: lineIn(f.text, new RegExp(`^\\s+${escaped(v.name)}\\s*,?\\s*$`), /^vars:secret\b/), message: 'a secret: Bruno keeps its value out of the collection; fill it in http-client.private.env.json' });
        } else setEnv(result.env, envName, v.name, brunoVars(str(v.value)));
      }
      continue;
    }
    const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
    if (f.path.endsWith('/folder.bru')) {
      folderOf(dir);
      continue;
    }
    const json: Json = parsed(lang.bruToJsonV2, f.path, f.text);
    const type = str(json.meta?.type) || 'http';
    if (type !== 'http' && type !== 'graphql') {
      result.warnings.push({ where: f.path, line: lineIn(f.text, /^\s+type:/, /^meta\s*\{/), message: `a ${type} request: sheet import carries HTTP and GraphQL requests only; not written` });
      continue;
    }
    folderOf(dir).requests.push({ file: f.path, json });
  }
  const ctx: Ctx = { texts: byPath, auth: new AuthContext(result.env, result.privateEnv, result.warnings, 'bruno-oauth2'), warnings: result.warnings, warned: new Set(), sequential: config.scripts?.flow === 'sequential' };
  const requests: ImportedRequest[] = [];
  const walk = (f: Folder, levels: { root: Json; file: string }[], names: string[]) => {
    for (const sub of orderFolders(f.folders)) walk(sub, [...levels, { root: sub.root, file: sub.rootFile }], [...names, sub.name]);
    const seq = (x: { json: Json }) => (x.json.meta?.seq === undefined ? Infinity : Number(x.json.meta.seq));
    for (const r of [...f.requests].sort((a, b) => seq(a) - seq(b) || a.file.localeCompare(b.file))) requests.push(request(levels, r.file, r.json, names, ctx));
  };
  walk(top, [{ root: top.root, file: 'collection.bru' }], []);
  await fileTypes(requests.flatMap((r) => (r.body?.kind === 'multipart' ? r.body.fields : [])));
  const vars: [string, string][] = [];
  for (const v of pairs(top.root.request?.vars?.req ?? top.root.vars?.req)) {
    if (v.enabled === false) result.warnings.push({ where: `collection.bru: vars:pre-request ${v.name}`, line: lineIn(rootText, new RegExp(`^\\s+~${escaped(v.name)}:`), /^vars:pre-request\s*\{/), message: 'disabled in Bruno; not written' });
    else vars.push([v.name, brunoVars(str(v.value))]);
  }
  for (const f of folders.values()) {
    if (f !== top && str(f.root.docs).trim()) result.warnings.push({ where: f.rootFile, line: lineIn(byPath.get(f.rootFile), /^docs\s*\{/), message: "the folder's docs are not carried (a .http file has no folder to hold them)" });
  }
  for (const [k, v] of Object.entries(config)) {
    if (['version', 'name', 'type', 'ignore', 'scripts', 'presets', 'size', 'filesCount'].includes(k)) continue;
    if (k === 'proxy' && (v as Json)?.enabled !== true && (v as Json)?.enabled !== 'true') continue;
    if (k === 'clientCertificates' && !pairs((v as Json)?.certs).length) continue;
    result.warnings.push({ where: `bruno.json: ${k}`, line: lineIn(byPath.get('bruno.json'), new RegExp(`^\\s*"${escaped(k)}"\\s*:`)), message: 'this collection setting is not carried' });
  }
  // Each warning names its file inside the collection (the command prefixes the folder), and the line.
  for (const w of result.warnings) {
    const file = [...byPath.keys()].find((p) => w.where === p || w.where.startsWith(`${p}: `));
    if (file) Object.assign(w, { file, where: w.where.slice(file.length).replace(/^: /, '') });
  }
  const name = top.name;
  result.files.push({ path: `${fileSlug(name, 'collection')}.http`, vars, header: [`Imported from the Bruno collection "${name}" by sheet import.`, ...(str(top.root.docs).trim() ? ['', ...str(top.root.docs).trim().split(/\r?\n/)] : [])], requests });
  return result;
}
