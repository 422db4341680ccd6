/**
 * `sheet auth list|login ID|logout [ID]` (docs/http-files.md, "Authentication"): the
 * `Security.Auth` configurations of an environment and the tokens kept for them (in the user's
 * state directory, engine/src/tokens/cache.ts). Never prints a token or a secret.
 *
 *   sheet auth list [--env NAME] [FILE|DIR]      each auth id, its grant, its token's state
 *   sheet auth login ID [--env NAME] [FILE|DIR]  ask for a new token now (before a run, in CI)
 *   sheet auth logout [ID] [--env NAME] [FILE|DIR]  forget the tokens (of ID, or all of them)
 *
 * FILE is a `.http` file (its `@name` variables may appear in the configuration; `logout`
 * also forgets the tokens of its httpyac `Authorization: oauth2 ...` lines, ids
 * `oauth2 FLOW PREFIX`) or a directory (default: the current one); the environment files are
 * found above it, as for `sheet run`. Exit status: 0 done, 1 a token request failed, 2 a usage or configuration error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isEngineError } from '../errors.js';
import { httpContext, newHttpState } from '../session/http-file.js';
import { substituteHttp, type HttpVarContext } from '../resolve/http-vars.js';
import { parseForFile } from '../http-file/index.js';
import { TokenStore, configOf, isFresh, type AuthEnvironment } from '../tokens/store.js';
import { listTokens, tokenDir } from '../tokens/cache.js';
import type { Io } from './io.js';

const USAGE = 'sheet auth list|login ID|logout [ID] [--env NAME] [FILE|DIR]';

/** The environment's auth configurations and a `{{...}}` pass for their values. */
function load(target: string, env: string | undefined): { auth: AuthEnvironment; sub: (t: string) => string } {
  const isDir = fs.existsSync(target) && fs.statSync(target).isDirectory();
  const file = isDir ? path.join(target, 'untitled.http') : target;
  const ctx = httpContext(undefined, file, env, new Map(), newHttpState());
  const fileVars = new Map<string, string>();
  if (!isDir && fs.existsSync(file)) for (const v of parseForFile(fs.readFileSync(file, 'utf8'), file).vars) fileVars.set(v.name, v.value);
  const c: HttpVarContext = { ...ctx, fileVars };
  const a = ctx.authEnvironment!;
  return { auth: { auth: a.auth as AuthEnvironment['auth'], files: a.files, ...(a.environment ? { environment: a.environment } : {}) }, sub: (t) => substituteHttp(t, c) };
}

/** "in 59 min", "2 min ago". */
function when(ms: number): string {
  const min = Math.round(Math.abs(ms) / 60000);
  const s = min >= 1 ? `${min} min` : `${Math.round(Math.abs(ms) / 1000)} s`;
  return ms >= 0 ? `in ${s}` : `${s} ago`;
}

/**
 * Run `sheet auth ARGS`.
 * @returns the exit status (see the file comment).
 */
export async function authCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { env: { type: 'string' } } });
  } catch (e) {
    io.err(`sheet auth: ${(e as Error).message.split('\n')[0]}\nUsage: ${USAGE}\n`);
    return 2;
  }
  const [verb, ...rest] = parsed.positionals;
  const env = parsed.values.env;
  const needsId = verb === 'login';
  const takesId = verb === 'login' || verb === 'logout';
  if (verb !== 'list' && !takesId) {
    io.err(`sheet auth: ${verb ? `unknown subcommand ${verb}` : 'a subcommand is needed'}\nUsage: ${USAGE}\n`);
    return 2;
  }
  // logout's ID is optional: a word that names an existing file or directory is the target.
  let id: string | undefined;
  if (needsId || (verb === 'logout' && rest.length === 2)) id = rest.shift();
  else if (verb === 'logout' && rest.length === 1 && !fs.existsSync(rest[0]!)) id = rest.shift();
  if (needsId && !id) {
    io.err(`sheet auth login needs the auth id (sheet auth list shows them)\nUsage: ${USAGE}\n`);
    return 2;
  }
  if (rest.length > 1) {
    io.err(`sheet auth: too many arguments: ${rest.join(' ')}\nUsage: ${USAGE}\n`);
    return 2;
  }
  const target = path.resolve(rest[0] ?? '.');
  try {
    const { auth, sub } = load(target, env);
    const store = new TokenStore();
    const where = `${auth.environment ? `environment ${auth.environment}` : 'no environment (--env NAME)'}`;
    if (verb === 'list') {
      const ids = Object.keys(auth.auth).sort();
      if (!ids.length) {
        io.out(`no auth configurations (${where}; "Security": {"Auth": {...}} in http-client.env.json)\n`);
        return 0;
      }
      const tokens = listTokens(tokenDir());
      for (const name of ids) {
        let kind: string;
        let state = 'no token';
        try {
          const { config, key } = configOf(name, auth, { sub });
          kind = config.type === 'Mock' ? 'Mock' : config.grant;
          const t = tokens.find((x) => x.key === key)?.token;
          if (config.type === 'Mock') state = 'mock token';
          else if (t) state = isFresh(t, Date.now()) ? `token valid, expires ${t.expiresAt !== undefined ? when(t.expiresAt - Date.now()) : 'unknown'}` : `token expired${t.refreshToken ? ' (refresh token kept)' : ''}`;
        } catch (e) {
          kind = 'invalid';
          state = isEngineError(e) ? e.message : String(e);
        }
        io.out(`${name}\t${kind}\t${state}\n`);
      }
      return 0;
    }
    if (verb === 'login') {
      // On a terminal a person can sign in in the browser (Authorization Code); the URL is
      // printed when no browser can be started.
      const got = await store.tokens(id!, auth, { sub, fresh: true, interactive: io.isTTY || !!io.ask, notify: (l) => io.err(`${l}\n`) });
      io.out(`${id}: token obtained (${where})${got.warning ? `; ${got.warning}` : ''}\n`);
      return 0;
    }
    const httpFile = fs.existsSync(target) && fs.statSync(target).isFile() ? [target] : [];
    // An unknown id is an error, not "nothing removed"; httpyac's `oauth2 FLOW PREFIX` ids are known by their file.
    if (id !== undefined && !(httpFile.length && id.startsWith('oauth2 '))) configOf(id, auth, { sub });
    const removed = store.logout(auth, id, { files: httpFile });
    io.out(removed.length ? `removed the tokens of: ${removed.join(', ')}\n` : `no token kept${id ? ` for ${id}` : ''} (${where})\n`);
    return 0;
  } catch (e) {
    if (!isEngineError(e)) throw e;
    io.err(`sheet auth: ${e.message}${e.hint ? `\n  ${e.hint}` : ''}\n`);
    return e.code === 'token-request-failed' || e.code === 'cancelled' ? 1 : 2;
  }
}
