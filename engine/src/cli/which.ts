/** Finding a program on the caller's PATH (the daemon serves callers with different PATHs). */
import fs from 'node:fs';
import path from 'node:path';

/** Find an executable on `pathEnv`. */
export function which(cmd: string, pathEnv: string): string | undefined {
  for (const dir of pathEnv.split(':')) {
    if (!dir) continue;
    const f = path.join(dir, cmd);
    try {
      fs.accessSync(f, fs.constants.X_OK);
      if (fs.statSync(f).isFile()) return f;
    } catch {
      /* next */
    }
  }
  return undefined;
}

