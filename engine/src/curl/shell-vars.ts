/**
 * Shell variables in a pasted curl command (`$TOKEN`, `${LOKI_URL}`), carried into the sheet as
 * restclient.el does it: a Lisp variable read from the environment when the request is sent
 * (`:TOKEN := (or (getenv "TOKEN") "")`, evaluated by Emacs, or by `sheet run`'s batch Emacs),
 * used where the command used it. bash expands an unset variable to nothing, and so does the
 * `(or ... "")`. Only plain names: `${URL%/}`, `$(cmd)`, `` `cmd` `` and `$1` stay as written,
 * named in a warning by the import.
 */

/** `$NAME` or `${NAME}` as written -> NAME, for the plain expansions among `expansions`. */
export function plainVariables(expansions: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of expansions) {
    const m = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/.exec(e);
    if (m) out.set(e, (m[1] ?? m[2])!);
  }
  return out;
}

/** `text` with each plain expansion of `vars` written as the sheet variable `:NAME`. */
export function withSheetVariables(text: string, vars: Map<string, string>): string {
  if (!vars.size || !text.includes('$')) return text;
  return text.replace(/\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/g, (all: string) => (vars.has(all) ? `:${vars.get(all)}` : all));
}

/** An Emacs Lisp string literal. */
const lispString = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;

/** The Lisp that reads NAME from the environment, as bash expands it (unset: empty). */
const getenv = (name: string) => `(or (getenv ${lispString(name)}) "")`;

/** The sheet declaration of NAME read from the environment. */
export const envDeclaration = (name: string): string => `:${name} := ${getenv(name)}`;

/**
 * The declaration of a variable holding the Basic credentials of `-u` text that uses plain
 * variables (`-u "$USER:$PASS"`, RFC 7617: base64 of the UTF-8 `user:password`), or undefined
 * when `user` uses none of `vars`.
 */
export function basicAuthDeclaration(variable: string, user: string, vars: Map<string, string>): string | undefined {
  const parts: string[] = [];
  let used = false;
  let last = 0;
  for (const m of user.matchAll(/\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/g)) {
    const name = vars.get(m[0]);
    if (name === undefined) continue;
    if (m.index! > last) parts.push(lispString(user.slice(last, m.index)));
    parts.push(getenv(name));
    last = m.index! + m[0].length;
    used = true;
  }
  if (!used) return undefined;
  if (last < user.length) parts.push(lispString(user.slice(last)));
  return `:${variable} := (base64-encode-string (encode-coding-string (concat ${parts.join(' ')}) 'utf-8) t)`;
}
