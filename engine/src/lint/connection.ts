/**
 * The request's connection directives as an editor shows them (../sheet/connection-tags.ts;
 * docs/sheet-format.md "Connection directives"), each on its own line: what the session would
 * refuse before sending (../session/connection.ts), said while the user types.
 *
 * - a missing value (`# @proxy` alone), a value after a switch (`# @insecure yes`), `# @key` or
 *   `# @pass` without `# @cert`: errors;
 * - a proxy URL or no-proxy list curl's rules refuse (../http/proxy.ts: `http://[::1`,
 *   `socks5://...`, `host:8080` in a no-proxy list): errors naming the line;
 * - a file that cannot be read (`# @cacert`, `# @cert`, `# @key`, `# @netrc-file`): an error;
 *   a Unix socket that is not there: a warning (a server may create it before the request is
 *   sent; curl then fails with exit 7).
 *
 * A value holding a variable (`# @proxy {{proxy}}`, `# @cacert :dir/ca.pem`) is checked when the
 * request is sent, after substitution (../session/connection.ts): here only its presence is.
 *
 * Pure: whether a file can be read is the caller's answer ({@link FileCheck}), the names
 * resolved from the sheet's directory by the caller.
 */
import { EngineError } from '../errors.js';
import { parseNoProxy, parseProxyUrl } from '../http/proxy.js';
import { splitCertArg } from '../http/client-cert.js';
import { CONNECTION_TAGS, connectionOf, templateProblem, type ConnectionTagName } from '../sheet/connection-tags.js';
import type { RequestNode } from '../sheet/ast.js';
import type { ErrorCode } from '../errors.js';

/**
 * Why the file a directive names (as written, relative to the sheet's directory) cannot be
 * read (`ENOENT`, `EACCES`), or undefined when it can.
 */
export type FileCheck = (name: string) => string | undefined;

type Push = (line: number, severity: 'error' | 'warning', code: ErrorCode, message: string, hint: string) => void;

/** The lines of `req`'s connection directives: their values are substituted as header values (../sheet/connection-tags.ts). */
export const connectionLines = (req: RequestNode): number[] => (req.directives ?? []).filter((d) => Object.hasOwn(CONNECTION_TAGS, d.name)).map((d) => d.line);

/**
 * The problems of `req`'s connection directives (see the file comment), through `push`.
 * @param holdsVariable whether a value refers to a variable (a `.http` file's `{{name}}`, a
 *   sheet's declared `:name`): its value is not checked here.
 */
export function connectionProblems(req: RequestNode, fileCheck: FileCheck | undefined, push: Push, holdsVariable: (value: string) => boolean = () => false): void {
  if (!req.directives?.length) return;
  const written = connectionOf(req.directives);
  const problems = written.problems;
  const tags = Object.fromEntries(Object.entries(written.tags).filter(([, t]) => !holdsVariable(t.value))) as typeof written.tags;
  for (const p of problems) push(p.line, 'error', 'bad-option', p.message, p.hint);
  for (const name of Object.keys(tags) as ConnectionTagName[]) {
    const p = templateProblem(name, tags[name]!);
    if (p) {
      push(p.line, 'error', 'bad-option', p.message, p.hint);
      delete tags[name];
    }
  }
  const proxyRule = (fn: () => unknown, line: number) => {
    try {
      fn();
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      push(line, 'error', e.code, e.message, `${e.hint ?? ''} Nothing is sent until it is fixed.`.trim());
    }
  };
  if (tags.proxy) proxyRule(() => parseProxyUrl(tags.proxy!.value, '# @proxy'), tags.proxy.line);
  if (tags.noproxy) proxyRule(() => parseNoProxy(tags.noproxy!.value, '# @noproxy'), tags.noproxy.line);
  if (!fileCheck) return;
  for (const name of Object.keys(tags) as ConnectionTagName[]) {
    const t = tags[name]!;
    if (!CONNECTION_TAGS[name].file) continue;
    const file = name === 'cert' ? splitCertArg(t.value).file : t.value;
    const why = fileCheck(file);
    if (!why) continue;
    if (name === 'unix-socket') push(t.line, 'warning', 'connection-refused', `# @${name}: no socket at ${file} (${why}) yet`, 'Start the server that listens there before sending, or fix the path.');
    else push(t.line, 'error', 'file-unreadable', `# @${name}: cannot read ${file} (${why}); nothing is sent`, `Check the file name after # @${name} (relative names start at the sheet's directory).`);
  }
}
