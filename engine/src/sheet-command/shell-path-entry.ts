/**
 * The bundle entry of `sheet shell-path` alone (engine/dist/shell-path.cjs): the launcher
 * engine/bin/sheet loads it instead of the whole CLI, so `source "$(sheet shell-path)"` in a
 * shell's rc file costs a Node start and no more (issue 21; docs/shell.md, "Install").
 */
import { shellPathCommand } from './shell-path.js';

process.exitCode = shellPathCommand(process.argv.slice(3), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
});
