/**
 * Tokens kept between requests and between runs (docs/http-files.md, "Authentication"): one
 * file per configuration in `$XDG_STATE_HOME/sheet-rest/tokens/` (default
 * `~/.local/state/sheet-rest/tokens/`; `SHEET_STATE_DIR` replaces `$XDG_STATE_HOME/sheet-rest`),
 * the directory 0700, each file 0600, written whole (a temporary file renamed over it), so
 * concurrent runs never read half a file. The file name is a SHA-256 of the environment file,
 * the environment, the auth id and the configuration's values after substitution: a changed
 * secret or Token URL asks for a new token. Tokens are never written into the user's
 * environment files (kulala.nvim rewrote them).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TokenSet } from './grants.js';

/** One cached token, with what it was obtained for (`sheet auth list`). */
export interface CachedToken extends TokenSet {
  /** The environment file (the first that declares the auth id), absolute. */
  envFile: string;
  environment?: string;
  id: string;
  /** When it was obtained, ms since the epoch. */
  obtainedAt: number;
}

/** The directory of the token files for the environment `env` (process.env by default). */
export function tokenDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SHEET_STATE_DIR) return path.join(env.SHEET_STATE_DIR, 'tokens');
  const state = env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'sheet-rest', 'tokens');
}

/** The cache key of a configuration: a SHA-256 of where it is and what it holds (values substituted). */
export function cacheKey(envFile: string, environment: string | undefined, id: string, config: unknown): string {
  return crypto.createHash('sha256').update(JSON.stringify([envFile, environment ?? '', id, config])).digest('hex');
}

/** The cached token of `key` in `dir`, or undefined (none, unreadable, or not a token). */
export function readToken(dir: string, key: string): CachedToken | undefined {
  try {
    const t = JSON.parse(fs.readFileSync(path.join(dir, `${key}.json`), 'utf8')) as CachedToken;
    return typeof t.accessToken === 'string' ? t : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keep `token` under `key`: the directory 0700, the file 0600.
 * @returns undefined, or why it could not be written (a warning: the token is still used).
 */
export function writeToken(dir: string, key: string, token: CachedToken): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `.${key}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`);
    fs.writeFileSync(tmp, JSON.stringify(token), { mode: 0o600 });
    fs.renameSync(tmp, path.join(dir, `${key}.json`));
    return undefined;
  } catch (e) {
    return `cannot keep the token in ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
}

/** Every cached token of `dir` with its key. */
export function listTokens(dir: string): { key: string; token: CachedToken }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => /^[0-9a-f]{64}\.json$/.test(n));
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const key = n.slice(0, -5);
    const token = readToken(dir, key);
    return token ? [{ key, token }] : [];
  });
}

/** Remove the cached token of `key` (missing: nothing to do). */
export function removeToken(dir: string, key: string): void {
  fs.rmSync(path.join(dir, `${key}.json`), { force: true });
}
