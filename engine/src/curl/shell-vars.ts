/**
 * Shell variables in a pasted curl command (`$TOKEN`, `${LOKI_URL}`, `${ES_URL%/}`), carried
 * into the sheet as restclient.el does it: a Lisp variable read from the environment when the
 * request is sent (`:TOKEN := (or (getenv "TOKEN") "")`, evaluated by Emacs, or by `sheet run`'s
 * batch Emacs), used where the command used it. The forms read as bash's manual, "Shell
 * Parameter Expansion", says, for a literal word: `$NAME`, `${NAME}` (unset: empty, as
 * `(or ... "")`), `${NAME:-word}`, `${NAME-word}`, `${NAME%word}`, `${NAME#word}`, and
 * `$(printenv NAME)` (its value without trailing newlines, which $() drops).
 * Anything else (`$(cmd)`, a pattern with `*?[`, `$1`) stays as written, named by the import.
 */

/** One expansion the import can carry: the sheet variable (without `:`) and its Lisp value. */
export interface SheetVariable {
  name: string;
  lisp: string;
}

/** An Emacs Lisp string literal. */
const lispString = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;

/** The Lisp that reads NAME from the environment (nil when unset). */
const getenv = (name: string) => `(getenv ${lispString(name)})`;

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
/** A word without what would make it a pattern or another expansion. */
const LITERAL = '[^*?[\\]$`\'"\\\\}]*';
const FORMS = new RegExp(`\\$(?:(${NAME})|\\{(${NAME})\\}|\\{(${NAME})(:-|-|%|#)(${LITERAL})\\}|\\(printenv (${NAME})\\))`, 'g');

/** The sheet variable of one expansion's text, or undefined when it is not one of the forms. */
function variableOf(m: RegExpMatchArray): SheetVariable | undefined {
  const plain = m[1] ?? m[2] ?? m[6];
  if (plain !== undefined) {
    return { name: plain, lisp: m[6] !== undefined ? `(replace-regexp-in-string "\\n+\\\\'" "" (or ${getenv(plain)} ""))` : `(or ${getenv(plain)} "")` };
  }
  const [name, op, word] = [m[3]!, m[4]!, m[5]!];
  const v = `(or ${getenv(name)} "")`;
  if (op === ':-') return { name: `${name}-or-default`, lisp: `(let ((v ${v})) (if (equal v "") ${lispString(word)} v))` };
  if (op === '-') return { name: `${name}-or-default`, lisp: `(or ${getenv(name)} ${lispString(word)})` };
  // Core Lisp only (string-suffix-p and substring; subr-x is not loaded in a batch Emacs).
  const w = lispString(word);
  if (op === '%') return { name: `${name}-without-suffix`, lisp: `(let ((v ${v})) (if (string-suffix-p ${w} v) (substring v 0 (- (length v) ${word.length})) v))` };
  return { name: `${name}-without-prefix`, lisp: `(let ((v ${v})) (if (string-prefix-p ${w} v) (substring v ${word.length}) v))` };
}

/**
 * The expansions of `words` the import carries, by their text as written (`${ES_URL%/}` ->
 * `ES_URL-without-suffix`); two different texts never share a sheet variable.
 */
export function sheetVariables(words: string[]): Map<string, SheetVariable> {
  const out = new Map<string, SheetVariable>();
  const taken = new Map<string, string>();
  for (const w of words) {
    for (const m of w.matchAll(FORMS)) {
      if (out.has(m[0])) continue;
      const v = variableOf(m)!;
      let name = v.name;
      for (let i = 2; taken.has(name) && taken.get(name) !== v.lisp; i++) name = `${v.name}-${i}`;
      taken.set(name, v.lisp);
      out.set(m[0], { name, lisp: v.lisp });
    }
  }
  return out;
}

/** Whether the expansion `e` as the shell tail names it (`$(printenv...)`, `${X%/}`) is carried. */
export function isCarried(e: string, vars: Map<string, SheetVariable>): boolean {
  if (e.startsWith('$(')) return [...vars.keys()].some((k) => k.startsWith(e.slice(0, -4)));
  return vars.has(e);
}

/** `text` with each carried expansion written as its sheet variable `:name`. */
export function withSheetVariables(text: string, vars: Map<string, SheetVariable>): string {
  if (!vars.size || !text.includes('$')) return text;
  return text.replace(FORMS, (all: string) => (vars.has(all) ? `:${vars.get(all)!.name}` : all));
}

/** The sheet declaration of a carried variable. */
export const envDeclaration = (v: SheetVariable): string => `:${v.name} := ${v.lisp}`;

/**
 * The declaration of a variable holding the Basic credentials of `-u` text that uses carried
 * variables (`-u "$USER:$PASS"`, RFC 7617: base64 of the UTF-8 `user:password`), or undefined
 * when `user` uses none.
 */
export function basicAuthDeclaration(variable: string, user: string, vars: Map<string, SheetVariable>): string | undefined {
  const parts: string[] = [];
  let used = false;
  let last = 0;
  for (const m of user.matchAll(FORMS)) {
    const v = vars.get(m[0]);
    if (v === undefined) continue;
    if (m.index! > last) parts.push(lispString(user.slice(last, m.index)));
    parts.push(v.lisp);
    last = m.index! + m[0].length;
    used = true;
  }
  if (!used) return undefined;
  if (last < user.length) parts.push(lispString(user.slice(last)));
  return `:${variable} := (base64-encode-string (encode-coding-string (concat ${parts.join(' ')}) 'utf-8) t)`;
}
