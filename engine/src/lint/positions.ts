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

/**
 * The 1-based code-point column (docs/protocol.md: columns count Emacs characters) of UTF-16
 * index `index` in the line `text`: what `[...text.slice(0, index)].length + 1` gives, without
 * an array per diagnostic (5,000 of them cost the engine 150 ms that way).
 */
export function codePointColumn(text: string, index: number): number {
  const end = Math.min(index, text.length);
  let n = 1;
  for (let i = 0; i < end; i++) {
    // A low surrogate after a high one is the second half of one code point.
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === 0 || (text.charCodeAt(i - 1) & 0xfc00) !== 0xd800) n++;
  }
  return n;
}

/** The 1-based line and code-point column of UTF-16 `offset` in `text` (lines split on `\n`). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const nl = before.lastIndexOf('\n');
  let line = 1;
  for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
  const last = before.slice(nl + 1);
  return { line, column: codePointColumn(last, last.length) };
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
