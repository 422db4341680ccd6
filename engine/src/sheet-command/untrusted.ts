/**
 * `sheet run --untrusted`: run no code that a file carries. A sheet from a pull request can hold
 * Emacs Lisp (`:=` variables, `-> run-hook` forms) and a `.http` file JavaScript (JetBrains
 * response handlers `> {% %}` / `> ./file.js`, pre-request scripts `< {% %}`, httpyac's
 * `?? js EXPR` assertions), all of which
 * `sheet run` evaluates by default, as restclient.el, JetBrains and httpyac do. With this flag
 * the first such place is an error naming its line, before anything is sent; plain requests,
 * `jq-set-var` and the `expect-*` assertions (data, not code) still run (docs/sheet-run.md,
 * "Untrusted files"). `node:vm`, which runs the handlers, is not a security boundary: this check
 * is the boundary.
 */
import type { RequestNode, Sheet } from '../sheet/ast.js';
import { HTTPYAC_ASSERT, isHttpyacCode } from '../hooks/httpyac-assert.js';

/** The first place in `requests` (and the variables above the last of them) that holds code. */
export function firstCode(sheet: Sheet, requests: RequestNode[]): { what: string; line: number } | undefined {
  const last = Math.max(0, ...requests.map((r) => r.endLine));
  const found: { what: string; line: number }[] = [];
  const lisp = sheet.vars.find((v) => v.kind === 'lisp' && v.line <= last);
  if (lisp) found.push({ what: `the Lisp variable ${lisp.name} (:=)`, line: lisp.line });
  for (const r of requests) {
    const hook = r.hooks.find((h) => h.name === 'run-hook');
    if (hook) found.push({ what: 'the run-hook form', line: hook.line });
    const js = r.hooks.find((h) => h.name === HTTPYAC_ASSERT && isHttpyacCode(h.args));
    if (js) found.push({ what: 'the JavaScript of the ?? assertion', line: js.line });
    const handler = r.handlers?.[0];
    if (handler) found.push({ what: 'the response handler', line: handler.line });
    const pre = r.preScripts?.[0];
    if (pre) found.push({ what: 'the pre-request script', line: pre.line });
  }
  return found.sort((a, b) => a.line - b.line)[0];
}
