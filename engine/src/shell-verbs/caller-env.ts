/**
 * The calling shell's proxy and CA variables as the daemon receives them (docs/shell.md, "The
 * engine daemon"): the daemon runs with the environment of whichever shell started it, so each
 * call carries its own `http_proxy`, `https_proxy`, `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`,
 * `no_proxy`, `NO_PROXY`, `CURL_CA_BUNDLE`, `SSL_CERT_FILE` (curl's manual, ENVIRONMENT) and
 * `NODE_EXTRA_CA_CERTS` (Node's), and `HOME` (where `-n` finds `.netrc`).
 * The proxy variables, which may hold credentials, come in headers `X-Rest-Env: NAME=VALUE`, one a
 * variable: shell/rest-daemon hands them to curl as a header file on a file descriptor
 * (`-H @/dev/fd/3`), so they never appear on a command line (where `ps` would show them) and the
 * body keeps the length curl knows (a streamed upload's Content-Length). The others are file
 * names, no secrets: call fields of their own name ({@link FIELD_VARIABLES}), like PATH, so a
 * shell without a proxy set needs no header file (zsh makes the here-string a temporary file:
 * 0.6 ms a call; docs/shell.md, "Per call"). A header for any of them is still read.
 */
import { CA_VARIABLES, PROXY_VARIABLES } from '../http/send.js';

/** The variables a call carries: the proxy's (http/proxy.ts), the authorities' (http/trust.ts), and HOME for `-n`'s ~/.netrc (http/netrc.ts). */
export const CALLER_VARIABLES: readonly string[] = [...PROXY_VARIABLES, ...CA_VARIABLES, 'HOME'];

const NAMES: ReadonlySet<string> = new Set(CALLER_VARIABLES);

/** The caller's variables that travel as call fields of their own name (no secrets in them). */
export const FIELD_VARIABLES: ReadonlySet<string> = new Set([...CA_VARIABLES, 'HOME']);

/**
 * The caller's variables from the call's raw headers (names and values alternate, case kept:
 * `https_proxy` and `HTTPS_PROXY` differ). Values are bytes as curl sent them (UTF-8 text);
 * names other than {@link CALLER_VARIABLES} are ignored.
 */
export function callerEnv(rawHeaders: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== 'x-rest-env') continue;
    const line = Buffer.from(rawHeaders[i + 1]!, 'latin1').toString('utf8');
    const eq = line.indexOf('=');
    if (eq > 0 && NAMES.has(line.slice(0, eq))) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}
