/**
 * The options of the shell verbs themselves (docs/shell.md, "Options of the verbs"), taken out
 * of the words before the curl options are parsed (src/curl/options.ts):
 *
 *   -Q                 send the path as written
 *   -q QUERY           append `?QUERY` (several: joined with `&`)
 *   -Z                 do not render HTML
 *   --dry-run          print the curl command, send nothing
 *   --sheet            print the request as sheet text (docs/sheet-format.md), send nothing
 *
 * and the words shell/rest adds on its own (never typed by a user, documented for tests):
 *
 *   --rest-env NAME           the environment chosen with `rest --env NAME` (src/shell-verbs/env.ts)
 *   --rest-history FILE       REST_HISTORY=1: append the request to FILE (src/session/history.ts)
 *   --rest-history-secrets    REST_HISTORY_SECRETS=1: do not mask credentials in FILE
 *   --rest-paths FILE         the per-host path history for completion (src/session/history.ts)
 */
import { EngineError } from '../errors.js';
import { takesNextWord } from '../curl/options.js';

export interface RestFlags {
  raw: boolean;
  queries: string[];
  noHtml: boolean;
  dryRun: boolean;
  sheet: boolean;
  env?: string;
  historyFile?: string;
  historySecrets: boolean;
  pathsFile?: string;
}

/** The flags with a value: the word after them is theirs. */
const WITH_VALUE: Record<string, (f: RestFlags, v: string) => void> = {
  '-q': (f, v) => void f.queries.push(v),
  '--rest-env': (f, v) => void (f.env = v),
  '--rest-history': (f, v) => void (f.historyFile = v),
  '--rest-paths': (f, v) => void (f.pathsFile = v),
};

/**
 * Split the verb's own flags from the curl options.
 * @throws EngineError `bad-option` when a flag that takes a value ends the words.
 */
export function takeRestFlags(words: string[]): { flags: RestFlags; rest: string[] } {
  const flags: RestFlags = { raw: false, queries: [], noHtml: false, dryRun: false, sheet: false, historySecrets: false };
  const rest: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-Q') flags.raw = true;
    else if (w === '-Z') flags.noHtml = true;
    else if (w === '--dry-run') flags.dryRun = true;
    else if (w === '--sheet') flags.sheet = true;
    else if (w === '--rest-history-secrets') flags.historySecrets = true;
    else if (WITH_VALUE[w]) {
      if (i + 1 >= words.length) {
        throw new EngineError('bad-option', `${w} needs a value`, { hint: w === '-q' ? "Write -q 'name=value&other=x'." : 'This option is added by shell/rest; see docs/shell.md.' });
      }
      WITH_VALUE[w]!(flags, words[++i]!);
    } else {
      rest.push(w);
      // The argument of a curl option is data, even when it looks like -Q or -Z.
      if (takesNextWord(w) && i + 1 < words.length) rest.push(words[++i]!);
    }
  }
  return { flags, rest };
}
