/**
 * Credentials that the shell verbs' history masked (`Basic ****`, `a=****` in a Cookie,
 * `http://me:****@host/`; ../session/history.ts), found in a request about to be replayed with
 * `sheet run history.sheet` (issue 36 item 10): the request is sent as written, as restclient.el
 * would, and a warning says the credential was masked and how to supply it, so a 401 that
 * follows has its reason beside it.
 */
import type { RequestNode } from '../sheet/ast.js';
import { MASK, SECRET_HEADERS } from '../session/history.js';

/** A URL whose password is the history's mask (`http://me:****@host/`). */
const MASKED_PASSWORD = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*://[^/?#@:]*:${MASK.replace(/\*/g, '\\*')}@`);

/**
 * The masked credentials of `node`, as warnings.
 * @returns `{line, code, message}` entries, messages starting `line N: `.
 */
export function maskedCredentials(node: RequestNode): { line: number; code: string; message: string }[] {
  const out: { line: number; code: string; message: string }[] = [];
  const how = 'put the credential in its place (or a variable: Authorization: Basic :auth, and sheet run --var :auth=...), or record the history with REST_HISTORY_SECRETS=1';
  for (const h of node.headers) {
    if (h.kind !== 'header' || !SECRET_HEADERS.includes(h.name.toLowerCase())) continue;
    const masked = h.name.toLowerCase() === 'cookie' ? h.value.includes(`=${MASK}`) : h.value === MASK || h.value.endsWith(` ${MASK}`);
    if (masked) {
      out.push({ line: h.line, code: 'masked-credential', message: `line ${h.line}: the ${h.name} header is "${h.value}": the shell history masked this credential when it recorded the call, and it was sent as written; ${how}` });
    }
  }
  if (MASKED_PASSWORD.test(node.url)) {
    out.push({ line: node.line, code: 'masked-credential', message: `line ${node.line}: the password in the URL is "${MASK}": the shell history masked it, and it was sent as written; put the password in its place, or record the history with REST_HISTORY_SECRETS=1` });
  }
  return out;
}
