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
