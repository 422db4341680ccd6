/**
 * Sheet text at the level of characters and lines, shared by both parsers (sheets and `.http`
 * files) and the editor's documents: the byte order mark, the split into lines, and where a Lisp
 * form ends (a `:=` value or a `-> run-hook` form). Pure.
 */

/**
 * `text` without a leading UTF-8 byte order mark (U+FEFF, which Visual Studio writes at the
 * start of the `.http` files it creates): a BOM marks the encoding and is not content (Unicode
 * FAQ "UTF-8, UTF-16, UTF-32 & BOM"; VS Code and JetBrains do not show it or send it).
 */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Split sheet text into lines: `\r\n` and `\r` count as newlines; a final newline does not
 * start another line. A leading byte order mark is dropped ({@link withoutBom}): this is where
 * both parsers (sheets and `.http` files) read their text, so every front end shares it.
 */
export function splitLines(text: string): string[] {
  const lines = withoutBom(text).replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Where a Lisp form that starts at `text[from]` ends: the index after its closing paren, or -1
 * when the parens are not balanced. Strings, `?x` characters and `;` comments are skipped.
 */
export function lispFormEnd(text: string, from = 0): number {
  let depth = 0;
  let started = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (!started) return i + 1 <= text.length ? i + 1 : -1;
    } else if (c === '?') {
      i += text[i + 1] === '\\' ? 2 : 1;
    } else if (c === ';') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '(' || c === '[') {
      depth++;
      started = true;
    } else if (c === ')' || c === ']') {
      depth--;
      if (started && depth === 0) return i + 1;
      if (depth < 0) return -1;
    } else if (!started && !/\s/.test(c!)) {
      // an atom (symbol, number): ends at whitespace or a paren
      let j = i;
      while (j < text.length && !/[\s()[\]";]/.test(text[j]!)) j++;
      return j;
    }
  }
  return started ? -1 : text.length;
}
