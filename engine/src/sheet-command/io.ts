/**
 * Where the `sheet` command's output goes and what it reads (cli.ts and the subcommands'
 * files): injectable for tests. Its own file so the subcommands need not import cli.ts.
 */
import type { Ask } from './prompts.js';

/** Where output goes: injectable for tests. */
export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** Standard input, whole (`sheet import-curl -`, `--prompts-from -`); absent: none to read. */
  stdin?: () => Promise<string>;
  /** Asks a `# @prompt` on the terminal (entry.ts: when stdin and stderr are terminals); absent: no terminal. */
  ask?: Ask;
  /** Calls `fn` on Ctrl-C (SIGINT), then ends the process with status 130 (entry.ts); absent: not caught. */
  onInterrupt?: (fn: () => Promise<void>) => void;
}
