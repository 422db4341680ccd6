/**
 * `sheet elisp-path`: the absolute path of the directory holding sheet-mode's Emacs Lisp
 * (`sheet-mode.el` and its parts), so an npm user can load the mode that came with the engine
 * (issue 37 item 12; docs/sheet-mode.md, "Install"):
 *
 *     (add-to-list 'load-path (string-trim (shell-command-to-string "sheet elisp-path")))
 *     (require 'sheet-mode)
 *
 * The same two layouts as `sheet shell-path` (shell-path.ts `packagedFile`): the npm package's
 * `<package>/elisp/` beside `<package>/dist` (`npm pack` copies it in), then a checkout's
 * `<repo>/elisp/`. The Elisp found there starts the engine beside it (elisp/sheet-install.el).
 */
import path from 'node:path';
import { installDirs, packagedFile } from './shell-path.js';

/**
 * Run `sheet elisp-path` (`args` without the subcommand): the directory on stdout.
 * @returns 0, or 2 on extra arguments or when sheet-mode.el is missing (a broken install).
 */
export function elispPathCommand(args: string[], io: { out: (s: string) => void; err: (s: string) => void }, dirs?: string[]): number {
  if (args.length) {
    io.err(`sheet elisp-path: takes no arguments (got ${args[0]})\nUsage: sheet elisp-path (the directory to add to Emacs's load-path)\n`);
    return 2;
  }
  const file = packagedFile('elisp/sheet-mode.el', dirs);
  if (!file) {
    io.err(`sheet elisp-path: elisp/sheet-mode.el is missing next to the engine (${(dirs ?? installDirs()).join(', ')})\nhint: reinstall the package (npm i -g sheet-rest), or use a checkout's elisp/ directory.\n`);
    return 2;
  }
  io.out(`${path.dirname(file)}\n`);
  return 0;
}
