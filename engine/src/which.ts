/**
 * Finding a program on a PATH: the one PATH lookup of the engine (curl and lynx for the shell
 * verbs, jq for hooks, Emacs for `sheet run`). The daemon serves callers with different PATHs,
 * so the PATH is a parameter.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Find an executable regular file named `cmd` in the directories of `pathEnv` (`:`-separated,
 * empty entries skipped), as a shell's command search does (POSIX, "Command Search and
 * Execution"). A `cmd` holding a `/` is taken as a path and only checked.
 *
 * @returns the absolute (or given) path, or undefined when there is none.
 */
export function which(cmd: string, pathEnv: string = process.env.PATH ?? ''): string | undefined {
  const executable = (f: string) => {
    try {
      fs.accessSync(f, fs.constants.X_OK);
      return fs.statSync(f).isFile();
    } catch {
      return false;
    }
  };
  if (cmd.includes('/')) return executable(cmd) ? cmd : undefined;
  for (const dir of pathEnv.split(path.delimiter)) {
    if (!dir) continue;
    const f = path.join(dir, cmd);
    if (executable(f)) return f;
  }
  return undefined;
}
