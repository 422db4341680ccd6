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
import { TokenStore } from '../tokens/store.js';
import { authList, authLogin, authLogout, authTarget, authWhere } from '../session/auth-admin.js';
import type { Io } from './io.js';

const USAGE = 'sheet auth list|login ID|logout [ID] [--env NAME] [FILE|DIR]';

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
    const t = authTarget(target, env);
    const store = new TokenStore();
    const where = authWhere(t);
    if (verb === 'list') {
      const entries = authList(t);
      if (!entries.length) {
        io.out(`no auth configurations (${where}; "Security": {"Auth": {...}} in http-client.env.json)\n`);
        return 0;
      }
      for (const e of entries) io.out(`${e.id}\t${e.grant}\t${e.state}\n`);
      return 0;
    }
    if (verb === 'login') {
      // On a terminal a person can sign in in the browser (Authorization Code); the URL is
      // printed when no browser can be started.
      const got = await authLogin(store, t, id!, { interactive: io.isTTY || !!io.ask, notify: (l) => io.err(`${l}\n`) });
      io.out(`${id}: token obtained (${where})${got.warning ? `; ${got.warning}` : ''}\n`);
      return 0;
    }
    // An unknown id is an error, not "nothing removed".
    const removed = authLogout(store, t, id);
    io.out(removed.length ? `removed the tokens of: ${removed.join(', ')}\n` : `no token kept${id ? ` for ${id}` : ''} (${where})\n`);
    return 0;
  } catch (e) {
    if (!isEngineError(e)) throw e;
    io.err(`sheet auth: ${e.message}${e.hint ? `\n  ${e.hint}` : ''}\n`);
    return e.code === 'token-request-failed' || e.code === 'cancelled' ? 1 : 2;
  }
}
