/**
 * The calling shell's proxy variables as the daemon receives them (docs/shell.md, "The engine
 * daemon"): the daemon runs with the environment of whichever shell started it, so each call
 * carries its own `http_proxy`, `https_proxy`, `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`,
 * `no_proxy`, `NO_PROXY` (curl's manual, ENVIRONMENT) in the field `v`, one `NAME=VALUE` a line.
 * shell/rest-verbs hands them to curl through a file descriptor, so they reach the daemon in
 * the request body and never appear on a command line (where `ps` would show credentials).
 */
import { PROXY_VARIABLES } from '../http/proxy.js';

const NAMES: ReadonlySet<string> = new Set(PROXY_VARIABLES);

/** The `v` field's lines as an environment; names other than the proxy variables are ignored. */
export function callerEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && NAMES.has(line.slice(0, eq))) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}
