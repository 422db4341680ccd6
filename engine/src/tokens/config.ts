/**
 * A JetBrains `Security.Auth` entry (http-file/env-auth.ts: the keys as written, merged from
 * the public and private environment files) -> a checked {@link AuthConfig}. The keys are
 * JetBrains' ("OAuth 2.0 authorization" in its HTTP Client help; kulala.nvim reads the same):
 * `Type` (`OAuth2`, `Mock`), `Grant Type`, `Token URL`, `Client ID`, `Client Secret`,
 * `Client Credentials` (`basic`, `in body`, `none`), `Scope`, `Username`, `Password`,
 * `Custom Request Parameters`, `Use ID Token`, `Auth URL`, `Redirect URL`, `PKCE`,
 * `Device Auth URL`; `Token` and `ID Token` for `Mock`. Keys match
 * in any case. Values may hold `{{...}}` (the caller's `sub` substitutes them, the same pass
 * as a header value).
 */
import { EngineError } from '../errors.js';

/** Where a configuration comes from, for messages and the cache key. */
export interface AuthOrigin {
  /** The auth id (`{{$auth.token("id")}}`). */
  id: string;
  /** The environment files that declare it. */
  files: string[];
  /** The chosen environment, undefined for `$shared` only. */
  environment?: string;
  /** The line of the request that needs it. */
  line?: number;
}

/** How the client authenticates at the token endpoint (RFC 6749 section 2.3.1). */
export type ClientAuthentication = 'basic' | 'in body' | 'none';

export interface OAuth2Config {
  type: 'OAuth2';
  /** The grant as JetBrains names it. */
  grant: 'Client Credentials' | 'Password' | 'Authorization Code' | 'Device Authorization';
  tokenUrl: string;
  clientId: string;
  clientSecret?: string;
  clientAuthentication: ClientAuthentication;
  scope?: string;
  username?: string;
  password?: string;
  /** `Custom Request Parameters` used in the token request (`Use`: `Everywhere` or `In Token Request`); a list repeats the parameter. */
  tokenParameters: [string, string][];
  /** Authorization Code: `Auth URL`, `Redirect URL` (default `http://127.0.0.1/callback`, a free port). */
  authUrl?: string;
  redirectUrl?: string;
  /** Authorization Code: PKCE's method (`PKCE`: default S256; `false`: none) and a fixed verifier. */
  pkce?: 'S256' | 'plain';
  verifier?: string;
  /** Device Authorization (RFC 8628): `Device Auth URL`. */
  deviceAuthUrl?: string;
  /** Authorization Code, Device Authorization: the `Custom Request Parameters` of the authorization request (`Everywhere`, `In Auth Request`). */
  authParameters?: [string, string][];
  /** `Use ID Token`: `{{$auth.token}}` gives the ID token. */
  useIdToken: boolean;
}

export interface MockConfig {
  type: 'Mock';
  token: string;
  idToken?: string;
}

export type AuthConfig = OAuth2Config | MockConfig;

/** The values of a configuration a message must never show (masked in `-v`, reports, errors). */
export function secretsOf(c: AuthConfig): string[] {
  return (c.type === 'Mock' ? [c.token, c.idToken] : [c.clientSecret, c.password]).filter((s): s is string => !!s);
}

/** `auth "id" (http-client.env.json, environment dev)`: where a configuration is, for messages. */
export function describeOrigin(o: AuthOrigin): string {
  const files = o.files.map((f) => f.split(/[\\/]/).pop()).join(' + ');
  return `auth ${JSON.stringify(o.id)} (${files || 'no environment file'}${o.environment ? `, environment ${o.environment}` : ''})`;
}

function bad(o: AuthOrigin, what: string, hint: string): EngineError {
  return new EngineError('bad-auth-config', `${describeOrigin(o)}: ${what}`, { line: o.line, hint, details: { auth: o.id, files: o.files, ...(o.environment ? { environment: o.environment } : {}) } });
}

const GRANTS: Record<string, OAuth2Config['grant'] | 'implicit'> = {
  'client credentials': 'Client Credentials',
  password: 'Password',
  'authorization code': 'Authorization Code',
  'device authorization': 'Device Authorization',
  implicit: 'implicit',
};

/**
 * Check and read `raw` (the merged `Security.Auth` entry of `origin.id`).
 * @param sub substitutes `{{...}}` in a value (the caller's `.http` pass).
 * @throws EngineError `bad-auth-config` naming the key as JetBrains writes it (`Token URL is
 *   required for Client Credentials`), an unknown `Type` or `Grant Type`, Implicit (dropped
 *   by OAuth 2.1); `unknown-variable` from `sub`.
 */
export function readAuthConfig(raw: Record<string, unknown>, origin: AuthOrigin, sub: (text: string) => string): AuthConfig {
  const keys = new Map(Object.keys(raw).map((k) => [k.toLowerCase(), k]));
  const value = (key: string): unknown => {
    const k = keys.get(key.toLowerCase());
    return k === undefined ? undefined : raw[k];
  };
  const text = (key: string): string | undefined => {
    const v = value(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'object') throw bad(origin, `${key} must be a text, not ${JSON.stringify(v)}`, `Write "${key}": "..." in the environment file.`);
    const s = sub(String(v)).trim();
    return s === '' ? undefined : s;
  };
  const type = text('Type');
  if (type?.toLowerCase() === 'mock') {
    const token = text('Token');
    if (!token) throw bad(origin, 'Token is required for Type Mock', 'Add "Token": "..." (and "ID Token" for {{$auth.idToken}}).');
    const idToken = text('ID Token');
    return { type: 'Mock', token, ...(idToken ? { idToken } : {}) };
  }
  if (type === undefined || type.toLowerCase() !== 'oauth2') {
    throw bad(origin, type === undefined ? 'Type is required' : `Type ${JSON.stringify(type)} is not known`, 'Write "Type": "OAuth2" (or "Mock" with "Token").');
  }
  const grantText = text('Grant Type');
  if (!grantText) throw bad(origin, 'Grant Type is required for Type OAuth2', 'Write "Grant Type": "Client Credentials" or "Password".');
  const grant = GRANTS[grantText.toLowerCase()];
  if (grant === undefined) throw bad(origin, `Grant Type ${JSON.stringify(grantText)} is not known`, 'Use one of: Client Credentials, Password, Authorization Code, Device Authorization.');
  if (grant === 'implicit') throw bad(origin, 'Grant Type Implicit is not supported: OAuth 2.1 drops it (tokens in URLs leak)', 'Use "Authorization Code" with "PKCE": true, or "Client Credentials" for a service.');
  const need = (key: string): string => {
    const v = text(key);
    if (v === undefined) throw bad(origin, `${key} is required for ${grant}`, `Add "${key}": "..." to ${origin.id} (secrets in http-client.private.env.json).`);
    return v;
  };
  const tokenUrl = need('Token URL');
  if (!/^https?:\/\/[^/]/i.test(tokenUrl)) throw bad(origin, `Token URL ${JSON.stringify(tokenUrl)} is not an http(s) URL`, 'Write the token endpoint\'s absolute URL, e.g. https://auth.example.com/oauth/token.');
  const clientId = need('Client ID');
  const clientSecret = text('Client Secret');
  const authText = text('Client Credentials');
  const clientAuthentication = clientAuthOf(authText, clientSecret, origin);
  const username = grant === 'Password' ? need('Username') : undefined;
  const password = grant === 'Password' ? need('Password') : undefined;
  const scope = text('Scope');
  const useIdToken = /^true$/i.test(String(value('Use ID Token') ?? ''));
  const params = customParameters(value('Custom Request Parameters'), origin, sub);
  const code: Partial<OAuth2Config> = grant === 'Authorization Code' ? { authUrl: need('Auth URL'), redirectUrl: text('Redirect URL') ?? 'http://127.0.0.1/callback', ...pkceOf(value('PKCE'), origin, sub), authParameters: params.auth } : {};
  if (grant === 'Device Authorization') Object.assign(code, { deviceAuthUrl: need('Device Auth URL'), authParameters: params.auth });
  for (const [key, url] of [['Auth URL', code.authUrl], ['Device Auth URL', code.deviceAuthUrl]] as const) {
    if (url !== undefined && !/^https?:\/\/[^/]/i.test(url)) throw bad(origin, `${key} ${JSON.stringify(url)} is not an http(s) URL`, 'Write the endpoint\'s absolute URL.');
  }
  return { type: 'OAuth2', grant, tokenUrl, clientId, ...(clientSecret ? { clientSecret } : {}), clientAuthentication, ...(scope ? { scope } : {}), ...(username ? { username } : {}), ...(password ? { password } : {}), tokenParameters: params.token, useIdToken, ...code };
}

/**
 * `Client Credentials`: JetBrains' default is `basic`; without a `Client Secret` and without the
 * key, `none` (a public client sends its `client_id` in the body), so a public client needs
 * no secret (kulala.nvim#679 asked a secret of it).
 */
function clientAuthOf(written: string | undefined, secret: string | undefined, origin: AuthOrigin): ClientAuthentication {
  if (written === undefined) return secret ? 'basic' : 'none';
  const w = written.toLowerCase();
  if (w !== 'basic' && w !== 'in body' && w !== 'none') throw bad(origin, `Client Credentials ${JSON.stringify(written)} is not known`, 'Write "Client Credentials": "basic", "in body" or "none".');
  if (w !== 'none' && !secret) throw bad(origin, `Client Secret is required for Client Credentials "${w}"`, 'Add "Client Secret" (in http-client.private.env.json), or write "Client Credentials": "none" for a public client.');
  return w;
}

/** `Custom Request Parameters`: `name: value`, `name: [values]`, `name: {Value, Use}`; those of the token request and of the authorization request. */
function customParameters(v: unknown, origin: AuthOrigin, sub: (text: string) => string): { token: [string, string][]; auth: [string, string][] } {
  const out = { token: [] as [string, string][], auth: [] as [string, string][] };
  if (v === undefined || v === null) return out;
  if (typeof v !== 'object' || Array.isArray(v)) throw bad(origin, 'Custom Request Parameters must be an object', 'Write "Custom Request Parameters": {"audience": "..."}.');
  for (const [name, x] of Object.entries(v as Record<string, unknown>)) {
    let values: unknown = x;
    let use = 'everywhere';
    if (typeof x === 'object' && x !== null && !Array.isArray(x)) {
      const o = x as Record<string, unknown>;
      use = String(o.Use ?? 'Everywhere').toLowerCase();
      if (!['everywhere', 'in token request', 'in auth request'].includes(use)) throw bad(origin, `Custom Request Parameters ${name}: Use ${JSON.stringify(o.Use)} is not known`, 'Write "Use": "Everywhere", "In Token Request" or "In Auth Request".');
      values = o.Value;
    }
    for (const one of Array.isArray(values) ? values : [values]) {
      if (one === undefined || one === null) continue;
      const p: [string, string] = [name, sub(String(one))];
      if (use !== 'in auth request') out.token.push(p);
      if (use !== 'in token request') out.auth.push(p);
    }
  }
  return out;
}

/** `PKCE`: absent or `true` -> S256 (RFC 7636's recommended method); `false` -> none; `{"Code Challenge Method": "SHA-256" | "Plain", "Code Verifier": ...}`. */
function pkceOf(v: unknown, origin: AuthOrigin, sub: (text: string) => string): { pkce?: 'S256' | 'plain'; verifier?: string } {
  if (v === undefined || v === null || v === true || /^true$/i.test(String(v))) return { pkce: 'S256' };
  if (v === false || /^false$/i.test(String(v))) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw bad(origin, `PKCE ${JSON.stringify(v)} is not known`, 'Write "PKCE": true, false, or {"Code Challenge Method": "SHA-256", "Code Verifier": "..."}.');
  const o = v as Record<string, unknown>;
  const method = String(o['Code Challenge Method'] ?? 'SHA-256').toLowerCase();
  if (method !== 'sha-256' && method !== 's256' && method !== 'plain') throw bad(origin, `PKCE Code Challenge Method ${JSON.stringify(o['Code Challenge Method'])} is not known`, 'Write "SHA-256" or "Plain".');
  const verifier = o['Code Verifier'] === undefined ? undefined : sub(String(o['Code Verifier']));
  return { pkce: method === 'plain' ? 'plain' : 'S256', ...(verifier ? { verifier } : {}) };
}

/** httpyac's flows (`Authorization: oauth2 FLOW`) as the grants above. */
const HTTPYAC_FLOWS: Record<string, OAuth2Config['grant'] | 'interactive' | 'implicit'> = {
  client: 'Client Credentials',
  client_credentials: 'Client Credentials',
  password: 'Password',
  code: 'interactive',
  authorization_code: 'interactive',
  device: 'interactive',
  device_code: 'interactive',
  implicit: 'implicit',
  hybrid: 'implicit',
};

/**
 * httpyac's `Authorization: oauth2 [flow] [prefix]` (its `getOpenIdConfiguration`,
 * src/plugins/oauth2/openIdConfiguration.ts) -> the same {@link OAuth2Config}: the variables
 * `{prefix}_tokenEndpoint`, `_clientId`, `_clientSecret`, `_scope`, `_username`, `_password`,
 * `_audience`, `_resource`, `_useAuthorizationHeader` (default true: Basic when there are a
 * client id and a secret, else `client_secret` in the body).
 * @param get the value of a variable by name (any case), substituted, or undefined.
 * @throws EngineError `bad-auth-config`: `oauth2_tokenEndpoint is required for
 *   client_credentials` (named as httpyac's own "missing configuration" message names it),
 *   an interactive or implicit flow.
 */
export function readHttpyacConfig(flow: string, prefix: string, get: (name: string) => string | undefined, origin: AuthOrigin): OAuth2Config {
  const grant = HTTPYAC_FLOWS[flow];
  if (grant === 'implicit' || grant === undefined) throw bad(origin, `flow ${flow} is not supported: OAuth 2.1 drops the implicit grant`, 'Use client_credentials, password, or authorization_code when it is supported.');
  if (grant === 'interactive') throw bad(origin, `flow ${flow} (a browser sign-in) is not supported yet`, 'Use client_credentials or password, or paste a token into a variable for now.');
  const v = (suffix: string) => get(`${prefix}_${suffix}`);
  const need = (suffix: string): string => {
    const x = v(suffix);
    if (x === undefined) throw bad(origin, `${prefix}_${suffix} is required for ${flow}`, `Declare it: @${prefix}_${suffix} = ... (or in the environment).`);
    return x;
  };
  const tokenUrl = need('tokenEndpoint');
  if (!/^https?:\/\/[^/]/i.test(tokenUrl)) throw bad(origin, `${prefix}_tokenEndpoint ${JSON.stringify(tokenUrl)} is not an http(s) URL`, 'Write the token endpoint\'s absolute URL.');
  const clientId = need('clientId');
  const clientSecret = v('clientSecret');
  const header = !/^false$/i.test(v('useAuthorizationHeader') ?? 'true');
  const clientAuthentication: ClientAuthentication = !clientSecret ? 'none' : header ? 'basic' : 'in body';
  const username = grant === 'Password' ? need('username') : undefined;
  const password = grant === 'Password' ? need('password') : undefined;
  const scope = v('scope');
  const tokenParameters: [string, string][] = [];
  for (const k of ['audience', 'resource']) {
    const x = v(k);
    if (x !== undefined) tokenParameters.push([k, x]);
  }
  return { type: 'OAuth2', grant, tokenUrl, clientId, ...(clientSecret ? { clientSecret } : {}), clientAuthentication, ...(scope ? { scope } : {}), ...(username ? { username } : {}), ...(password ? { password } : {}), tokenParameters, useIdToken: false };
}
