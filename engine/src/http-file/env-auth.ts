/**
 * JetBrains' `Security.Auth` block of `.http` environment files (docs/http-files.md,
 * "Authentication"; JetBrains' help "OAuth 2.0 authorization"; kulala.nvim reads the same keys):
 *
 * ```json
 * { "dev": { "Security": { "Auth": { "my-id": { "Type": "OAuth2", "Grant Type": "Client Credentials", ... } } } } }
 * ```
 *
 * The block of `$shared` and of the chosen environment, in http-client.env.json and then in
 * http-client.private.env.json (secrets go there), are merged key by key, later winning, so the
 * public file may hold the `Token URL` and the private one the `Client Secret`. The values stay
 * as written (they may hold `{{...}}`): engine/src/tokens/config.ts reads them.
 */

/** One auth configuration as merged from the files. */
export interface EnvAuth {
  /** The keys as written (`Token URL`, `Client ID`, ...), values untouched. */
  config: Record<string, unknown>;
  /** The files that declare it, in the order read. */
  files: string[];
}

/** Add the `Security.Auth` entries of `section` (an environment object of `file`) to `out`. */
export function addAuth(section: unknown, file: string, out: Record<string, EnvAuth>): void {
  if (typeof section !== 'object' || section === null) return;
  const security = (section as Record<string, unknown>).Security;
  if (typeof security !== 'object' || security === null) return;
  const auth = (security as Record<string, unknown>).Auth;
  if (typeof auth !== 'object' || auth === null) return;
  for (const [id, config] of Object.entries(auth as Record<string, unknown>)) {
    if (typeof config !== 'object' || config === null || Array.isArray(config)) continue;
    const entry = (out[id] ??= { config: {}, files: [] });
    Object.assign(entry.config, config);
    if (!entry.files.includes(file)) entry.files.push(file);
  }
}
