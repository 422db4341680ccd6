/**
 * The session's token step for `.http` requests (docs/http-files.md, "Authentication"):
 * before the `{{...}}` pass, every `{{$auth.token("id")}}` / `{{$auth.idToken("id")}}` the
 * request needs (resolve/http-vars.ts `authReferences`) is obtained through the session's
 * {@link TokenStore} (engine/src/tokens/: cache, refresh, grant) and put in the context; so is
 * the token of httpyac's `Authorization: oauth2 [flow] [prefix]` line (its configuration from
 * the `{prefix}_tokenEndpoint`, ... variables; resolve-http.ts writes `Bearer TOKEN`). A
 * failure is the request's error, with its line, and nothing is sent to the API.
 */
import type { Directive, RequestNode, Sheet } from '../sheet/ast.js';
import { EngineError } from '../errors.js';
import { httpContext, newHttpState } from './http-file.js';
import { authReferences, substituteHttp, type HttpVarContext } from '../resolve/http-vars.js';
import path from 'node:path';
import { TokenStore, type AuthTokens, type CheckedConfig, type TokenOptions } from '../tokens/store.js';
import { readHttpyacConfig } from '../tokens/config.js';
import { cacheKey } from '../tokens/cache.js';
import { httpyacOAuth2, type HttpyacOAuth2 } from '../resolve/http-auth.js';
import { httpReferences } from '../resolve/http-vars.js';
import { substitutedDirectives, type SubstitutedDirective } from '../sheet/connection-tags.js';
import type { FetchLike } from '../http/send.js';

/**
 * How a request's token requests connect: a `fetch` for the request's connection directives
 * (`# @proxy`, `# @cacert`, `# @insecure`, `# @cert`, ... substituted as the request's own
 * will be) over the session's settings (session.ts builds it with connection.ts `connectionSend`
 * and ../http/fetch.ts `fetchWith`). Called only when a token is requested.
 */
export type TokenConnect = (directives: SubstitutedDirective[]) => FetchLike;

/** The request's templates: URL, header values, body text or file names, directive values. */
function templatesOf(node: RequestNode): string[] {
  const out = [node.url];
  for (const h of node.headers) if (h.kind === 'header') out.push(h.value);
  const b = node.body;
  if (b?.kind === 'text') out.push(b.text);
  else if (b?.kind === 'file') out.push(b.path);
  else if (b?.kind === 'parts') for (const p of b.parts) out.push(p.kind === 'text' ? p.text : p.path);
  for (const d of node.directives ?? []) out.push(d.value);
  return out;
}

/** A session's token state: its `TokenStore`, the secrets to mask, whether a person can sign in. */
export class SessionAuth {
  readonly store = new TokenStore();
  /** Every client secret, password and token used in this session: what `sheet run`'s reports mask (history.ts `maskSecrets`). */
  readonly secrets = new Set<string>();
  /** A person can sign in in a browser (Authorization Code; tokens/auth-code.ts): set by the front ends that have one. */
  interactive = false;
  /** Shows the user a line about a sign-in (the URL to open when no browser could be started). */
  notify?: (line: string) => void;
  /** Opens a sign-in URL in the front end's own browser (sheet-mode: `browse-url`); unset: `BROWSER`. */
  openUrl?: (url: string) => boolean;

  /** {@link withAuthTokens} with this session's store and options; the secrets are remembered. */
  async prepare(sheet: Sheet, node: RequestNode, ctx: HttpVarContext, file: string | undefined, signal?: AbortSignal, connect?: TokenConnect): Promise<{ ctx: HttpVarContext; secrets: string[]; warnings: string[] }> {
    const r = await withAuthTokens(sheet, node, ctx, this.store, file, { interactive: this.interactive, ...(signal ? { signal } : {}), ...(connect ? { connect } : {}), ...(this.notify ? { notify: this.notify } : {}), ...(this.openUrl ? { openUrl: this.openUrl } : {}) });
    for (const x of r.secrets) this.secrets.add(x);
    return r;
  }

  /**
   * The token of a sheet's `# @auth ID` line (docs/sheet-format.md, "Token auth"; issue 39
   * item 5): the `Security.Auth` entry ID of the JetBrains environment files found above the
   * sheet (as for a `.http` file beside it), in environment `env`, through this session's store
   * (cached, refreshed, the interactive grants signed in as for `{{$auth.token("ID")}}`).
   * @param file the sheet's file (the environment files are looked for from its directory;
   *   none: the current directory).
   * @throws EngineError `bad-argument` (no id, or more than one word, at the tag's line),
   *   `unknown-auth`, `bad-auth-config`, `token-request-failed`, `cancelled`.
   */
  async sheetToken(tag: Directive, file: string | undefined, env: Parameters<typeof httpContext>[2], signal?: AbortSignal): Promise<{ token: string; secrets: string[]; warnings: string[] }> {
    const id = tag.value.trim();
    if (!/^[^\s]+$/.test(id)) {
      throw new EngineError('bad-argument', `line ${tag.line}: # @auth needs the id of a Security.Auth configuration, one word${id ? `, not ${JSON.stringify(id)}` : ''}`, { line: tag.line, hint: 'Write # @auth ID, ID being a key of "Security": {"Auth": {...}} in http-client.env.json beside the sheet (docs/sheet-format.md, "Token auth").' });
    }
    const ctx = httpContext(undefined, file ?? path.join(process.cwd(), 'untitled.sheet'), env, new Map(), newHttpState());
    const got = await this.store.tokens(id, ctx.authEnvironment ?? { auth: {}, files: [] }, {
      sub: (t) => substituteHttp(t, ctx, tag.line),
      line: tag.line,
      interactive: this.interactive,
      ...(signal ? { signal } : {}),
      ...(this.notify ? { notify: this.notify } : {}),
      ...(this.openUrl ? { openUrl: this.openUrl } : {}),
    });
    for (const x of got.secrets) this.secrets.add(x);
    return { token: got.token, secrets: got.secrets, warnings: got.warning ? [got.warning] : [] };
  }
}

/**
 * `ctx` with the tokens `node` needs (`authTokens`), and what must be masked.
 * @param extra.connect how the token requests connect ({@link TokenConnect}); default Node's fetch.
 * @returns `ctx` itself when the request needs none; `secrets`: the client secrets, passwords
 *   and tokens involved; `warnings`: a token file that could not be written.
 * @throws EngineError `unknown-auth`, `bad-auth-config`, `token-request-failed`, `cancelled`,
 *   `unknown-variable` (a `{{...}}` in a configuration value), each at the request's line.
 */
export async function withAuthTokens(sheet: Sheet, node: RequestNode, ctx: HttpVarContext, store: TokenStore, file: string | undefined, extra: Pick<TokenOptions, 'signal' | 'interactive' | 'notify' | 'openUrl'> & { connect?: TokenConnect } = {}): Promise<{ ctx: HttpVarContext; secrets: string[]; warnings: string[] }> {
  // File variables are file-wide; the last declaration wins (as resolve-http.ts reads them).
  const fileVars = new Map(ctx.fileVars ?? []);
  for (const v of sheet.vars) fileVars.set(v.name, v.value);
  const c: HttpVarContext = Object.assign({}, ctx, { fileVars });
  const refs = authReferences(templatesOf(node), c);
  // The line as resolve-http.ts will read it (after the pass); a value the pass cannot make
  // yet (a `{{$auth.token}}`) is no `oauth2` line, and its own error comes at resolve time.
  const valueOf = (v: string, line: number) => {
    try {
      return v.includes('{{') && !v.includes('$auth.') ? substituteHttp(v, c, line) : v;
    } catch {
      return v;
    }
  };
  const httpyac = node.headers.flatMap((h) => (h.kind === 'header' && /^authorization$/i.test(h.name) ? [httpyacOAuth2(valueOf(h.value, h.line))].filter((o) => o !== undefined) : []));
  if (!refs.length && !httpyac.length) return { ctx, secrets: [], warnings: [] };
  const env = ctx.authEnvironment ?? { auth: {}, files: [] };
  const tokens = new Map<string, { token: string; idToken?: string }>();
  const secrets: string[] = [];
  const warnings: string[] = [];
  const { connect, ...rest } = extra;
  // The token requests connect as the request will: its directives, substituted by the same pass.
  const fetch: FetchLike | undefined = connect && ((url, init) => connect(substitutedDirectives(node.directives, (t, line) => substituteHttp(t, c, line), (t) => httpReferences(t).map((n) => `{{${n}}}`)))(url, init));
  const o: TokenOptions = { ...rest, ...(fetch ? { fetch } : {}), sub: (t: string) => substituteHttp(t, c, node.line), line: node.line };
  const keep = (key: string, got: AuthTokens) => {
    tokens.set(key, got);
    secrets.push(...got.secrets);
    if (got.warning) warnings.push(got.warning);
  };
  for (const id of new Set(refs.map((r) => r.id))) keep(id, await store.tokens(id, env, o));
  for (const h of httpyac) keep(h.key, await store.tokensOf(httpyacConfig(h, c, file, env.environment, node.line), o));
  return { ctx: { ...ctx, authTokens: tokens }, secrets, warnings };
}

/**
 * httpyac's `Authorization: oauth2 [flow] [prefix]`: its configuration from the request's
 * variables (`{prefix}_tokenEndpoint`, ...; names in any case, as httpyac's `getVariableRaw`),
 * kept under the `.http` file.
 */
function httpyacConfig(h: HttpyacOAuth2, c: HttpVarContext, file: string | undefined, environment: string | undefined, line: number): CheckedConfig {
  const envFile = path.resolve(file ?? 'untitled.http');
  const origin = { id: `oauth2 ${h.flow} ${h.prefix}`, files: [envFile], ...(environment ? { environment } : {}), line };
  const names = [...(c.prompts?.keys() ?? []), ...(c.overrides?.keys() ?? []), ...(c.globals?.keys() ?? []), ...(c.fileVars?.keys() ?? []), ...Object.keys(c.env ?? {})];
  const get = (name: string): string | undefined => {
    const found = names.find((n) => n === name) ?? names.find((n) => n.toLowerCase() === name.toLowerCase());
    if (found === undefined) return undefined;
    const v = substituteHttp(`{{${found}}}`, c, line).trim();
    return v === '' ? undefined : v;
  };
  const config = readHttpyacConfig(h.flow, h.prefix, get, origin);
  return { config, origin, key: cacheKey(envFile, environment, h.key, config), envFile };
}

/**
 * The tokens `texts` name with `{{$auth.token("id")}}` / `{{$auth.idToken("id")}}` (also
 * through the variables they refer to), obtained through `store`, added to `ctx`: for callers
 * that substitute text rather than a request, as the shell verbs do after `rest --env`
 * (shell-verbs/env.ts). Nobody signs in there: an Authorization Code or Device grant without
 * a kept token is refused, naming `sheet auth login`.
 * @throws EngineError as {@link withAuthTokens}.
 */
export async function withTextTokens(texts: string[], ctx: HttpVarContext, store: TokenStore, signal?: AbortSignal): Promise<HttpVarContext> {
  const refs = authReferences(texts, ctx);
  if (!refs.length) return ctx;
  const env = ctx.authEnvironment ?? { auth: {}, files: [] };
  const tokens = new Map<string, { token: string; idToken?: string }>();
  for (const id of new Set(refs.map((r) => r.id))) tokens.set(id, await store.tokens(id, env, { sub: (t) => substituteHttp(t, ctx), ...(signal ? { signal } : {}) }));
  return { ...ctx, authTokens: tokens };
}
