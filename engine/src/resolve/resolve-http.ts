/**
 * A `.http` request (AST from engine/src/http-file/parse.ts) + variables -> a concrete
 * {@link Request}: the `{{...}}` pass of http-vars.ts on the URL, header values, bodies and the
 * values of connection directives (`# @proxy {{proxy}}`).
 *
 * Body bytes follow what VS Code REST Client and httpyac put on the wire: body lines joined with
 * `\n`, trailing blank lines dropped; a `multipart/form-data` body's lines joined with `\r\n`
 * and each `< path` part replaced by the file's bytes as they are; `<@ path` reads the file as
 * text (UTF-8, or the encoding after `<@`) and substitutes variables in it.
 */
import type { RequestNode, Sheet } from '../sheet/ast.js';
import { EngineError } from '../errors.js';
import { headerValue, type Body, type Header } from '../model.js';
import { asWrittenTarget, expandPath, normalizeUrl } from './url-path.js';
import type { ResolvedRequest, ResolveOptions } from './types.js';
import { httpReferences, substituteHttp, type HttpVarContext } from './http-vars.js';
import { substitutedDirectives } from '../sheet/connection-tags.js';
import { basicAuthorization, httpyacOAuth2 } from './http-auth.js';
import { formBody } from './http-form.js';
import { isMultipart, multipartText, partsBody, readBodyFile, textOf } from './body-parts.js';
import { graphQlRequest, isGraphQl, isGraphQlWebSocket } from './http-graphql.js';

/** What a `.http` request asks of the sender, from its `# @` directives. */
export interface HttpRequestMeta {
  name?: string;
  /** `# @no-redirect`: do not follow redirects. */
  noRedirect: boolean;
  /** `# @no-cookie-jar`: neither send nor store cookies. */
  noCookieJar: boolean;
  /** `# @http2` (httpyac), or `HTTP/2` on the request line (JetBrains): offer HTTP/2 (curl's --http2). */
  http2: boolean;
}

export interface HttpResolvedRequest extends ResolvedRequest {
  meta: HttpRequestMeta;
}

/** The directives of `req` as sender options. */
export function requestMeta(req: RequestNode): HttpRequestMeta {
  const has = (n: string) => !!req.directives?.some((d) => d.name === n);
  const flags = { noRedirect: has('no-redirect'), noCookieJar: has('no-cookie-jar'), http2: has('http2') || req.httpVersion === 'HTTP/2' };
  // Not `{ ...(name ? { name } : {}), ...flags }`: an object that starts with a spread and then
  // gains properties costs Node 20's V8 ~1-2 µs (docs/benchmarks.md, "grpc"); this runs 4 times a request.
  return req.name ? { name: req.name, ...flags } : flags;
}

/** The prompt variables a request asks for (`# @prompt name [description]`). */
export function promptsOf(req: RequestNode): { name: string; description: string; line: number }[] {
  return (req.directives ?? [])
    .filter((d) => d.name === 'prompt')
    .map((d) => {
      const [name = '', ...rest] = d.value.split(/\s+/);
      return { name, description: rest.join(' '), line: d.line };
    });
}

/**
 * Names of `# @prompt` variables whose answer is read without echo: those holding password,
 * passwd, token or secret (any `pass...`), in any case. VS Code REST Client masks password
 * names; tokens and secrets are masked here too. `sheet run` on a terminal uses it
 * (sheet-command/prompts.ts); Emacs's `sheet-prompt-secret-regexp` has the same words as its default
 * (test/engine/sheet-run-prompt.test.ts checks that the two agree).
 */
export const SECRET_PROMPT_NAME = /pass(?:word|wd)?|token|secret/i;

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The absolute URL of a request line's target (httpyac's `hostVariableReplacer`):
 * - `/path` with a `Host:` header (VS Code REST Client, RFC 9112 origin-form):
 *   `http://HOST/path`, `https://` when the Host's port is 443 or 8443;
 * - `/path` with a `{{host}}` variable (file, environment, `client.global`; httpyac): the
 *   variable's value, then the path;
 * - `localhost:3000/x` (no scheme): `http://` in front, as VS Code REST Client does.
 * @throws EngineError `invalid-url` for `/path` with neither, naming what to add.
 */
function absoluteUrl(url: string, headers: Header[], c: HttpVarContext, line: number): string {
  if (!url.startsWith('/')) return SCHEME.test(url) ? url : `http://${url}`;
  const hostHeader = headerValue(headers, 'host');
  if (hostHeader) return `${/:(443|8443)$/.test(hostHeader) ? 'https' : 'http'}://${hostHeader}${url}`;
  let host: string | undefined;
  try {
    host = substituteHttp('{{host}}', c, line).trim().replace(/\/+$/, '');
  } catch {
    // no host variable: the error below says what to add
  }
  if (!host) {
    throw new EngineError('invalid-url', `the request line's URL ${JSON.stringify(url)} has no host`, {
      line,
      hint: 'Write an absolute URL (http://host/path), add a Host: header, or declare @host = http://host (httpyac\'s convention).',
      details: { url },
    });
  }
  return `${SCHEME.test(host) ? '' : 'http://'}${host}${url}`;
}

/**
 * The `Authorization` value to send for `value` (after the `{{...}}` pass): httpyac's
 * `oauth2 [flow] [prefix]` becomes `Bearer TOKEN` (the token the session obtained, session/auth.ts),
 * `Basic user password` becomes `Basic <base64>` (http-auth.ts).
 * @throws EngineError `unknown-auth` for an `oauth2 ...` line whose token was not obtained.
 */
function authorization(value: string, c: HttpVarContext, line: number): string {
  const o = httpyacOAuth2(value);
  if (!o) return basicAuthorization(value);
  const got = c.authTokens?.get(o.key);
  if (!got) throw new EngineError('unknown-auth', `Authorization: ${value.trim()}: no token was obtained`, { line, hint: 'Send it from a .http file (httpyac\'s oauth2 line reads the {prefix}_tokenEndpoint, ... variables).', details: { auth: o.key } });
  return `Bearer ${got.token}`;
}

/**
 * Resolve `req` of the `.http` `sheet`.
 * @param ctx the `{{...}}` sources (environment, request variables, prompts); the file
 *   variables of `sheet` and `opts.overrides` are added here.
 * @throws EngineError `unknown-variable`, `vars-cycle`, `unsupported-construct`,
 *   `invalid-url`, `file-unreadable`, `bad-argument`; each names the line.
 */
export async function resolveHttpRequest(sheet: Sheet, req: RequestNode, opts: ResolveOptions = {}, ctx: HttpVarContext = {}): Promise<HttpResolvedRequest> {
  // File variables are file-wide (VS Code REST Client); the last declaration of a name wins.
  const fileVars = new Map(ctx.fileVars ?? []);
  for (const v of sheet.vars) fileVars.set(v.name, v.value);
  const overrides = new Map([...(ctx.overrides ?? []), ...(opts.overrides ?? [])]);
  const c: HttpVarContext = Object.assign({}, ctx, { fileVars, overrides, maxDepth: ctx.maxDepth ?? opts.maxPasses });
  const sub = (t: string, line: number) => substituteHttp(t, c, line);
  const baseDir = opts.baseDir ?? process.cwd();

  let headers: Header[] = req.headers.flatMap((h) => {
    if (h.kind !== 'header') return [];
    const value = sub(h.value, h.line);
    return [[h.name, /^authorization$/i.test(h.name) ? authorization(value, c, h.line) : value] as Header];
  });
  const written = absoluteUrl(sub(req.url, req.line).trim(), headers, c, req.line);
  // `GRAPHQL ws://...` (or X-REQUEST-TYPE: GraphQL to a ws:// URL): graphql-transport-ws (http-graphql.ts).
  const graphql = req.body?.kind === 'text' && (req.graphql || isGraphQl(headers));
  const graphqlWs = graphql && isGraphQlWebSocket(written);
  const websocket = req.websocket || graphqlWs;
  const url = normalizeUrl(written, req.line, websocket);
  const target = asWrittenTarget(req, written, req.line);
  // Connection directives (`# @proxy {{proxy}}`) as header values: the same pass, the same errors.
  const directives = substitutedDirectives(req.directives, sub, (t) => httpReferences(t).map((n) => `{{${n}}}`));

  let body: Body | undefined;
  const b = req.body;
  const multipart = isMultipart(headerValue(headers, 'content-type'));
  if (b?.kind === 'text' && graphql) {
    const g = graphQlRequest(headers, sub(b.text, b.line), b.line);
    if (!graphqlWs) headers = g.headers;
    body = { kind: 'text', text: g.body };
  } else if (b?.kind === 'text') {
    const text = sub(b.text, b.line);
    // A form body may be broken over lines, with blanks around `=` and `&` (http-form.ts).
    const form = /^application\/x-www-form-urlencoded\b/i.test(headerValue(headers, 'content-type') ?? '');
    body = { kind: 'text', text: multipart ? multipartText(text) : form ? formBody(text) : text };
  } else if (b?.kind === 'file') {
    const file = expandPath(sub(b.path, b.line), baseDir);
    const buf = await readBodyFile(file, b.line);
    body = b.substitute ? { kind: 'text', text: sub(textOf(buf, b.encoding, b.line), b.line) } : { kind: 'bytes', bytes: buf, path: file };
  } else if (b?.kind === 'parts') {
    body = { kind: 'bytes', bytes: await partsBody(b.parts, multipart, sub, baseDir) };
  }
  const variables = new Map<string, string>();
  for (const [k, v] of fileVars) {
    try {
      variables.set(k, sub(v, req.line));
    } catch {
      // a variable this request does not use may be unresolvable here; it is not reported
    }
  }
  return { request: { method: graphqlWs ? 'GET' : req.method, url, ...(target !== undefined ? { target } : {}), headers, body, line: req.line, ...(websocket ? { websocket: true } : {}), ...(graphqlWs ? { graphql: true } : {}) }, hooks: req.hooks, variables, warnings: [], directives, meta: requestMeta(req) };
}
