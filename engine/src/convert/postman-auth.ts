/**
 * Postman auth (collection, folder or request level; Postman's inherit rule, applied by
 * `effectiveAuth` in postman.ts: the nearest level whose type is not `inherit`, `noauth`
 * stopping the search) -> what the `.http` model sends (docs/http-files.md,
 * "Constructs" and "Authentication"):
 *
 * | Postman `type` | `.http` |
 * |---|---|
 * | `basic` | `Authorization: Basic {{user}}:{{password}}` (resolve/http-auth.ts encodes it) |
 * | `bearer` | `Authorization: Bearer TOKEN` |
 * | `apikey` (`in`: header or query) | the header `KEY: VALUE`, or `KEY=VALUE` added to the query |
 * | `digest` | `Authorization: Digest USER PASSWORD` |
 * | `awsv4` | `Authorization: AWS KEY SECRET [token:T] [region:R] [service:S]` |
 * | `oauth2` | `Authorization: Bearer {{$auth.token("ID")}}` with a `Security.Auth` entry `ID` in `$shared` |
 * | `noauth` | nothing |
 * | `oauth1`, `hawk`, `ntlm`, `edgegrid`, `akamai`, `jwt`, `asap` | nothing, and a warning |
 *
 * Secrets written literally in the collection (passwords, tokens, keys, client secrets) go to
 * http-client.private.env.json's `$shared` under a variable the request names; values that are
 * already `{{references}}` stay as written.
 */
import type { EnvFile, ImportedHeader, ImportWarning } from './model.js';
import { setEnv } from './model.js';

/** An auth as postman-collection gives it: its type and its parameters as an object. */
export interface PostmanAuth {
  type: string;
  params: Record<string, unknown>;
}

/** What a request gets from its auth. */
export interface AuthMapping {
  headers: ImportedHeader[];
  /** `[name, value]` pairs to add to the query string. */
  query: [string, string][];
}

/** State shared by every request of one import: secret variables and OAuth2 ids by value. */
export class AuthContext {
  private secretNames = new Map<string, string>();
  private usedNames = new Set<string>();
  private oauth = new Map<string, string>();

  constructor(
    readonly env: EnvFile,
    readonly privateEnv: EnvFile,
    readonly warnings: ImportWarning[],
    /** The `Security.Auth` id of the first OAuth2 configuration (then `-2`, `-3`...): named after the source format. */
    private readonly oauthBase = 'postman-oauth2',
  ) {}

  /** `value` as written when it is a `{{reference}}` or empty, else a `{{name}}` of the private file's `$shared`. */
  secret(base: string, value: string): string {
    if (!value || /^\{\{[^{}]+\}\}$/.test(value.trim())) return value;
    const key = `${base}\u0000${value}`;
    let name = this.secretNames.get(key);
    if (!name) {
      name = base;
      for (let i = 2; this.usedNames.has(name); i++) name = `${base}_${i}`;
      this.usedNames.add(name);
      this.secretNames.set(key, name);
      setEnv(this.privateEnv, '$shared', name, value);
    }
    return `{{${name}}}`;
  }

  /** The `Security.Auth` id of an OAuth2 configuration, the same id for the same configuration. */
  oauthId(config: Record<string, unknown>): string {
    const key = JSON.stringify(config);
    let id = this.oauth.get(key);
    if (!id) {
      id = this.oauth.size ? `${this.oauthBase}-${this.oauth.size + 1}` : this.oauthBase;
      this.oauth.set(key, id);
      const shared = (this.env.$shared ??= {});
      const security = (shared.Security ??= { Auth: {} }) as { Auth: Record<string, unknown> };
      security.Auth[id] = config;
    }
    return id;
  }
}

const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

const GRANTS: Record<string, string> = {
  client_credentials: 'Client Credentials',
  password_credentials: 'Password',
  authorization_code: 'Authorization Code',
  authorization_code_with_pkce: 'Authorization Code',
};

function oauth2(p: Record<string, unknown>, ctx: AuthContext, where: string): AuthMapping {
  const grant = str(p.grant_type) || 'authorization_code';
  if (!GRANTS[grant]) {
    ctx.warnings.push({ where, message: `OAuth2 grant ${grant} is not supported (implicit is refused, OAuth 2.1 drops it); the request is written without auth` });
    return { headers: [], query: [] };
  }
  const config: Record<string, unknown> = { Type: 'OAuth2', 'Grant Type': GRANTS[grant] };
  const put = (key: string, v: unknown) => {
    if (str(v)) config[key] = str(v);
  };
  put('Token URL', p.accessTokenUrl);
  put('Auth URL', p.authUrl);
  put('Redirect URL', p.redirect_uri);
  put('Client ID', p.clientId);
  if (str(p.clientSecret)) config['Client Secret'] = ctx.secret('oauth2_client_secret', str(p.clientSecret));
  put('Scope', p.scope);
  put('Username', p.username);
  if (str(p.password)) config.Password = ctx.secret('oauth2_password', str(p.password));
  if (str(p.client_authentication)) config['Client Credentials'] = p.client_authentication === 'body' ? 'in body' : 'basic';
  if (grant === 'authorization_code') config.PKCE = false;
  if (grant === 'authorization_code_with_pkce' && p.challengeAlgorithm === 'plain') config.PKCE = { 'Code Challenge Method': 'Plain' };
  const extra: Record<string, string> = {};
  for (const list of [p.tokenRequestParams, p.authRequestParams]) {
    if (Array.isArray(list)) for (const e of list as { key?: string; value?: unknown; enabled?: boolean }[]) if (e.key && e.enabled !== false) extra[e.key] = str(e.value);
  }
  if (Object.keys(extra).length) config['Custom Request Parameters'] = extra;
  if (p.addTokenTo === 'queryParams') ctx.warnings.push({ where, message: 'OAuth2 token "added to query params": it is sent in the Authorization header instead' });
  const id = ctx.oauthId(config);
  const prefix = str(p.headerPrefix) || 'Bearer';
  return { headers: [{ name: 'Authorization', value: `${prefix} {{$auth.token("${id}")}}` }], query: [] };
}

/** The headers and query parameters of `auth` at `where` (warnings and secrets through `ctx`). */
export function mapAuth(auth: PostmanAuth | undefined, ctx: AuthContext, where: string): AuthMapping {
  if (!auth || auth.type === 'noauth' || auth.type === 'inherit') return { headers: [], query: [] };
  const p = auth.params;
  switch (auth.type) {
    case 'basic':
      return { headers: [{ name: 'Authorization', value: `Basic ${str(p.username)}:${ctx.secret('basic_password', str(p.password))}` }], query: [] };
    case 'bearer':
      return { headers: [{ name: 'Authorization', value: `Bearer ${ctx.secret('bearer_token', str(p.token))}` }], query: [] };
    case 'apikey': {
      const key = str(p.key) || 'X-API-Key';
      const value = ctx.secret('api_key', str(p.value));
      return p.in === 'query' ? { headers: [], query: [[key, value]] } : { headers: [{ name: key, value }], query: [] };
    }
    case 'digest':
      if (p.algorithm && !/^MD5$/i.test(str(p.algorithm))) ctx.warnings.push({ where, message: `Digest algorithm ${str(p.algorithm)}: the engine answers the server's challenge with the algorithm the server names` });
      return { headers: [{ name: 'Authorization', value: `Digest ${str(p.username)} ${ctx.secret('digest_password', str(p.password))}` }], query: [] };
    case 'awsv4': {
      const parts = [`AWS ${str(p.accessKey)} ${ctx.secret('aws_secret_key', str(p.secretKey))}`];
      if (str(p.sessionToken)) parts.push(`token:${ctx.secret('aws_session_token', str(p.sessionToken))}`);
      if (str(p.region)) parts.push(`region:${str(p.region)}`);
      if (str(p.service)) parts.push(`service:${str(p.service)}`);
      return { headers: [{ name: 'Authorization', value: parts.join(' ') }], query: [] };
    }
    case 'oauth2':
      return oauth2(p, ctx, where);
    default:
      ctx.warnings.push({ where, message: `${auth.type} auth is not supported by the engine; the request is written without it (add the header it computes by hand)` });
      return { headers: [], query: [] };
  }
}
