/**
 * Where things are, for the diagnostics (diagnostics.ts): the lines of a request that hold
 * templates, a UTF-16 offset as a line and a code-point column, and jsonc-parser's error codes
 * in words.
 */
import { printParseErrorCode, type ParseErrorCode } from 'jsonc-parser/lib/esm/main.js';
import type { RequestNode } from '../sheet/ast.js';

/**
 * The 1-based lines of `req` whose text is substituted: the request line, the header lines,
 * and the body's lines (a `< path` body: its one line). Hook, handler and directive lines are not.
 */
export function templateLines(req: RequestNode): number[] {
  const out = [req.line, ...req.headers.map((h) => h.line)];
  const b = req.body;
  if (b?.kind === 'file') out.push(b.line);
  else if (b) for (let n = b.line; n <= b.endLine; n++) out.push(n);
  return out;
}

/** The 1-based line and code-point column of UTF-16 `offset` in `text` (lines split on `\n`). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const nl = before.lastIndexOf('\n');
  let line = 1;
  for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
  return { line, column: [...before.slice(nl + 1)].length + 1 };
}

const WORDS: Record<string, string> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name in double quotes is expected here',
  ValueExpected: 'a value is expected here',
  ColonExpected: 'a colon is expected here',
  CommaExpected: 'a comma is expected here',
  CloseBraceExpected: 'a closing } is expected here',
  CloseBracketExpected: 'a closing ] is expected here',
  EndOfFileExpected: 'text after the end of the JSON value',
  InvalidCommentToken: 'comments are not JSON',
  UnexpectedEndOfComment: 'an unterminated comment',
  UnexpectedEndOfString: 'an unterminated string',
  UnexpectedEndOfNumber: 'an unterminated number',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'a backslash escape JSON does not know',
  InvalidCharacter: 'a control character inside a string (write \\n, \\t, ...)',
};

/** jsonc-parser's error `code` in words (RFC 8259's grammar: what is expected). */
export function jsonErrorText(code: ParseErrorCode): string {
  const name = printParseErrorCode(code);
  return WORDS[name] ?? name;
}
