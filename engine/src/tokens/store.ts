/**
 * The token of an auth id (`{{$auth.token("id")}}`), as cheaply as it can be had: from this
 * process's memory, else from the token file (cache.ts), else refreshed with the cached
 * refresh token, else by the configuration's grant (grants.ts). A failed refresh falls back to
 * the full grant once. Concurrent requests for one configuration share one token request.
 * `Type: Mock` gives its `Token` / `ID Token` without any request (JetBrains' mock auth).
 */
import { EngineError } from '../errors.js';
import type { EnvAuth } from '../http-file/env-auth.js';
import { cacheKey, listTokens, readToken, removeToken, tokenDir, writeToken, type CachedToken } from './cache.js';
import { describeOrigin, readAuthConfig, secretsOf, type AuthConfig, type AuthOrigin } from './config.js';
import { requestToken, type TokenSet } from './grants.js';
import { signIn } from './auth-code.js';
import { deviceFlow } from './device.js';
import { fetchWith, type FetchLike } from '../http/send.js';

/** A token is taken as expired this long before its `expires_in` says (clock skew, time in flight), ms. */
export const EXPIRY_SKEW_MS = 30_000;
/** How long a token whose answer had no `expires_in` is reused, ms (then a new one is asked for). */
export const NO_EXPIRY_REUSE_MS = 300_000;

/** The auth configurations of a loaded environment (http-file/environment.ts `auth`). */
export interface AuthEnvironment {
  auth: Record<string, EnvAuth>;
  /** The chosen environment's name. */
  environment?: string;
  /** The environment files read (for the message of an unknown id). */
  files: string[];
}

export interface TokenOptions {
  /** Substitutes `{{...}}` in a configuration value (the request's `.http` pass). */
  sub: (text: string) => string;
  /** The line of the request that needs the token, for errors. */
  line?: number;
  signal?: AbortSignal;
  /** The clock, ms since the epoch. */
  now?: () => number;
  /**
   * How the token and device requests connect (../http/fetch.ts `fetchWith` of the session's
   * settings and the request's directives); default `fetchWith({})`: curl's rules on this
   * process's environment (`http_proxy`, `NO_PROXY`, `CURL_CA_BUNDLE`, ...), for `sheet auth
   * login` and the shell verbs.
   */
  fetch?: FetchLike;
  /** The token files' directory (default cache.ts `tokenDir()`). */
  dir?: string;
  /** Ask for a new token even when one is cached (`sheet auth login`). */
  fresh?: boolean;
  /**
   * A person is there to sign in in a browser (Authorization Code): sheet-mode, `sheet run` and
   * `sheet auth login` on a terminal. Never under `CI` (set and not `false`).
   */
  interactive?: boolean;
  /** Shows the user a line (the sign-in URL when no browser could be started). */
  notify?: (line: string) => void;
  /** Opens the sign-in URL in the front end's own browser (sheet-mode: `browse-url`) instead of `BROWSER`. */
  openUrl?: (url: string) => boolean;
  /** The sign-in's time limit, ms (auth-code.ts `SIGN_IN_TIMEOUT_MS`). */
  signInTimeoutMs?: number;
  /** The environment for `BROWSER` and `CI` (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** What `{{$auth.token(id)}}` and `{{$auth.idToken(id)}}` read, and what must be masked. */
export interface AuthTokens {
  token: string;
  idToken?: string;
  /** The configuration's secrets and the tokens: never shown (docs/http-files.md, "Authentication"). */
  secrets: string[];
  /** Why the token could not be kept on disk, when it could not (a warning). */
  warning?: string;
}

/** A checked configuration, where it comes from, its cache key and the file it is kept under. */
export interface CheckedConfig {
  config: AuthConfig;
  origin: AuthOrigin;
  key: string;
  envFile: string;
}

/** The checked configuration of `id` in `env`, its origin and cache key. */
export function configOf(id: string, env: AuthEnvironment, o: Pick<TokenOptions, 'sub' | 'line'>): CheckedConfig {
  const entry = Object.prototype.hasOwnProperty.call(env.auth, id) ? env.auth[id] : undefined;
  if (!entry) {
    const known = Object.keys(env.auth).sort();
    const where = `${env.environment ? `environment ${env.environment}` : 'no environment chosen'}${env.files.length ? `, ${env.files.map((f) => f.split(/[\\/]/).pop()).join(' + ')}` : ''}`;
    throw new EngineError('unknown-auth', `no auth configuration ${JSON.stringify(id)} (${where}); known: ${known.length ? known.join(', ') : 'none'}`, {
      line: o.line,
      hint: env.environment ? `Use one of the known ids, or add "Security": {"Auth": {"${id}": {...}}} to the environment ${env.environment} in http-client.env.json.` : 'Choose an environment (C-c C-e in Emacs, --env NAME for sheet run) whose "Security": {"Auth": {...}} declares it.',
      details: { auth: id, known, ...(env.environment ? { environment: env.environment } : {}), files: env.files },
    });
  }
  const origin: AuthOrigin = { id, files: entry.files, ...(env.environment ? { environment: env.environment } : {}), ...(o.line !== undefined ? { line: o.line } : {}) };
  const config = readAuthConfig(entry.config, origin, o.sub);
  const envFile = entry.files[0]!;
  return { config, origin, key: cacheKey(envFile, env.environment, id, config), envFile };
}

/** True while `t` may be used at `now`. */
export function isFresh(t: CachedToken, now: number): boolean {
  return t.expiresAt !== undefined ? t.expiresAt - EXPIRY_SKEW_MS > now : t.obtainedAt + NO_EXPIRY_REUSE_MS > now;
}

/**
 * The tokens of one process: a memory of the token files and the token requests in flight.
 * The session keeps one; `sheet auth` makes one per command.
 */
export class TokenStore {
  private memo = new Map<string, CachedToken>();
  private inflight = new Map<string, Promise<{ token: CachedToken; warning?: string }>>();

  /**
   * The tokens of auth id `id` of `env`.
   * @throws EngineError `unknown-auth` (the known ids and the environment in the message),
   *   `bad-auth-config` (a missing key, named as JetBrains writes it), `token-request-failed`,
   *   `cancelled`; each with `o.line`.
   */
  async tokens(id: string, env: AuthEnvironment, o: TokenOptions): Promise<AuthTokens> {
    return this.tokensOf(configOf(id, env, o), o);
  }

  /**
   * The tokens of a checked configuration (`configOf`'s, or httpyac's `oauth2` line's:
   * config.ts `readHttpyacConfig`), `key` its cache key, `envFile` the file it is kept under.
   * @throws EngineError as {@link tokens}, but for `unknown-auth`.
   */
  async tokensOf(checked: CheckedConfig, o: TokenOptions): Promise<AuthTokens> {
    const { config, origin, key, envFile } = checked;
    const secrets = secretsOf(config);
    if (config.type === 'Mock') return { token: config.token, ...(config.idToken ? { idToken: config.idToken } : {}), secrets };
    const now = o.now ?? Date.now;
    const dir = o.dir ?? tokenDir();
    let got = o.fresh ? undefined : this.memo.get(key);
    let warning: string | undefined;
    if (!got || !isFresh(got, now())) {
      let pending = this.inflight.get(key);
      if (!pending) {
        pending = this.obtain(config, origin, key, envFile, origin.environment, dir, o, got).finally(() => this.inflight.delete(key));
        this.inflight.set(key, pending);
      }
      const r = await pending;
      got = r.token;
      warning = r.warning;
    }
    const token = config.useIdToken ? got.idToken ?? got.accessToken : got.accessToken;
    return { token, ...(got.idToken ? { idToken: got.idToken } : {}), secrets: [...secrets, got.accessToken, ...(got.idToken ? [got.idToken] : []), ...(got.refreshToken ? [got.refreshToken] : [])], ...(warning ? { warning } : {}) };
  }

  private async obtain(config: Extract<AuthConfig, { type: 'OAuth2' }>, origin: AuthOrigin, key: string, envFile: string, environment: string | undefined, dir: string, o: TokenOptions, stale: CachedToken | undefined): Promise<{ token: CachedToken; warning?: string }> {
    const now = o.now ?? Date.now;
    let old = o.fresh ? undefined : stale ?? readToken(dir, key);
    if (old && isFresh(old, now())) {
      this.memo.set(key, old);
      return { token: old };
    }
    const fetch = o.fetch ?? fetchWith({});
    const opts = { ...(o.signal ? { signal: o.signal } : {}), fetch, now };
    let set: TokenSet | undefined;
    if (old?.refreshToken) {
      try {
        set = await requestToken(config, origin, { ...opts, refreshToken: old.refreshToken });
        // RFC 6749 6: the server may keep the refresh token; keep the old one then.
        if (!set.refreshToken) set = { ...set, refreshToken: old.refreshToken };
      } catch (e) {
        if ((e as EngineError).code === 'cancelled') throw e;
        old = undefined; // the full grant, once
      }
    }
    if (!set && (config.grant === 'Authorization Code' || config.grant === 'Device Authorization')) {
      const env = o.env ?? process.env;
      const ci = !!env.CI && env.CI !== 'false' && env.CI !== '0';
      const device = config.grant === 'Device Authorization';
      if (ci || !o.interactive || (device && !o.notify)) {
        const why = ci ? 'CI is set' : !o.interactive ? 'no one is there to sign in (no terminal)' : 'this front end cannot show the user code yet';
        throw new EngineError('token-request-failed', `${describeOrigin(origin)}: Grant Type ${config.grant} needs a person to sign in${device ? ' with a user code' : ' in a browser'}, and ${why}; the request was not sent`, {
          line: origin.line,
          hint: `Sign in first on a terminal: sheet auth login ${origin.id}${environment ? ` --env ${environment}` : ''} (the token is kept, and refreshed), or use Client Credentials in CI.`,
          details: { auth: origin.id, reason: 'not-interactive', files: origin.files },
        });
      }
      if (device) set = await deviceFlow(config, origin, { notify: o.notify!, ...(o.signal ? { signal: o.signal } : {}), fetch, now });
    }
    if (!set && config.grant === 'Authorization Code') {
      const env = o.env ?? process.env;
      const authorization = await signIn({ authUrl: config.authUrl!, tokenUrl: config.tokenUrl, clientId: config.clientId, redirectUrl: config.redirectUrl!, ...(config.scope ? { scope: config.scope } : {}), authParameters: config.authParameters ?? [], ...(config.pkce ? { pkce: config.pkce } : {}), ...(config.verifier ? { verifier: config.verifier } : {}) }, origin, { ...(o.signal ? { signal: o.signal } : {}), ...(o.signInTimeoutMs !== undefined ? { timeoutMs: o.signInTimeoutMs } : {}), env, ...(o.notify ? { notify: o.notify } : {}), ...(o.openUrl ? { openUrl: o.openUrl } : {}) });
      set = await requestToken(config, origin, { ...opts, authorization });
    }
    set ??= await requestToken(config, origin, opts);
    const token: CachedToken = { ...set, envFile, ...(environment ? { environment } : {}), id: origin.id, obtainedAt: now() };
    this.memo.set(key, token);
    const warning = writeToken(dir, key, token);
    return { token, ...(warning ? { warning: `${describeOrigin(origin)}: ${warning}` } : {}) };
  }

  /**
   * Forget the tokens of `env` (of `id`, or every id; with `o.files`, those kept under these
   * `.http` files too), in memory and on disk (`sheet auth logout`).
   * @returns the ids whose token was removed.
   */
  logout(env: AuthEnvironment, id: string | undefined, o: Pick<TokenOptions, 'dir'> & { files?: string[] } = {}): string[] {
    const dir = o.dir ?? tokenDir();
    // `o.files`: `.http` files whose httpyac `oauth2` lines keep tokens under them.
    const envFiles = new Set([...Object.values(env.auth).map((a) => a.files[0]), ...(o.files ?? [])]);
    const removed: string[] = [];
    for (const { key, token } of listTokens(dir)) {
      if (!envFiles.has(token.envFile) || (token.environment ?? undefined) !== env.environment || (id !== undefined && token.id !== id)) continue;
      removeToken(dir, key);
      this.memo.delete(key);
      removed.push(token.id);
    }
    return [...new Set(removed)].sort();
  }
}
