/**
 * Postman collections (v2.0.0 and v2.1.0) and Postman environment and globals files -> the
 * imported model (`model.ts`). The collection's JSON is walked here, with the rules of
 * Postman's own SDK (`postman-collection`) where they decide something: the item tree (an
 * entry with an `item` array is a folder), auth parameters in the v2.0 (object) and v2.1
 * (`[{key, value}]`) shapes, header strings, script `exec` strings or line arrays, methods
 * upper-cased, and the URL through the SDK's own parsing and printing (`postman-url.ts`).
 * `new Collection()` made an object, a `uuid` and lodash copies for every item, header and
 * parameter: most of the import's time on big collections (docs/import.md, "Speed").
 * The decisions, format by format, and what the peers carry: docs/import.md, "Postman".
 *
 * - folders: each request's folder path, written as its `###` title; one `.http` file per collection;
 * - collection variables: file variables (`@name = value`), `{{}}` kept; Postman environments
 *   become environments of http-client.env.json (`secret` values in the private file), globals
 *   its `$shared`;
 * - disabled headers and query parameters, disabled form fields: comment lines;
 * - bodies: raw (a Content-Type from its language when none is set), urlencoded, form-data
 *   (file parts as `< path`), GraphQL (query and variables), binary file (`< path`);
 * - auth: `postman-auth.ts`; scripts (collection, folder, request; in Postman's order):
 *   `postman-scripts.ts`.
 */
import { AuthContext, mapAuth, type PostmanAuth } from './postman-auth.js';
import { convertScript } from './postman-scripts.js';
import type { EnvFile, ImportedBody, ImportedField, ImportedHeader, ImportedRequest, ImportResult, ImportWarning } from './model.js';
import { emptyResult, setEnv } from './model.js';
import type { postmanUrl as PostmanUrl } from './postman-url.js';

/** An entry of a collection's `item` tree (a folder when `item` is an array), or the collection itself. */
interface PmNode {
  name?: string;
  item?: PmNode[];
  request?: PmRequest | string;
  event?: PmEvent[];
  auth?: PmAuthJson | null;
  description?: unknown;
  protocolProfileBehavior?: Record<string, unknown>;
  info?: { name?: string } | null;
  variable?: { key?: string; id?: string; value?: unknown; disabled?: boolean }[];
}

interface PmRequest {
  url?: unknown;
  method?: string;
  header?: { key?: string; value?: unknown; disabled?: boolean }[] | string;
  body?: Record<string, unknown> | null;
  auth?: PmAuthJson | null;
  description?: unknown;
}

interface PmEvent {
  listen?: string;
  disabled?: boolean;
  script?: { exec?: string[] | string } | string[] | string;
}

/** `{type, [type]: parameters}`: v2.1 gives the parameters as `[{key, value}]`, v2.0 as an object. */
type PmAuthJson = { type?: string } & Record<string, unknown>;

/** A node's name as the SDK's `Property` reads it: from `info` when there is one, else the node's own. */
const nameOf = (n: PmNode): string | undefined => ((n.info ?? n) as { name?: string }).name;

/** The auth's parameters as an object, either shape (the SDK's `RequestAuth#parameters().toObject()`). */
function authParams(auth: PmAuthJson): Record<string, unknown> {
  const raw = auth[auth.type ?? ''];
  if (Array.isArray(raw)) return Object.fromEntries((raw as { key?: string; value?: unknown }[]).filter((p) => p && p.key !== undefined).map((p) => [String(p.key), p.value]));
  return raw && typeof raw === 'object' ? { ...(raw as Record<string, unknown>) } : {};
}

/** The headers of a request: a list, or a string of `Name: value` lines (the SDK's `Header.parse`). */
function headerList(h: PmRequest['header']): { key?: string; value?: unknown; disabled?: boolean }[] {
  if (Array.isArray(h)) return h.filter((x) => x && typeof x === 'object');
  if (typeof h !== 'string') return [];
  return h.split(/\r?\n/).filter((l) => l.trim()).map((l) => {
    const i = l.indexOf(':');
    return i < 0 ? { key: l.trim(), value: '' } : { key: l.slice(0, i).trim(), value: l.slice(i + 1).trim() };
  });
}

/** A script's lines (`exec` as an array of lines or one string), as the SDK's `Script` reads them. */
function scriptLines(script: PmEvent['script']): string[] {
  const exec = typeof script === 'string' || Array.isArray(script) ? script : script?.exec;
  return Array.isArray(exec) ? exec.map(String) : typeof exec === 'string' ? exec.split('\n') : [];
}

/** The shape of a Postman environment or globals export. */
interface PmEnvironment {
  name?: string;
  values?: { key?: string; value?: unknown; enabled?: boolean; type?: string }[];
  _postman_variable_scope?: string;
}

/** `v2.0.0`, `v2.1.0`, or undefined, read from `info.schema`. */
export function postmanSchemaVersion(doc: { info?: { schema?: unknown } }): string | undefined {
  const m = /\/collection\/(v[\d.]+)\//.exec(String(doc.info?.schema ?? ''));
  return m?.[1];
}

/** A file name of `name`: letters, digits, `-`, `_`, `.`; others become `-`. */
export function fileSlug(name: string, fallback: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[-.]+|-+$/g, '') || fallback;
}

const RAW_TYPES: Record<string, string> = { json: 'application/json', xml: 'application/xml', html: 'text/html', javascript: 'application/javascript', text: 'text/plain', graphql: 'application/json' };

/** Postman dynamic variables with a `.http` equivalent; other `{{$name}}` are warned about. */
const DYNAMIC: Record<string, string> = { $guid: '$guid', $randomUUID: '$uuid', $timestamp: '$timestamp', $isoTimestamp: '$isoTimestamp', $randomInt: '$randomInt' };

/** `{{$name}}` rewritten or warned about, in any text of a request. */
function dynamicVars(text: string, where: string, warnings: ImportWarning[]): string {
  return text.replace(/\{\{\s*(\$[A-Za-z]+)\s*\}\}/g, (m, name: string) => {
    if (DYNAMIC[name]) return `{{${DYNAMIC[name]}}}`;
    warnings.push({ where, message: `Postman's dynamic variable {{${name}}} has no .http equivalent; it is kept as written and will be reported undefined when sent` });
    return m;
  });
}

/** A file part's Content-Type as Postman gives it: by the file's extension (mime-types), when the part names none. */
export async function fileTypes(fields: ImportedField[]): Promise<void> {
  if (!fields.some((f) => f.file && !f.contentType)) return;
  const { lookup } = await import('mime-types');
  for (const f of fields) if (f.file && !f.contentType) f.contentType = lookup(f.file) || undefined;
}

function body(raw: Record<string, unknown> | undefined, where: string, warnings: ImportWarning[], headers: ImportedHeader[], comments: string[]): ImportedBody | undefined {
  if (!raw || !raw.mode) return undefined;
  if (raw.disabled) {
    warnings.push({ where, message: `the ${String(raw.mode)} body is disabled in Postman; it is written as comments` });
  }
  const fields = (list: unknown): ImportedField[] =>
    (Array.isArray(list) ? list : []).map((f: Record<string, unknown>) => ({
      name: String(f.key ?? ''),
      value: f.type === 'file' ? undefined : typeof f.value === 'string' ? f.value : f.value === undefined ? '' : JSON.stringify(f.value),
      file: f.type === 'file' ? String(Array.isArray(f.src) ? f.src[0] ?? '' : f.src ?? '') : undefined,
      contentType: typeof f.contentType === 'string' && f.contentType ? f.contentType : undefined,
      disabled: f.disabled === true,
    }));
  const note = (kind: string, fs: ImportedField[]) => {
    for (const f of fs.filter((x) => x.disabled)) comments.push(`disabled ${kind} field: ${f.name}=${f.file !== undefined ? `< ${f.file}` : f.value}`);
    for (const f of fs.filter((x) => x.file !== undefined && !x.file)) warnings.push({ where, message: `form-data file field ${f.name} names no file; write its path after < in the part` });
  };
  let out: ImportedBody | undefined;
  switch (raw.mode) {
    case 'raw': {
      const text = typeof raw.raw === 'string' ? raw.raw : '';
      if (!text) return undefined;
      const lang = ((raw.options as { raw?: { language?: string } } | undefined)?.raw?.language ?? '').toLowerCase();
      if (lang && RAW_TYPES[lang] && !headers.some((h) => !h.disabled && h.name.toLowerCase() === 'content-type')) headers.unshift({ name: 'Content-Type', value: RAW_TYPES[lang]! });
      out = { kind: 'raw', text };
      break;
    }
    case 'urlencoded': {
      const fs = fields(raw.urlencoded);
      note('form', fs);
      out = { kind: 'urlencoded', fields: fs };
      break;
    }
    case 'formdata': {
      const fs = fields(raw.formdata);
      note('form-data', fs);
      out = { kind: 'multipart', fields: fs };
      break;
    }
    case 'graphql': {
      const g = (raw.graphql ?? {}) as { query?: string; variables?: string };
      out = { kind: 'graphql', query: g.query ?? '', variables: g.variables };
      break;
    }
    case 'file': {
      const src = (raw.file as { src?: string } | undefined)?.src;
      if (!src) {
        warnings.push({ where, message: 'the binary body names no file; the request is written without a body' });
        return undefined;
      }
      out = { kind: 'file', path: src };
      break;
    }
    default:
      warnings.push({ where, message: `body mode ${String(raw.mode)} is not known; the request is written without a body` });
      return undefined;
  }
  if (raw.disabled) {
    comments.push(`disabled ${String(raw.mode)} body:`, JSON.stringify(raw[String(raw.mode)] ?? raw.raw ?? ''));
    return undefined;
  }
  return out;
}

/**
 * Scripts of `listen` for the last node of `chain` (the collection, its folders, the item):
 * the collection's, then each folder's, then its own (Postman's order).
 */
function scripts(chain: PmNode[], listen: 'prerequest' | 'test'): { lines: string[]; where: string }[] {
  const out: { lines: string[]; where: string }[] = [];
  chain.forEach((level, i) => {
    for (const e of Array.isArray(level.event) ? level.event : []) {
      if (!e || e.listen !== listen || e.disabled) continue;
      const lines = scriptLines(e.script);
      if (lines.some((l) => l.trim())) out.push({ lines, where: i === chain.length - 1 ? 'its own' : i === 0 ? `of the collection "${nameOf(level) ?? ''}"` : `of folder "${nameOf(level) ?? ''}"` });
    }
  });
  return out;
}

/** `convertScript`, once per script text: a collection's or folder's scripts apply to every request below it. */
const conversions = new Map<string, ReturnType<typeof convertScript>>();
function converted(lines: string[]): ReturnType<typeof convertScript> {
  const key = lines.join('\n');
  let c = conversions.get(key);
  if (!c) {
    c = convertScript(lines);
    if (conversions.size > 10_000) conversions.clear();
    conversions.set(key, c);
  }
  return c;
}

/** Scripts of a collection or folder apply to many requests: one warning each (by level and text). */
const warnedScripts = new WeakMap<ImportWarning[], Set<string>>();

function convertScripts(chain: PmNode[], listen: 'prerequest' | 'test', where: string, warnings: ImportWarning[], comments: string[]): string | undefined {
  const warned = warnedScripts.get(warnings) ?? new Set<string>();
  warnedScripts.set(warnings, warned);
  const parts: string[] = [];
  const label = listen === 'test' ? 'test script' : 'pre-request script';
  for (const s of scripts(chain, listen)) {
    const c = converted(s.lines);
    if (c.js !== undefined) parts.push(c.js);
    else {
      const key = `${label}|${s.where}|${s.lines.join('\n')}`;
      if (s.where === 'its own' || !warned.has(key)) warnings.push({ where: s.where === 'its own' ? where : `${s.where.replace(/^of /, '')}`, message: `${label} line ${c.failed!.line} is not converted (${c.failed!.text.slice(0, 60)}); the whole script is kept as comments${s.where === 'its own' ? '' : ' above each request it applies to'}` });
      warned.add(key);
      comments.push(`Postman ${label} (${s.where}), not converted:`, ...s.lines);
    }
  }
  return parts.length ? parts.join('\n') : undefined;
}

/**
 * Postman's inherit rule: the request's auth, else (absent or `inherit`) the nearest folder's,
 * then the collection's, whose type is not `inherit` (`noauth` ends the search, as a type of
 * its own). `chain` is the collection, its folders, the item.
 */
function effectiveAuth(chain: PmNode[], own: PmAuthJson | null | undefined): PmAuthJson | undefined {
  if (own?.type && own.type !== 'inherit') return own;
  for (let i = chain.length - 2; i >= 0; i--) {
    const a = chain[i]!.auth;
    if (a?.type && a.type !== 'inherit') return a;
  }
  return undefined;
}

function request(chain: PmNode[], ctx: AuthContext, warnings: ImportWarning[], postmanUrl: typeof PostmanUrl): ImportedRequest {
  const item = chain[chain.length - 1]!;
  const folder = chain.slice(1, -1).map((f) => String(nameOf(f) ?? ''));
  const name = nameOf(item) ?? 'request';
  const where = `item "${[...folder, name].join(' / ')}"`;
  const req: PmRequest = typeof item.request === 'string' ? { url: item.request } : item.request && typeof item.request === 'object' ? item.request : {};
  const comments: string[] = [];
  const rawDesc = req.description ?? item.description;
  const desc = !rawDesc ? '' : typeof rawDesc === 'string' ? rawDesc : String((rawDesc as { content?: string }).content ?? '');
  if (desc.trim()) comments.push(...desc.trim().split(/\r?\n/));
  const headers: ImportedHeader[] = headerList(req.header).map((h) => ({ name: h.key ?? '', value: dynamicVars(String(h.value ?? ''), where, warnings), disabled: h.disabled === true }));
  const rawQuery = req.url && typeof req.url === 'object' ? (req.url as { query?: unknown }).query : undefined;
  if (Array.isArray(rawQuery)) for (const q of rawQuery as { key?: string | null; value?: string | null; disabled?: boolean }[]) if (q && q.disabled === true) comments.push(`disabled query parameter: ${q.key ?? ''}=${q.value ?? ''}`);
  const auth = effectiveAuth(chain, req.auth);
  const pmAuth: PostmanAuth | undefined = auth?.type ? { type: auth.type, params: authParams(auth) } : undefined;
  const mapped = mapAuth(pmAuth, ctx, where);
  let href = postmanUrl(req.url);
  if (mapped.query.length) href += (href.includes('?') ? '&' : '?') + mapped.query.map(([k, v]) => `${k}=${v}`).join('&');
  if (!href) warnings.push({ where, message: 'the request has no URL' });
  const behavior = item.protocolProfileBehavior ?? {};
  if (behavior.followRedirects === false) comments.unshift('@no-redirect');
  for (const k of Object.keys(behavior)) if (k !== 'followRedirects' && k !== 'disableBodyPruning') warnings.push({ where, message: `setting ${k} is not carried` });
  const b = body(req.body ?? undefined, where, warnings, headers, comments);
  const authHeaders = mapped.headers.filter((a) => !headers.some((h) => !h.disabled && h.name.toLowerCase() === a.name.toLowerCase()));
  return {
    name,
    folder,
    comments,
    method: req.method ? String(req.method).toUpperCase() : 'GET',
    url: dynamicVars(href || 'http://localhost/', where, warnings),
    headers: [...authHeaders, ...headers],
    body: b && b.kind === 'raw' ? { kind: 'raw', text: dynamicVars(b.text, where, warnings) } : b,
    preScript: convertScripts(chain, 'prerequest', where, warnings, comments),
    handler: convertScripts(chain, 'test', where, warnings, comments),
  };
}

/**
 * A Postman collection (parsed JSON, v2.0.0 or v2.1.0: check with `postmanSchemaVersion`
 * first) -> one `.http` file named after the collection, its secrets in the private env file.
 */
export async function importPostmanCollection(doc: Record<string, unknown>): Promise<ImportResult> {
  // postman-collection's URL rules load its Url module (and faker, for its dynamic variables): only here.
  const { postmanUrl } = await import('./postman-url.js');
  const version = postmanSchemaVersion(doc as { info?: { schema?: unknown } });
  const result = emptyResult(`Postman collection ${version ?? '(no schema named; read as v2.1, as newman does)'}`);
  const collection = doc as PmNode;
  const ctx = new AuthContext(result.env, result.privateEnv, result.warnings);
  const requests: ImportedRequest[] = [];
  const parts: ImportedField[] = [];
  // Depth first, in the collection's order, as the SDK's `forEachItem`.
  const walk = (chain: PmNode[]) => {
    for (const node of chain[chain.length - 1]!.item ?? []) {
      if (!node || typeof node !== 'object') continue;
      if (Array.isArray(node.item)) walk([...chain, node]);
      else {
        const r = request([...chain, node], ctx, result.warnings, postmanUrl);
        if (r.body?.kind === 'multipart') parts.push(...r.body.fields);
        requests.push(r);
      }
    }
  };
  if (Array.isArray(collection.item)) walk([collection]);
  await fileTypes(parts);
  const vars: [string, string][] = [];
  for (const raw of Array.isArray(collection.variable) ? collection.variable : []) {
    const v = raw && typeof raw === 'object' ? { ...raw, key: raw.key || raw.id } : undefined;
    if (!v?.key) continue;
    if (v.disabled) {
      result.warnings.push({ where: `collection variable ${v.key}`, message: 'disabled in Postman; not written' });
      continue;
    }
    const value = typeof v.value === 'string' ? v.value : JSON.stringify(v.value ?? '');
    if (/\r|\n/.test(value)) result.warnings.push({ where: `collection variable ${v.key}`, message: 'its value has several lines; a .http file variable holds one, the lines are joined with blanks' });
    vars.push([v.key, value]);
  }
  const name = nameOf(collection) || 'collection';
  result.files.push({ path: `${fileSlug(name, 'collection')}.http`, vars, header: [`Imported from the Postman collection "${name}" (${version ?? 'no schema'}) by sheet import.`], requests });
  return result;
}

/** Does `doc` look like a Postman environment or globals export? */
export function isPostmanEnvironment(doc: Record<string, unknown>): boolean {
  return Array.isArray(doc.values) && !('item' in doc) && (doc.values as unknown[]).every((v) => typeof v === 'object' && v !== null && 'key' in v);
}

/**
 * A Postman environment -> an environment of http-client.env.json named after it (`secret`
 * values to the private file); globals -> `$shared`. Disabled values are left out, with a warning.
 */
export function importPostmanEnvironment(doc: PmEnvironment, fallbackName: string): ImportResult {
  const globals = doc._postman_variable_scope === 'globals';
  const result = emptyResult(globals ? 'Postman globals' : 'Postman environment');
  const envName = globals ? '$shared' : fileSlug(String(doc.name ?? ''), fallbackName);
  result.env[envName] = {};
  for (const v of doc.values ?? []) {
    if (!v.key) continue;
    if (v.enabled === false) {
      result.warnings.push({ where: `${globals ? 'globals' : `environment ${envName}`} value ${v.key}`, message: 'disabled in Postman; not written' });
      continue;
    }
    const value = typeof v.value === 'string' ? v.value : JSON.stringify(v.value ?? '');
    setEnv(v.type === 'secret' ? result.privateEnv : result.env, envName, v.key, value);
  }
  return result;
}

/** Merge environment files: later values win, `Security.Auth` entries merged by id. */
export function mergeEnv(into: EnvFile, from: EnvFile): void {
  for (const [env, vars] of Object.entries(from)) {
    const target = (into[env] ??= {});
    for (const [k, v] of Object.entries(vars)) {
      if (k === 'Security' && typeof target.Security === 'object' && target.Security) {
        const a = target.Security as { Auth?: Record<string, unknown> };
        a.Auth = { ...(a.Auth ?? {}), ...((v as { Auth?: Record<string, unknown> }).Auth ?? {}) };
      } else target[k] = v;
    }
  }
}
