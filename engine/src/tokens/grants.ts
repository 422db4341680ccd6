/**
 * One token request at an OAuth2 token endpoint (RFC 6749 sections 4.3 Password, 4.4 Client
 * Credentials, 6 Refresh) through `oauth4webapi` (the request, client authentication, and the
 * checks of the answer are the library's). What it sends:
 * - `Client Credentials` `basic`: `Authorization: Basic base64(id:secret)` (RFC 6749 2.3.1,
 *   the form-urlencoded id and secret); `in body`: `client_id` and `client_secret` in the form;
 *   `none`: `client_id` in the form.
 * - `scope` when the configuration has one, and the `Custom Request Parameters` meant for the
 *   token request.
 * The token endpoint is reached with the caller's `fetch` (the session's: its proxy, CA file,
 * `-k` and client certificate, ../http/fetch.ts; docs/networks.md, "OAuth2 token requests"),
 * else Node's. Plain `http://` token URLs are allowed, as JetBrains allows them (local
 * identity providers).
 */
import * as oauth from 'oauth4webapi';
import { EngineError } from '../errors.js';
import { describeOrigin, secretsOf, type AuthOrigin, type OAuth2Config } from './config.js';
import { maskSecrets } from '../mask.js';
import type { AuthorizationResult } from './auth-code.js';
import { transportError, type FetchLike } from '../http/send.js';

/** How token requests connect: a `fetch` (`fetch`) in place of Node's, for oauth4webapi's `customFetch`. */
export function fetchOption(fetch: FetchLike | undefined): { [oauth.customFetch]?: FetchLike } {
  return fetch ? { [oauth.customFetch]: fetch } : {};
}

/** What a token endpoint gave. */
export interface TokenSet {
  accessToken: string;
  tokenType: string;
  idToken?: string;
  refreshToken?: string;
  /** When the access token expires, ms since the epoch; undefined when the answer had no `expires_in`. */
  expiresAt?: number;
  scope?: string;
}

/** The time a token request may take, in ms. */
export const TOKEN_TIMEOUT_MS = 30_000;

/** The client authentication oauth4webapi applies: `basic`, `in body` or `none`. */
export function clientAuth(c: OAuth2Config): oauth.ClientAuth {
  if (c.clientAuthentication === 'basic') return oauth.ClientSecretBasic(c.clientSecret!);
  if (c.clientAuthentication === 'in body') return oauth.ClientSecretPost(c.clientSecret!);
  return oauth.None();
}

/** The ID token's `iss`, read without checking it (see {@link requestToken}). */
function issuerOf(idToken: unknown): string | undefined {
  if (typeof idToken !== 'string') return undefined;
  try {
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof claims.iss === 'string' ? claims.iss : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Ask `c.tokenUrl` for a token: the configuration's grant, `grant_type=refresh_token` when
 * `refreshToken` is given, `authorization_code` with the code (and PKCE verifier) of
 * `authorization` (auth-code.ts).
 * The ID token is not verified (JetBrains does not either; the TLS connection to the token
 * endpoint vouches for it, OpenID Connect Core 3.1.3.7 item 6): its own `iss` is taken as the
 * issuer for oauth4webapi's claim checks (`aud` must name the Client ID, `exp`, `iat`).
 * @param now the clock, ms since the epoch.
 * @param fetch how to connect (../http/fetch.ts `fetchWith`); default Node's fetch.
 * @throws EngineError `bad-proxy`, `bad-ca-file`, `bad-client-cert` from `fetch`, before anything is sent;
 *   `token-request-failed` (details.reason: `unreachable`, `refused` with
 *   the endpoint's `error` and `error_description`, `bad-answer` for an answer that is not a
 *   token: no `access_token`, not JSON, an unknown `token_type`), `cancelled` when `signal` aborts.
 */
export async function requestToken(c: OAuth2Config, origin: AuthOrigin, opts: { refreshToken?: string; authorization?: AuthorizationResult; signal?: AbortSignal; now?: () => number; timeoutMs?: number; fetch?: FetchLike } = {}): Promise<TokenSet> {
  const as: oauth.AuthorizationServer = { issuer: new URL(c.tokenUrl).origin, token_endpoint: c.tokenUrl };
  const client: oauth.Client = { client_id: c.clientId };
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? TOKEN_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const options = { signal, ...fetchOption(opts.fetch), ...(c.tokenUrl.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {}) };
  const params = new URLSearchParams();
  if (c.scope) params.set('scope', c.scope);
  for (const [k, v] of c.tokenParameters) params.append(k, v);
  const what = opts.refreshToken ? 'refresh_token' : opts.authorization ? 'authorization_code' : c.grant === 'Password' ? 'password' : 'client_credentials';
  let response: Response;
  try {
    if (opts.refreshToken) response = await oauth.refreshTokenGrantRequest(as, client, clientAuth(c), opts.refreshToken, { ...options, additionalParameters: params });
    else if (opts.authorization) {
      const a = opts.authorization;
      params.delete('scope'); // the scope was granted at the authorization request (RFC 6749 4.1.3)
      response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth(c), a.callback, a.redirectUri, a.verifier ?? oauth.nopkce, { ...options, additionalParameters: params });
    }
    else if (c.grant === 'Password') {
      params.set('username', c.username!);
      params.set('password', c.password!);
      response = await oauth.genericTokenEndpointRequest(as, client, clientAuth(c), 'password', params, options);
    } else response = await oauth.clientCredentialsGrantRequest(as, client, clientAuth(c), params, options);
  } catch (e) {
    if (e instanceof EngineError) throw new EngineError(e.code, `${describeOrigin(origin)}: ${e.message}`, { line: e.line ?? origin.line, hint: e.hint, details: e.details, cause: e });
    if (opts.signal?.aborted) throw new EngineError('cancelled', 'the token request was cancelled', { line: origin.line });
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    // A certificate the token endpoint's TLS could not be verified with: said and hinted as for any request (../http/transport-error.ts).
    const tlsError = cause && !timeout.aborted ? transportError(cause, c.tokenUrl, { timedOut: false, cancelled: false }) : undefined;
    const tls = tlsError?.code === 'tls-error' ? tlsError : undefined;
    const why = timeout.aborted ? `no answer within ${(opts.timeoutMs ?? TOKEN_TIMEOUT_MS) / 1000} s` : tls ? tls.message.slice(c.tokenUrl.length + 2) : (cause?.code ?? cause?.message ?? (e as Error).message);
    throw failed(origin, c, 'unreachable', `cannot reach the token endpoint ${c.tokenUrl} (${why})`, tls ? `${tls.hint} In a request: # @cacert FILE or # @insecure.` : 'Is the identity provider running, and is Token URL right?');
  }
  try {
    const peek = (await response.clone().json().catch(() => undefined)) as { id_token?: unknown } | undefined;
    const issuer = issuerOf(peek?.id_token);
    const r = await oauth.processGenericTokenEndpointResponse(issuer ? { ...as, issuer } : as, client, response);
    return tokenSetOf(r, (opts.now ?? Date.now)());
  } catch (e) {
    if (e instanceof oauth.ResponseBodyError) {
      const desc = e.error_description ? `: ${e.error_description}` : '';
      throw failed(origin, c, 'refused', `the token endpoint answered ${e.status} ${e.error}${desc} (grant ${what})`, hintFor(e.error), { error: e.error, ...(e.error_description ? { errorDescription: e.error_description } : {}), status: e.status }, opts.refreshToken ? [opts.refreshToken] : []);
    }
    if (e instanceof oauth.WWWAuthenticateChallengeError) {
      throw failed(origin, c, 'refused', `the token endpoint answered ${e.status} with a WWW-Authenticate challenge (grant ${what})`, 'Check Client ID, Client Secret and Client Credentials (basic, in body, none).', { status: e.status });
    }
    const status = response.status;
    const message = /access_token/.test((e as Error).message) ? 'has no access_token' : status >= 400 ? `is HTTP ${status}, not an OAuth2 error` : `is not a token (${(e as Error).message})`;
    throw failed(origin, c, 'bad-answer', `the token endpoint's answer ${message} (grant ${what})`, 'Check Token URL: it must be the token endpoint, which answers a JSON object with access_token.', { status });
  }
}

/** A token endpoint's answer (checked by oauth4webapi) as a {@link TokenSet}, `now` in ms since the epoch. */
export function tokenSetOf(r: oauth.TokenEndpointResponse, now: number): TokenSet {
  return {
    accessToken: r.access_token,
    tokenType: r.token_type,
    ...(r.id_token ? { idToken: r.id_token } : {}),
    ...(r.refresh_token ? { refreshToken: r.refresh_token } : {}),
    ...(r.expires_in !== undefined ? { expiresAt: now + r.expires_in * 1000 } : {}),
    ...(r.scope ? { scope: r.scope } : {}),
  };
}

function hintFor(error: string): string {
  if (error === 'invalid_client' || error === 'unauthorized_client') return 'Check Client ID, Client Secret and Client Credentials (basic, in body, none).';
  if (error === 'invalid_grant') return 'Check Username and Password (Password grant), or log in again: sheet auth logout ID.';
  if (error === 'invalid_scope') return 'Check Scope.';
  return 'See the identity provider\'s error above; fix the auth configuration in the environment file.';
}

/**
 * The `token-request-failed` error; the client secret and password masked in all of it (an
 * identity provider's `error_description` may echo them, as it may a refresh token: `more`).
 */
function failed(origin: AuthOrigin, c: OAuth2Config, reason: string, what: string, hint: string, extra: Record<string, unknown> = {}, more: string[] = []): EngineError {
  const secrets = [...secretsOf(c), ...more];
  const m = maskSecrets({ message: `${describeOrigin(origin)}: ${what}; the request was not sent`, hint, details: { auth: origin.id, reason, tokenUrl: c.tokenUrl, ...extra } }, secrets);
  return new EngineError('token-request-failed', m.message, { line: origin.line, hint: m.hint, details: m.details });
}
