/**
 * The one entry point front ends call to parse a request file: it picks the syntax.
 *
 * - `.sheet` files: restclient's sheet syntax, always (docs/sheet-format.md);
 * - a first line carrying the Emacs-style marker `-*- sheet-syntax: http -*-` or
 *   `-*- sheet-syntax: sheet -*-` (`restclient` is a synonym of `sheet`; e.g.
 *   `# -*- sheet-syntax: restclient -*-`): that syntax;
 * - `.http` and `.rest` files: guessed from the whole text, the `.http` syntax (VS Code REST
 *   Client / JetBrains) unless the text is plainly a restclient sheet (see {@link looksLikeSheet});
 * - any other name (or none): the sheet syntax.
 * Documented in docs/http-files.md ("Which parser").
 */
import path from 'node:path';
import type { Sheet, SheetSyntax } from '../sheet/ast.js';
import { METHODS, parseSheet, withoutBom } from '../sheet/parse.js';
import { EngineError, isEngineError } from '../errors.js';
import { parseHttpFile } from './parse.js';

export { parseHttpFile } from './parse.js';
export { loadEnvironment, type Environment } from './environment.js';

const MARKER = /-\*-.*\bsheet-syntax:\s*(http|sheet|restclient)\b.*-\*-/;

/**
 * How the syntax of a text was chosen: `guessed` when it came from the text of a `.http`/`.rest`
 * file that has no line only that syntax has (no `{{x}}` in a request line, `@x = v`, `# @name`,
 * `{% %}` for `.http`; no `:x = v` or `-> hook` for a sheet).
 */
export interface SyntaxChoice {
  syntax: SheetSyntax;
  /** True when the syntax was guessed from the text of a `.http`/`.rest` file without the marker, on weak evidence. */
  guessed: boolean;
}

/** The syntax `parseForFile` uses for `text` named `fileName` (see the module comment). */
export function syntaxFor(text: string, fileName?: string): SheetSyntax {
  return syntaxChoice(text, fileName).syntax;
}

/** {@link syntaxFor}, and whether the syntax was guessed from the text. */
export function syntaxChoice(text: string, fileName?: string): SyntaxChoice {
  text = withoutBom(text);
  const ext = fileName ? path.extname(fileName).toLowerCase() : '';
  if (ext === '.sheet') return { syntax: 'sheet', guessed: false };
  const firstLine = text.slice(0, Math.min(text.length, 512)).split(/\r?\n/, 1)[0] ?? '';
  const marked = MARKER.exec(firstLine)?.[1];
  if (marked) return { syntax: marked === 'http' ? 'http' : 'sheet', guessed: false };
  if (ext === '.http' || ext === '.rest') {
    // A guess backed by a line only that syntax has (`{{x}}`, `@x = v`; `:x = v`, `-> hook`)
    // is no guess to warn about.
    const syntax: SheetSyntax = looksLikeSheet(text) ? 'sheet' : 'http';
    return { syntax, guessed: !(syntax === 'http' ? HTTP_ONLY_LINE : SHEET_ONLY_LINE).test(text) };
  }
  return { syntax: 'sheet', guessed: false };
}

/**
 * `e` with what a user needs when the request failed in a file whose syntax was guessed (a
 * misread file fails in odd places, even on the wire): the line (the request line `line` when
 * `e` names none) and, in its hint, which syntax the file was read in and how to pin the other
 * (the first-line marker). Errors of other files come back as they are.
 * @param line the 1-based request line the error is about, when known.
 */
export function withSyntaxHint(e: unknown, choice: SyntaxChoice, line?: number): unknown {
  if (!isEngineError(e) || e.code === 'cancelled' || !choice.guessed) return e;
  const at = e.line ?? line;
  const guess = choice.syntax === 'http'
    ? 'The file was read as a VS Code / JetBrains .http file (guessed from its text); if it is a restclient sheet, put # -*- sheet-syntax: restclient -*- on its first line.'
    : 'The file was read as a restclient sheet (guessed from its text); if it is a VS Code / JetBrains .http file, put # -*- sheet-syntax: http -*- on its first line.';
  const hint = [e.hint, guess].filter(Boolean).join(' ');
  const out = new EngineError(e.code, e.message.replace(/^line \d+: /, ''), { line: at, hint, details: e.details, cause: e });
  return out;
}

/**
 * A `###` separator line (the `.http` syntax's; a sheet separates requests with any `#` line):
 * exactly three `#`, then the end of the line or a blank and a name. A line of four or more
 * `#` (`#####`, a banner) is a restclient comment.
 */
const HTTP_SEPARATOR = /^###(?!#)/m;
/**
 * A line only a `.http` file has: a `# @name`-style directive, an `@name = value` file
 * variable, a `{% %}` script, or a request line with a `{{...}}` reference.
 */
const HTTP_ONLY_LINE = new RegExp(`^(?:[ \\t]*(?:#|//)[ \\t]*@[A-Za-z]|@[A-Za-z_][\\w.-]*[ \\t]*=|[<>][ \\t]*\\{%|(?:${METHODS.join('|')})[ \\t]+.*\\{\\{)`, 'm');
/** A sheet variable declaration line (`:name = v`, `:name := form`). */
const SHEET_DECLARATION = /^:[^:=\s]+[ \t]*:?=/m;
/** A line only a sheet has: a variable declaration or a hook (`-> name`). */
const SHEET_ONLY_LINE = /^(?::[^:=\s]+[ \t]*:?=|->[ \t])/m;
/** A request line (`METHOD url`). */
const REQUEST_LINE = new RegExp(`^(?:${METHODS.join('|')})[ \\t]+\\S`, 'm');
/** A `#` line (group 1) or a request line. */
const LINE_KINDS = new RegExp(`^(?:(#)|${REQUEST_LINE.source.slice(1)})`, 'gm');

/**
 * Whether a `.http`/`.rest` file is a restclient sheet saved under that name. Yes when:
 * - a sheet variable declaration (`:name = value`, `:name := form`) comes before the first
 *   request line (the `.http` parser would take it for a request line); or
 * - the text has no `###` line, no line only a `.http` file has (`# @name`, `@name = value`, a
 *   `{% %}` script, a request line with `{{...}}`), and has a line only a sheet has (a
 *   declaration, a `-> hook`) or
 *   more than one request line with a `#` line between each two (requests separated by blank
 *   lines only are `.http` requests, as httpyac reads them).
 * Each case is a text the `.http` parser would misread, so the guess changes only files that
 * could not work as `.http`; anything else stays `.http`, and the first-line marker
 * `# -*- sheet-syntax: sheet -*-` decides where the guess cannot (docs/http-files.md "Which
 * parser").
 */
export function looksLikeSheet(text: string): boolean {
  const declaration = text.search(SHEET_DECLARATION);
  const request = text.search(REQUEST_LINE);
  if (declaration >= 0 && (request < 0 || declaration < request)) return true;
  if (HTTP_SEPARATOR.test(text) || HTTP_ONLY_LINE.test(text)) return false;
  if (SHEET_ONLY_LINE.test(text)) return true;
  return severalRequestsSeparatedByComments(text);
}

/**
 * Whether `text` has more than one request line and a `#` line between each two: a sheet's
 * requests. Two request lines with only blank or other lines between them are `.http` requests
 * separated by blank lines (httpyac): a sheet would read the second as the first one's body.
 */
function severalRequestsSeparatedByComments(text: string): boolean {
  let requests = 0;
  let comment = false;
  for (const m of text.matchAll(LINE_KINDS)) {
    if (m[1] !== undefined) comment = true;
    else {
      if (requests && !comment) return false;
      requests++;
      comment = false;
    }
  }
  return requests > 1;
}

/**
 * Parse request-file text with the parser its name (or first-line marker) calls for. Pure,
 * never throws.
 * @param fileName the file's name or path (only its extension is used); may be undefined.
 * @param sheetParser the parser of the sheet syntax: `parseSheet`, or an editor session's
 *   `IncrementalSheetParser` (sheet/incremental.ts), which gives the same result.
 */
export function parseForFile(text: string, fileName?: string, sheetParser: (text: string) => Sheet = parseSheet): Sheet {
  return syntaxFor(text, fileName) === 'http' ? parseHttpFile(text) : sheetParser(text);
}
