/**
 * The tokens kept for an environment's auth configurations, shown, asked for and forgotten
 * (issue 39 item 4): one home for `sheet auth list|login|logout` (sheet-command/auth-cli.ts)
 * and sheet-mode's `M-x sheet-auth-list|login|logout` (`sheet/authList`, `sheet/authLogin`,
 * `sheet/authLogout`, emacs/server.ts). Never returns a token or a secret.
 *
 * The target is a `.http` file (its `@name` variables may appear in the configuration; logout
 * also forgets the tokens of its httpyac `Authorization: oauth2 ...` lines, ids
 * `oauth2 FLOW PREFIX`) or a directory; the environment files are found above it, as for
 * `sheet run` (docs/http-files.md, "Authentication").
 */
import fs from 'node:fs';
import path from 'node:path';
import { isEngineError } from '../errors.js';
import { httpContext, newHttpState } from './http-file.js';
import { substituteHttp, type HttpVarContext } from '../resolve/http-vars.js';
import { parseForFile } from '../http-file/index.js';
import { TokenStore, configOf, isFresh, type AuthEnvironment, type TokenOptions } from '../tokens/store.js';
import { listTokens, tokenDir } from '../tokens/cache.js';

/** An environment's auth configurations and a `{{...}}` pass for their values. */
export interface AuthTarget {
  auth: AuthEnvironment;
  sub: (t: string) => string;
  /** The `.http` file, when the target is one. */
  file?: string;
}

/**
 * The auth configurations of environment `env` for `target` (a `.http` file or a directory).
 * @throws EngineError as `httpContext` does (an unreadable or invalid environment file).
 */
export function authTarget(target: string, env: string | undefined): AuthTarget {
  const isDir = fs.existsSync(target) && fs.statSync(target).isDirectory();
  const file = isDir ? path.join(target, 'untitled.http') : target;
  const ctx = httpContext(undefined, file, env, new Map(), newHttpState());
  const fileVars = new Map<string, string>();
  if (!isDir && fs.existsSync(file)) for (const v of parseForFile(fs.readFileSync(file, 'utf8'), file).vars) fileVars.set(v.name, v.value);
  const c: HttpVarContext = { ...ctx, fileVars };
  const a = ctx.authEnvironment!;
  return {
    auth: { auth: a.auth as AuthEnvironment['auth'], files: a.files, ...(a.environment ? { environment: a.environment } : {}) },
    sub: (t) => substituteHttp(t, c),
    ...(!isDir && fs.existsSync(file) && fs.statSync(file).isFile() ? { file } : {}),
  };
}

/** "environment dev", or what to do when none is chosen. */
export function authWhere(t: AuthTarget): string {
  return t.auth.environment ? `environment ${t.auth.environment}` : 'no environment (--env NAME)';
}

/** "in 59 min", "2 min ago". */
function when(ms: number): string {
  const min = Math.round(Math.abs(ms) / 60000);
  const s = min >= 1 ? `${min} min` : `${Math.round(Math.abs(ms) / 1000)} s`;
  return ms >= 0 ? `in ${s}` : `${s} ago`;
}

/** One auth configuration in a list: its id, its grant (`Mock`, `invalid`) and its token's state, in words. */
export interface AuthEntry {
  id: string;
  grant: string;
  state: string;
}

/**
 * Each auth id of `t`, sorted, with its grant and its token's state (`token valid, expires in
 * 59 min`, `token expired (refresh token kept)`, `no token`, `mock token`; an invalid
 * configuration: its error message).
 */
export function authList(t: AuthTarget, now = Date.now()): AuthEntry[] {
  const tokens = listTokens(tokenDir());
  return Object.keys(t.auth.auth).sort().map((id) => {
    try {
      const { config, key } = configOf(id, t.auth, { sub: t.sub });
      const token = tokens.find((x) => x.key === key)?.token;
      let state = 'no token';
      if (config.type === 'Mock') state = 'mock token';
      else if (token) state = isFresh(token, now) ? `token valid, expires ${token.expiresAt !== undefined ? when(token.expiresAt - now) : 'unknown'}` : `token expired${token.refreshToken ? ' (refresh token kept)' : ''}`;
      return { id, grant: config.type === 'Mock' ? 'Mock' : config.grant, state };
    } catch (e) {
      return { id, grant: 'invalid', state: isEngineError(e) ? e.message : String(e) };
    }
  });
}

/**
 * Ask for a new token for `id` now, even when one is kept (`sheet auth login`).
 * @param o how a person signs in (`interactive`, `notify`, `openUrl`) and `signal` to cancel.
 * @returns a warning when the token could not be kept on disk.
 * @throws EngineError `unknown-auth`, `bad-auth-config`, `token-request-failed`, `cancelled`.
 */
export async function authLogin(store: TokenStore, t: AuthTarget, id: string, o: Pick<TokenOptions, 'interactive' | 'notify' | 'openUrl' | 'signal'>): Promise<{ warning?: string }> {
  const got = await store.tokens(id, t.auth, { sub: t.sub, fresh: true, ...o });
  return got.warning ? { warning: got.warning } : {};
}

/**
 * Forget the tokens of `id` (or of every id of the environment), in `store`'s memory and on disk.
 * @returns the ids whose token was removed.
 * @throws EngineError `unknown-auth` for an id the environment does not configure.
 */
export function authLogout(store: TokenStore, t: AuthTarget, id: string | undefined): string[] {
  // httpyac's `oauth2 FLOW PREFIX` ids are known by their file, not by the environment.
  if (id !== undefined && !(t.file && id.startsWith('oauth2 '))) configOf(id, t.auth, { sub: t.sub });
  return store.logout(t.auth, id, { files: t.file ? [t.file] : [] });
}
