/**
 * Split one line of a per-host option file into words the way a POSIX shell would, without
 * running anything: blanks separate words; single quotes keep everything literally; double
 * quotes keep everything but `\"`, `\\`, `\$` and `` \` `` (backslash escapes); a backslash
 * outside quotes escapes the next character, and backslash-newline (in double quotes too) is a
 * line continuation, removed; `$'...'` (bash/zsh ANSI-C quoting) knows
 * \n \t \r \\ \' \" \xHH; a `#` at the start of a word starts a comment
 * to the end of the line. Variables and
 * command substitutions are NOT expanded (`$HOME` stays `$HOME`): these files hold options,
 * not programs.
 *
 * @throws EngineError `bad-argument` for an unterminated quote.
 */
import { EngineError } from '../errors.js';

export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  const n = line.length;
  const unterminated = (q: string) =>
    new EngineError('bad-argument', `unterminated ${q} in ${JSON.stringify(line)}`, { hint: `Close the ${q}.` });
  while (i < n) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      i++;
      continue;
    }
    if (c === '\\' && (line[i + 1] === '\n' || (line[i + 1] === '\r' && line[i + 2] === '\n'))) {
      // A line continuation: backslash-newline is removed, as in sh (a pasted multi-line command).
      i += line[i + 1] === '\n' ? 2 : 3;
      continue;
    }
    if (c === '#' && !inWord) {
      const nl = line.indexOf('\n', i);
      if (nl < 0) break;
      i = nl;
      continue;
    }
    inWord = true;
    if (c === '\\') {
      if (i + 1 < n) cur += line[i + 1];
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw unterminated('single quote');
      cur += line.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '$' && line[i + 1] === "'") {
      i += 2;
      let closed = false;
      while (i < n) {
        const d = line[i]!;
        if (d === "'") {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < n) {
          const e = line[i + 1]!;
          const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', e: '\x1b', '0': '\0' };
          if (e === 'x') {
            const m = /^[0-9a-fA-F]{1,2}/.exec(line.slice(i + 2));
            if (m) {
              cur += String.fromCharCode(parseInt(m[0], 16));
              i += 2 + m[0].length;
              continue;
            }
          }
          cur += simple[e] ?? '\\' + e;
          i += 2;
          continue;
        }
        cur += d;
        i++;
      }
      if (!closed) throw unterminated('$\' quote');
      continue;
    }
    if (c === '"') {
      i++;
      let closed = false;
      while (i < n) {
        const d = line[i]!;
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && line[i + 1] === '\n') {
          i += 2;
          continue;
        }
        if (d === '\\' && i + 1 < n && '"\\$`'.includes(line[i + 1]!)) {
          cur += line[i + 1];
          i += 2;
          continue;
        }
        cur += d;
        i++;
      }
      if (!closed) throw unterminated('double quote');
      continue;
    }
    cur += c;
    i++;
  }
  if (inWord) words.push(cur);
  return words;
}
