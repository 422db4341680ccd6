/** The bundle entry of engine/bin/sheet (engine/dist/sheet.cjs): `sheet` with the process's argv and stdio. */
import { main } from './cli.js';
import { readAll } from './import-curl-cli.js';
import { terminalAsker } from './prompts.js';
import { containStrayErrors } from '../call-scope.js';
import { stopJqServers } from '../hooks/jq-server.js';
import { batchedOut } from './batched-out.js';

// An error a library throws outside our awaits fails that request, not the run (src/call-scope.ts).
containStrayErrors('sheet');

/** What the run does when it is stopped (cli.ts's `onInterrupt`): write the reports of what ran. */
let stopRun: (() => Promise<void>) | undefined;
/** Status when stdout or stderr is closed: 128 + SIGPIPE, as a shell shows for `yes | head -1`. */
const CLOSED_OUTPUT = 141;
let outputClosed = false;
// A closed stdout or stderr (`sheet run F | head -1`, issue 36 item 2) ends the run quietly, as
// curl and hurl end: no more requests, the file reports of what ran written, the jq children
// stopped, status 141. Without this, every later write failed with an EPIPE stack trace, and with
// both streams closed (`2>&1 | head`) the trace's own write failed again, for ever.
const closed = () => {
  if (outputClosed) return;
  outputClosed = true;
  stopJqServers();
  void (stopRun ?? (async () => undefined))()
    .catch(() => undefined)
    .finally(() => {
      stopJqServers();
      process.exit(CLOSED_OUTPUT);
    });
};
process.stdout.on('error', closed);
process.stderr.on('error', closed);
// stdout in batches (a line per request was a write per request); stderr flushes it first.
const stdout = batchedOut((s) => void process.stdout.write(s), () => outputClosed);
const asker = process.stdin.isTTY && process.stderr.isTTY ? terminalAsker(process.stdin, process.stderr, () => process.exit(130)) : undefined;

main(process.argv.slice(2), {
  out: stdout.out,
  err: (s) => {
    stdout.flush();
    if (!outputClosed) process.stderr.write(s);
  },
  isTTY: !!process.stdout.isTTY,
  env: process.env,
  stdin: () => readAll(process.stdin),
  // `# @prompt` on a terminal: questions on stderr, so stdout stays the run's (or TAP's).
  // Ctrl-C at a question ends the run with status 130, as SIGINT does in a shell (a signal
  // raised on ourselves is not enough: the bundled signal-exit, proper-lockfile's (loaded at the
  // first cookie file save), keeps a SIGINT listener that may not re-raise it); `exit` handlers
  // still release locks.
  // Ctrl-C during a run: the reports of what ran are written whole, then status 130; a
  // second Ctrl-C while they are written ends at once.
  onInterrupt: (fn) => {
    stopRun = fn;
    let writing = false;
    process.on('SIGINT', () => {
      if (writing) process.exit(130);
      writing = true;
      fn().finally(() => process.exit(130));
    });
  },
  ask: asker && ((q) => (stdout.flush(), asker(q))),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    stdout.flush();
    process.stderr.write(`sheet: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exitCode = 2;
  },
);
