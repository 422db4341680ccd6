/**
 * `rest --env NAME`: the environments of `.http` files (http-client.env.json,
 * http-client.private.env.json, `rest-client.environmentVariables` in .vscode/settings.json;
 * src/http-file/environment.ts) for the shell verbs (docs/shell.md, "Environments").
 *
 * Decision: the files are found by walking up from the directory the verb runs in (as for a
 * `.http` file in that directory). Once an environment is chosen, `{{name}}` (and the system
 * variables `{{$guid}}`, `{{$timestamp}}`, ...; src/resolve/http-vars.ts) is replaced in the
 * path, the `-q` queries, the body argument and every option word (headers, `-d` values, `-u`,
 * the per-host lines); a body read from standard input or a file is sent as it is. Without
 * `rest --env`, `{{` is sent as typed. The base URL comes from the variable `baseUrl`, else
 * `host` (the names VS Code REST Client's and JetBrains' examples use), when the environment
 * has one. `{{$auth.token("id")}}` is the token of the environment's `Security.Auth` entry
 * (session/auth.ts `withTextTokens`, engine/src/tokens/), kept between calls in the token files.
 */
import path from 'node:path';
import { loadEnvironment, type Environment } from '../http-file/environment.js';
import { substituteHttp, type HttpVarContext } from '../resolve/http-vars.js';
import { withTextTokens } from '../session/auth.js';
import { TokenStore } from '../tokens/store.js';

/** The variables that give the base URL, in order of preference. */
export const BASE_VARIABLES = ['baseUrl', 'host'] as const;

/**
 * The environment `name` as seen from `cwd` (the files found walking up from it).
 * @throws EngineError `bad-environment` (unknown name, listing the known ones; bad JSON with its
 *   line), `file-unreadable`.
 */
export function shellEnvironment(cwd: string, name?: string): Environment {
  // loadEnvironment takes a file and looks from its directory: a name inside cwd.
  return loadEnvironment(path.join(cwd, '.rest-env'), name);
}

/** The substitution context of an environment. */
export function envContext(env: Environment): HttpVarContext {
  return { env: env.variables, dotenv: env.dotenv, authEnvironment: { auth: env.auth, ...(env.name !== undefined ? { environment: env.name } : {}), files: env.files } };
}

/** The tokens of this process (the daemon's life, or one direct call), over the token files (tokens/cache.ts). */
const tokens = new TokenStore();

/**
 * {@link envContext} with the tokens `texts` need (`{{$auth.token("id")}}` in a `-H` value,
 * ...; the environment's `Security.Auth`, docs/http-files.md "Authentication").
 * @throws EngineError `unknown-auth`, `bad-auth-config`, `token-request-failed`.
 */
export function envContextFor(env: Environment, texts: string[]): Promise<HttpVarContext> {
  return withTextTokens(texts, envContext(env), tokens);
}

/**
 * Replace `{{...}}` in `text` with the environment's values.
 * @throws EngineError `unknown-variable` naming the variable, `vars-cycle`, `bad-argument`.
 */
export function substituteEnv(text: string, ctx: HttpVarContext): string {
  return substituteHttp(text, ctx);
}

/**
 * The directory tree an environment belongs to: that of its nearest file (a VS Code
 * `.vscode/settings.json` belongs to the folder above `.vscode`). `rest --env` applies the
 * environment only to calls made inside it (docs/shell.md, "Environments").
 */
export function environmentRoot(env: Environment, cwd: string): string {
  const file = env.files[0];
  if (!file) return cwd;
  const dir = path.dirname(file);
  return path.basename(dir) === '.vscode' ? path.dirname(dir) : dir;
}

/** The environment's base URL (`baseUrl`, else `host`, substituted), or undefined. */
export function environmentBase(env: Environment): string | undefined {
  for (const v of BASE_VARIABLES) {
    if (Object.prototype.hasOwnProperty.call(env.variables, v) && env.variables[v] !== '') return substituteEnv(env.variables[v]!, envContext(env));
  }
  return undefined;
}
