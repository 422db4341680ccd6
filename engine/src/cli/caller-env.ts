/**
 * The calling shell's proxy and CA variables as the daemon receives them (docs/shell.md, "The
 * engine daemon"): the daemon runs with the environment of whichever shell started it, so each
 * call carries its own `http_proxy`, `https_proxy`, `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`,
 * `no_proxy`, `NO_PROXY`, `CURL_CA_BUNDLE`, `SSL_CERT_FILE` (curl's manual, ENVIRONMENT) and
 * `NODE_EXTRA_CA_CERTS` (Node's) in the field `v`, one `NAME=VALUE` a line.
 * shell/rest-verbs hands them to curl through a file descriptor, so they reach the daemon in
 * the request body and never appear on a command line (where `ps` would show credentials).
 */
import { CA_VARIABLES, PROXY_VARIABLES } from '../http/send.js';

/** The variables a call carries: the proxy's (http/proxy.ts) and the authorities' (http/trust.ts). */
export const CALLER_VARIABLES: readonly string[] = [...PROXY_VARIABLES, ...CA_VARIABLES];

const NAMES: ReadonlySet<string> = new Set(CALLER_VARIABLES);

/** The `v` field's lines as an environment; names other than {@link CALLER_VARIABLES} are ignored. */
export function callerEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && NAMES.has(line.slice(0, eq))) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}
