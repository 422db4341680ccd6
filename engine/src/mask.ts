/**
 * Secrets masked in what the user sees: the mask itself, and a value with given secrets
 * replaced by it. One home for the rule, used by the history and reports (session/history.ts,
 * sheet-command/) and by the token errors (tokens/grants.ts: an identity provider's
 * `error_description` that echoes a client secret or password).
 */

/** What a masked credential reads as. */
export const MASK = '****';

/**
 * `value` (a string, or plain data holding strings) with every occurrence of each of `secrets`
 * replaced by {@link MASK}: the client secrets, passwords and tokens of `{{$auth.token}}`
 * (session/auth.ts), as hurl's `--secret` hides its values. Secrets shorter than 4 characters
 * are left alone (they would mask ordinary text). Other values are returned as they are.
 */
export function maskSecrets<T>(value: T, secrets: Iterable<string>): T {
  const list = [...new Set(secrets)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  if (!list.length) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return list.reduce((t, s) => (t.includes(s) ? t.split(s).join(MASK) : t), v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
