/**
 * `Authorization` header shorthands of `.http` files: what VS Code REST Client ("Basic Auth":
 * `Basic user:passwd`, `Basic user passwd`), JetBrains HTTP Client ("Basic authentication":
 * `Basic username password`) and httpyac (`basicAuthVariableReplacer`) turn into the header
 * RFC 7617 defines, `Basic base64(user ":" password)`, the credentials encoded as UTF-8.
 */

/** `Basic user password` (two or more words: the password is the rest, blanks kept). */
const BASIC_WORDS = /^[ \t]*basic[ \t]+(\S+)[ \t]+(\S.*?)[ \t]*$/i;
/** `Basic user:password` (one word with a colon: the user-id ends at the first colon, RFC 7617). */
const BASIC_COLON = /^[ \t]*basic[ \t]+([^\s:]*):(\S*)[ \t]*$/i;

/**
 * The value to send for an `Authorization` header written as `value` (after the `{{...}}`
 * pass): `Basic user password` and `Basic user:password` become `Basic <base64>`; anything
 * else (`Basic dXNlcjpwYXNz`, `Bearer ...`, `Digest ...`) is sent as written.
 */
export function basicAuthorization(value: string): string {
  const m = BASIC_COLON.exec(value) ?? BASIC_WORDS.exec(value);
  if (!m) return value;
  return `Basic ${Buffer.from(`${m[1]}:${m[2]}`, 'utf8').toString('base64')}`;
}

/**
 * httpyac's `Authorization: oauth2 [flow] [prefix]` / `openid [flow] [prefix]` (its
 * `OAuth2Regex`, src/utils/parserUtils.ts; `token_exchange` not read here): the flow
 * (default `client_credentials`) and the variable prefix (default `oauth2`).
 */
const HTTPYAC_OAUTH2 = /^\s*(openid|oauth2)(?:\s+(client(?:_credentials)?|(?:authorization_)?code|device(?:_code)?|password|implicit|hybrid))?(?:\s+([^\s]+))?\s*$/i;

/** An `Authorization: oauth2 ...` line as httpyac reads it. */
export interface HttpyacOAuth2 {
  /** The flow as written, lower case; `client_credentials` when none. */
  flow: string;
  /** The variables' prefix: `oauth2` when none (`{prefix}_tokenEndpoint`, ...). */
  prefix: string;
  /** The key of its token in the context's `authTokens` (resolve/http-vars.ts). */
  key: string;
}

/** `value` read as httpyac's `oauth2 [flow] [prefix]`, or undefined when it is not one. */
export function httpyacOAuth2(value: string): HttpyacOAuth2 | undefined {
  const m = HTTPYAC_OAUTH2.exec(value);
  if (!m) return undefined;
  const flow = (m[2] ?? 'client_credentials').toLowerCase();
  const prefix = m[3] ?? 'oauth2';
  return { flow, prefix, key: `httpyac ${flow} ${prefix}` };
}
