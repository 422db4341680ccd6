/**
 * `sheet shell-path`: the absolute path of the shell verbs' file (`rest`, for bash and zsh), so
 * `source "$(sheet shell-path)"` works wherever the engine lives (docs/shell.md, "Install").
 *
 * Two layouts, tried in this order from the bundle's directory (`dist/`) and from the
 * launcher's (`bin/`, through symlinks: npm links PREFIX/bin/sheet to it):
 * - the npm package: `<package>/shell/rest` beside `<package>/dist` (`npm pack` copies it in);
 * - a checkout: `<repo>/shell/rest`, two levels above `engine/dist`.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The directories `sheet` runs from: the bundle's and the launcher's (symlinks resolved). */
export function installDirs(argv1: string | undefined = process.argv[1]): string[] {
  const dirs: string[] = [];
  if (typeof __dirname === 'string') dirs.push(__dirname);
  if (argv1) {
    try {
      dirs.push(path.dirname(fs.realpathSync(argv1)));
    } catch {
      // no launcher file (e.g. node -e): the bundle's directory is enough
    }
  }
  return dirs;
}

/**
 * The first existing file `rel` (e.g. `shell/rest`) of the package or the checkout `sheet` runs
 * from, as an absolute path; undefined when neither has it.
 */
export function packagedFile(rel: string, dirs: string[] = installDirs()): string | undefined {
  for (const d of dirs) {
    for (const up of ['..', '../..']) {
      const p = path.resolve(d, up, rel);
      if (fs.existsSync(p) && fs.statSync(p).isFile()) return p;
    }
  }
  return undefined;
}

/**
 * Run `sheet shell-path` (`args` without the subcommand): the path on stdout.
 * @returns 0, or 2 on extra arguments or when the file is missing (a broken install).
 */
export function shellPathCommand(args: string[], io: { out: (s: string) => void; err: (s: string) => void }, dirs?: string[]): number {
  if (args.length) {
    io.err(`sheet shell-path: takes no arguments (got ${args[0]})\nUsage: source "$(sheet shell-path)"\n`);
    return 2;
  }
  const file = packagedFile('shell/rest', dirs);
  if (!file) {
    io.err(`sheet shell-path: shell/rest is missing next to the engine (${(dirs ?? installDirs()).join(', ')})\nhint: reinstall the package (npm i -g sheet-rest), or run make build in a checkout.\n`);
    return 2;
  }
  io.out(`${file}\n`);
  return 0;
}
