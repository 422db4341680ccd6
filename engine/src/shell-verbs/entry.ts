/**
 * The shell verbs' own small bundle (engine/dist/rest-cli.cjs): the CLI without the JSON-RPC
 * server, so the direct mode and the daemon start faster than engine.cjs. Same commands as
 * `engine.cjs cli ...` (src/shell-verbs/main.ts).
 */
import { runCli } from './main.js';

void runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`rest: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exitCode = 8;
  },
);
