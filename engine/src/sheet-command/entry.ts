/** The bundle entry of engine/bin/sheet (engine/dist/sheet.cjs): `sheet` with the process's argv and stdio. */
import { main } from './cli.js';
import { readAll } from './import-curl-cli.js';
import { terminalAsker } from './prompts.js';
import { containStrayErrors } from '../call-scope.js';

// An error a library throws outside our awaits fails that request, not the run (src/call-scope.ts).
containStrayErrors('sheet');

main(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  isTTY: !!process.stdout.isTTY,
  env: process.env,
  stdin: () => readAll(process.stdin),
  // `# @prompt` on a terminal: questions on stderr, so stdout stays the run's (or TAP's).
  // Ctrl-C at a question ends the run with status 130, as SIGINT does in a shell (a signal
  // raised on ourselves is not enough: the bundled signal-exit, proper-lockfile's, keeps a
  // SIGINT listener that may not re-raise it); `exit` handlers still release locks.
  // Ctrl-C during a run: the reports of what ran are written whole, then status 130; a
  // second Ctrl-C while they are written ends at once.
  onInterrupt: (fn) => {
    let writing = false;
    process.on('SIGINT', () => {
      if (writing) process.exit(130);
      writing = true;
      fn().finally(() => process.exit(130));
    });
  },
  ask: process.stdin.isTTY && process.stderr.isTTY ? terminalAsker(process.stdin, process.stderr, () => process.exit(130)) : undefined,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`sheet: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exitCode = 2;
  },
);
