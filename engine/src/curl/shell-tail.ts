/**
 * What bash does around a pasted curl command, read without running anything: API docs often
 * end the command with `| jq .`, `> out.json`, `2>&1` or `&& echo`, and an unquoted `&` in a URL
 * (`curl http://h/e?q=a&n=0`) makes bash run curl in the background with the URL cut at the `&`
 * (what the import then converts, saying so).
 * Quoting follows words.ts (single and double quotes, `$'...'`, backslash escapes, `#` comments),
 * so an operator inside quotes is text. Source: bash's manual, "Pipelines", "Lists of Commands"
 * and "Redirections" (https://www.gnu.org/software/bash/manual/bash.html).
 */

/** The curl command itself, and what of the line bash would do with it besides. */
export interface ShellTail {
  /** The text up to the first pipe, redirection or list operator outside quotes. */
  command: string;
  /** The rest of the line from that operator (`| jq .`, `> out.json`), trimmed; absent when none. */
  dropped?: string;
  /**
   * The word holding an unquoted `&` between two characters (`a=1&b=2`), when there is one: bash
   * ends the command at that `&` (and runs it in the background), so `command` ends there too.
   */
  bareAmpersands: string[];
  /**
   * What bash would expand outside single quotes, as written: `$NAME`, `${...}`, `$(...)` (its
   * first word), `` `...` ``. The import keeps the text; bash sends the values.
   */
  expansions: string[];
}

/** An expansion starting at `line[i]` (`$` or a backquote), or undefined. */
function expansionAt(line: string, i: number): string | undefined {
  const m = /^(\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^}]*\}|\$\([^)\s]*|\$[0-9@*#?!$-]|`[^`]*`)/.exec(line.slice(i));
  if (!m) return undefined;
  return m[0].startsWith('$(') ? `${m[0]}...)` : m[0];
}

const BLANK = /[ \t\r\n]/;

/**
 * Find the end of the curl command in a pasted line: the first `|`, `>`, `<`, `;` or a `&` that
 * ends a word (`&`, `&&`) outside quotes. A file-descriptor number right before a redirection
 * (`2>/dev/null`) goes with it. A `&` inside a word (`?a=1&b=2`) does not cut; it is reported in
 * `bareAmpersands`, as bash's reading of it is rarely what the author meant.
 */
export function cutShellTail(line: string): ShellTail {
  const bare: string[] = [];
  const expansions: string[] = [];
  const expansion = (at: number) => {
    const e = expansionAt(line, at);
    if (e && !expansions.includes(e)) expansions.push(e);
  };
  let wordStart = -1;
  let i = 0;
  const n = line.length;
  const wordAt = (at: number) => {
    let s = at;
    while (s > 0 && !BLANK.test(line[s - 1]!)) s--;
    let e = at;
    while (e < n && !BLANK.test(line[e]!)) e++;
    return line.slice(s, e);
  };
  while (i < n) {
    const c = line[i]!;
    if (BLANK.test(c)) {
      wordStart = -1;
      i++;
      continue;
    }
    if (c === '\\') {
      if (wordStart < 0) wordStart = i;
      i += 2;
      continue;
    }
    if (c === '#' && wordStart < 0) {
      const nl = line.indexOf('\n', i);
      if (nl < 0) break;
      i = nl;
      continue;
    }
    if (c === "'" || c === '"' || (c === '$' && line[i + 1] === "'")) {
      if (wordStart < 0) wordStart = i;
      i = skipQuoted(line, c === '$' ? i + 1 : i, expansion);
      continue;
    }
    if (c === '$' || c === '`') expansion(i);
    if (c === '&' && wordStart >= 0 && i + 1 < n && !BLANK.test(line[i + 1]!) && line[i + 1] !== '&') {
      // bash ends the command here and runs it in the background: curl gets the word up to `&`.
      bare.push(wordAt(i));
      return { command: line.slice(0, i), dropped: line.slice(i).trim(), bareAmpersands: bare, expansions };
    }
    if (c === '|' || c === '>' || c === '<' || c === ';' || c === '&') {
      let cut = i;
      // `2>`, `2>>`, `2>&1`: the descriptor number is part of the redirection, not of a word.
      if (c === '>' || c === '<') {
        let s = i;
        while (s > 0 && /[0-9]/.test(line[s - 1]!)) s--;
        if (s === 0 || BLANK.test(line[s - 1]!)) cut = s;
      }
      return { command: line.slice(0, cut), dropped: line.slice(cut).trim(), bareAmpersands: bare, expansions };
    }
    if (wordStart < 0) wordStart = i;
    i++;
  }
  return { command: line, bareAmpersands: bare, expansions };
}

/** The index after the quoted part starting at `at` (`'`, `"` or the `'` of `$'`); past the end when unterminated. */
function skipQuoted(line: string, at: number, expansion: (at: number) => void): number {
  const q = line[at]!;
  const ansi = q === "'" && line[at - 1] === '$';
  let i = at + 1;
  while (i < line.length) {
    const d = line[i]!;
    if (d === q) return i + 1;
    if (q === '"' && (d === '$' || d === '`')) expansion(i);
    if (d === '\\' && (q === '"' || ansi)) i++;
    i++;
  }
  return i;
}
