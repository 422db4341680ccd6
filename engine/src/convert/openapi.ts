/**
 * OpenAPI 3.0/3.1 and Swagger 2.0 (JSON or YAML; local `$ref`s resolved on read by
 * `openapi-refs.ts`, a document with `$ref`s to other files by `@apidevtools/swagger-parser`,
 * loaded only then) -> the imported model: one request per
 * operation, in the spec's order, in one `.http` file named after the spec, the first tag as
 * the folder (docs/import.md, "OpenAPI"):
 *
 * - servers (Swagger: `schemes`, `host`, `basePath`): `{{baseUrl}}`, the first server as the file
 *   variable `@baseUrl`, each server an environment of http-client.env.json (server variables
 *   as environment variables with their defaults);
 * - path, query, header and cookie parameters: `{{name}}` variables, their example or default as
 *   file variables (the first operation's value); optional query parameters without either:
 *   a comment line;
 * - body: the example of the first media type (JSON first), else a minimal instance of its
 *   schema (`openapi-sample.ts`); form media types as form fields; binary parts as `< ./name`;
 * - security: the operation's (else the spec's) first requirement: `http` basic/bearer/digest,
 *   `apiKey` in header/query/cookie as `{{...}}` variables whose (empty) values wait in
 *   http-client.private.env.json, `oauth2` as a `Security.Auth` entry; `openIdConnect`: warned.
 */
import path from 'node:path';
import { collectRefs, pointerTarget, resolvedView } from './openapi-refs.js';
import { exampleOf, sampleOf } from './openapi-sample.js';
import type { ImportedField, ImportedHeader, ImportedRequest, ImportResult, ImportWarning } from './model.js';
import { emptyResult, setEnv } from './model.js';
import { fileSlug } from './postman.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a spec's shape is checked by swagger-parser, not by types
type Obj = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The servers as `{url, name, variables}`; Swagger 2's scheme, host and basePath as one. */
function servers(api: Obj, warnings: ImportWarning[]): { url: string; name: string; vars: Record<string, string> }[] {
  if (api.swagger) {
    if (!api.host) return [];
    const schemes: string[] = Array.isArray(api.schemes) && api.schemes.length ? api.schemes : ['https'];
    return schemes.map((s) => ({ url: `${s}://${api.host}${api.basePath && api.basePath !== '/' ? api.basePath : ''}`, name: fileSlug(`${String(api.host).split(':')[0]}${schemes.length > 1 ? `-${s}` : ''}`, s), vars: {} }));
  }
  const list: Obj[] = Array.isArray(api.servers) ? api.servers : [];
  return list.map((s, i) => {
    const vars: Record<string, string> = {};
    for (const [k, v] of Object.entries((s.variables ?? {}) as Obj)) vars[k] = text(v.default);
    const url = text(s.url).replace(/\{([^{}]+)\}/g, '{{$1}}').replace(/\/$/, '');
    if (url.startsWith('/')) warnings.push({ where: `servers[${i}]`, message: `a relative server URL (${s.url}); set baseUrl to the full URL` });
    const host = /^[a-z]+:\/\/([^/:]+)/i.exec(url.replace(/\{\{([^{}]+)\}\}/g, (_m, n: string) => vars[n] ?? n))?.[1];
    return { url, name: fileSlug(text(s.description) || host || `server-${i + 1}`, `server-${i + 1}`), vars };
  });
}

function security(api: Obj, op: Obj, r: ImportedRequest, query: string[], res: ImportResult, where: string): void {
  const reqs: Obj[] | undefined = op.security ?? api.security;
  if (!reqs?.length) return;
  const schemes: Obj = api.components?.securitySchemes ?? api.securityDefinitions ?? {};
  const first = reqs.find((x) => Object.keys(x).length) ?? {};
  for (const name of Object.keys(first)) {
    const s = schemes[name];
    if (!s) {
      res.warnings.push({ where, message: `security scheme ${name} is not defined` });
      continue;
    }
    const secret = (v: string) => {
      if (!res.privateEnv.$shared || !(v in res.privateEnv.$shared)) setEnv(res.privateEnv, '$shared', v, '');
      return `{{${v}}}`;
    };
    const scheme = String(s.scheme ?? '').toLowerCase();
    if ((s.type === 'http' && scheme === 'basic') || s.type === 'basic') r.headers.unshift({ name: 'Authorization', value: `Basic ${secret('username')}:${secret('password')}` });
    else if (s.type === 'http' && scheme === 'bearer') r.headers.unshift({ name: 'Authorization', value: `Bearer ${secret('token')}` });
    else if (s.type === 'http' && scheme === 'digest') r.headers.unshift({ name: 'Authorization', value: `Digest ${secret('username')} ${secret('password')}` });
    else if (s.type === 'apiKey') {
      const v = secret(fileSlug(name, 'apiKey').replace(/[^\w.-]/g, '_'));
      if (s.in === 'query') query.push(`${s.name}=${v}`);
      else if (s.in === 'cookie') r.headers.push({ name: 'Cookie', value: `${s.name}=${v}` });
      else r.headers.unshift({ name: String(s.name), value: v });
    } else if (s.type === 'oauth2') {
      const flows: Obj = s.flows ?? { [s.flow === 'application' ? 'clientCredentials' : s.flow === 'accessCode' ? 'authorizationCode' : String(s.flow)]: { tokenUrl: s.tokenUrl, authorizationUrl: s.authorizationUrl } };
      const [flow, f] = Object.entries(flows)[0] ?? [];
      const grant = flow === 'clientCredentials' ? 'Client Credentials' : flow === 'password' ? 'Password' : flow === 'authorizationCode' ? 'Authorization Code' : undefined;
      if (!grant) {
        res.warnings.push({ where, message: `OAuth2 flow ${flow} of scheme ${name} is not supported (implicit is refused); no auth written` });
        continue;
      }
      const config: Obj = { Type: 'OAuth2', 'Grant Type': grant, 'Token URL': f.tokenUrl, 'Client ID': '{{clientId}}', 'Client Secret': '{{clientSecret}}' };
      if (f.authorizationUrl) config['Auth URL'] = f.authorizationUrl;
      const scopes = (first[name] as string[] | undefined) ?? [];
      if (scopes.length) config.Scope = scopes.join(' ');
      if (grant === 'Password') Object.assign(config, { Username: '{{username}}', Password: '{{password}}' });
      const shared = (res.env.$shared ??= {});
      ((shared.Security ??= { Auth: {} }) as Obj).Auth[name] = config;
      secret('clientId');
      secret('clientSecret');
      r.headers.unshift({ name: 'Authorization', value: `Bearer {{$auth.token("${name}")}}` });
    } else res.warnings.push({ where, message: `security scheme ${name} (${s.type}${scheme ? ` ${scheme}` : ''}) is not supported; no auth written` });
  }
}

function formFields(schema: Obj | undefined, example: unknown): ImportedField[] {
  const props: Obj = schema?.properties ?? {};
  const ex = (example && typeof example === 'object' ? example : sampleOf(schema)) as Obj;
  return Object.keys({ ...props, ...(ex ?? {}) }).map((n) => (props[n]?.format === 'binary' || props[n]?.format === 'base64' ? { name: n, file: `./${n}` } : { name: n, value: text(ex?.[n]) }));
}

/** The body of an operation onto `r` (OpenAPI 3 `requestBody`, Swagger 2 `body`/`formData` parameters). */
function body(op: Obj, params: Obj[], r: ImportedRequest, consumes: string[]): void {
  let content: Obj | undefined = op.requestBody?.content;
  if (!content) {
    const b = params.find((p) => p.in === 'body');
    const form = params.filter((p) => p.in === 'formData');
    if (b) content = { [consumes[0] ?? 'application/json']: { schema: b.schema, example: b['x-example'] ?? b.schema?.example } };
    else if (form.length) {
      const type = consumes.find((c) => /multipart|urlencoded/.test(c)) ?? (form.some((p) => p.type === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded');
      content = { [type]: { schema: { type: 'object', properties: Object.fromEntries(form.map((p) => [p.name, p.type === 'file' ? { type: 'string', format: 'binary' } : p])) } } };
    }
  }
  if (!content) return;
  const types = Object.keys(content);
  const type = types.find((t) => /json/i.test(t)) ?? types[0]!;
  const media = content[type] ?? {};
  const example = exampleOf(media);
  if (/multipart\/form-data/i.test(type)) r.body = { kind: 'multipart', fields: formFields(media.schema, example) };
  else if (/x-www-form-urlencoded/i.test(type)) {
    r.headers.push({ name: 'Content-Type', value: type });
    r.body = { kind: 'urlencoded', fields: formFields(media.schema, example) };
  } else {
    r.headers.push({ name: 'Content-Type', value: type });
    const v = example !== undefined ? example : sampleOf(media.schema);
    if (/octet-stream|image\/|audio\/|video\//i.test(type)) r.body = { kind: 'file', path: './body.bin' };
    else r.body = { kind: 'raw', text: typeof v === 'string' && !/json/i.test(type) ? v : JSON.stringify(v ?? {}, null, 2) };
  }
  if (types.length > 1) r.comments.push(`other media types of the body: ${types.filter((t) => t !== type).join(', ')}`);
}

/** An OpenAPI 3.x or Swagger 2.0 document (its `$ref`s relative to `file`) -> one `.http` file `fileBase.http`. */
export async function importOpenApi(doc: Record<string, unknown>, file: string, fileBase: string): Promise<ImportResult> {
  const refs = collectRefs(doc);
  let api: Obj;
  if (refs.external) {
    // A $ref to a file beside the spec: swagger-parser reads and resolves them all (never over HTTP).
    const { default: SwaggerParser } = (await import('@apidevtools/swagger-parser')) as unknown as { default: { dereference: (p: string, api: unknown, o: unknown) => Promise<Obj> } };
    try {
      api = await SwaggerParser.dereference(path.resolve(file), doc, { resolve: { external: true, http: false }, dereference: { circular: 'ignore' } });
    } catch (e) {
      throw new Error(String((e as Error).message).split('\n')[0]);
    }
  } else {
    for (const [ref, where] of refs.local) if (pointerTarget(doc, ref) === undefined) throw new Error(`$ref "${ref}" at ${where} does not resolve: the document has no ${ref.slice(1) || '/'}`);
    api = resolvedView(doc);
  }
  const version = text(api.openapi ?? api.swagger);
  const res = emptyResult(`${api.swagger ? 'Swagger' : 'OpenAPI'} ${version}`);
  const srv = servers(api, res.warnings);
  for (const s of srv) {
    setEnv(res.env, s.name, 'baseUrl', s.url);
    for (const [k, v] of Object.entries(s.vars)) setEnv(res.env, s.name, k, v);
  }
  const vars = new Map<string, string>();
  if (srv[0]) vars.set('baseUrl', srv[0].url.replace(/\{\{([^{}]+)\}\}/g, (_m, n: string) => srv[0]!.vars[n] ?? `{{${n}}}`));
  else {
    vars.set('baseUrl', 'http://localhost');
    res.warnings.push({ where: 'servers', message: 'the spec names no server; baseUrl is http://localhost, change it' });
  }
  const requests: ImportedRequest[] = [];
  for (const [p, item] of Object.entries((api.paths ?? {}) as Obj)) {
    if (!item || typeof item !== 'object') continue;
    for (const m of METHODS) {
      const op: Obj | undefined = item[m];
      if (!op) continue;
      const where = `paths.${p}.${m}`;
      const params: Obj[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].filter((x, i, all) => !all.slice(i + 1).some((y: Obj) => y.name === x.name && y.in === x.in));
      const r: ImportedRequest = { name: text(op.operationId) || `${m.toUpperCase()} ${p}`, folder: op.tags?.length ? [text(op.tags[0])] : [], comments: [], method: m.toUpperCase(), url: '', headers: [] };
      if (op.summary) r.comments.push(text(op.summary));
      if (op.deprecated) r.comments.push('deprecated');
      const query: string[] = [];
      const valueOf = (x: Obj) => exampleOf(x) ?? x.schema?.example ?? x.schema?.default ?? x.default ?? x['x-example'];
      for (const x of params) {
        const v = valueOf(x);
        const name = String(x.name);
        if (v !== undefined && !vars.has(name)) vars.set(name, text(v));
        if (x.in === 'path' && !vars.has(name)) vars.set(name, '');
        if (x.in === 'query') {
          if (x.required || v !== undefined) query.push(`${name}={{${name}}}`);
          else r.comments.push(`optional query parameter: ${name}${x.description ? ` (${text(x.description).split('\n')[0]})` : ''}`);
        } else if (x.in === 'header') (r.headers as ImportedHeader[]).push({ name, value: `{{${name}}}`, disabled: !x.required && v === undefined });
        else if (x.in === 'cookie') r.headers.push({ name: 'Cookie', value: `${name}={{${name}}}` });
        if (!vars.has(name) && (x.in === 'query' || x.in === 'header') && (x.required || v !== undefined)) vars.set(name, '');
      }
      body(op, params, r, op.consumes ?? api.consumes ?? []);
      security(api, op, r, query, res, where);
      r.url = `{{baseUrl}}${p.replace(/\{([^{}]+)\}/g, '{{$1}}')}${query.length ? `?${query.join('&')}` : ''}`;
      requests.push(r);
    }
  }
  res.files.push({ path: `${fileBase}.http`, vars: [...vars], header: [`Imported from ${text(api.info?.title) || fileBase} (${res.format}) by sheet import.`], requests });
  return res;
}
