/**
 * The session's token step for `.http` requests (docs/http-files.md, "Authentication"):
 * before the `{{...}}` pass, every `{{$auth.token("id")}}` / `{{$auth.idToken("id")}}` the
 * request needs (resolve/http-vars.ts `authReferences`) is obtained through the session's
 * {@link TokenStore} (engine/src/tokens/: cache, refresh, grant) and put in the context. A
 * failure is the request's error, with its line, and nothing is sent to the API.
 */
import type { RequestNode, Sheet } from '../sheet/ast.js';
import { authReferences, substituteHttp, type HttpVarContext } from '../resolve/http-vars.js';
import type { TokenStore } from '../tokens/store.js';

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

/**
 * `ctx` with the tokens `node` needs (`authTokens`), and what must be masked.
 * @returns `ctx` itself when the request needs none; `secrets`: the client secrets, passwords
 *   and tokens involved; `warnings`: a token file that could not be written.
 * @throws EngineError `unknown-auth`, `bad-auth-config`, `token-request-failed`, `cancelled`,
 *   `unknown-variable` (a `{{...}}` in a configuration value), each at the request's line.
 */
export async function withAuthTokens(sheet: Sheet, node: RequestNode, ctx: HttpVarContext, store: TokenStore, signal?: AbortSignal): Promise<{ ctx: HttpVarContext; secrets: string[]; warnings: string[] }> {
  // File variables are file-wide; the last declaration wins (as resolve-http.ts reads them).
  const fileVars = new Map(ctx.fileVars ?? []);
  for (const v of sheet.vars) fileVars.set(v.name, v.value);
  const c: HttpVarContext = { ...ctx, fileVars };
  const refs = authReferences(templatesOf(node), c);
  if (!refs.length) return { ctx, secrets: [], warnings: [] };
  const env = ctx.authEnvironment ?? { auth: {}, files: [] };
  const tokens = new Map<string, { token: string; idToken?: string }>();
  const secrets: string[] = [];
  const warnings: string[] = [];
  for (const id of new Set(refs.map((r) => r.id))) {
    const got = await store.tokens(id, env, { sub: (t) => substituteHttp(t, c, node.line), line: node.line, ...(signal ? { signal } : {}) });
    tokens.set(id, got);
    secrets.push(...got.secrets);
    if (got.warning) warnings.push(got.warning);
  }
  return { ctx: { ...ctx, authTokens: tokens }, secrets, warnings };
}
