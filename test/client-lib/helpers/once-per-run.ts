import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { inject } from 'vitest';

/** What a command printed and how it ended, as spawnSync reports it. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  /** The exit code; null when a signal ended it. */
  status: number | null;
}

/** One command of a file's list: a name unique within the run (the file name in the result) and its argv. */
export interface SharedCommand {
  key: string;
  argv: string[];
  cwd: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory of this vitest run where shared command results are written (test/client-lib/global-setup.ts). */
    clientLibRunDir: string;
  }
}

function runOnce(cmd: SharedCommand, resultFile: string): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(cmd.argv[0], cmd.argv.slice(1), { cwd: cmd.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const finish = (status: number | null, extra = '') => {
      const tmp = `${resultFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ stdout, stderr: stderr + extra, status }));
      fs.renameSync(tmp, resultFile);
      resolve();
    };
    child.on('error', (e) => finish(null, `\ncould not start ${cmd.argv[0]}: ${e.message}`));
    child.on('close', (code) => finish(code));
  });
}

function waitForFile(file: string): Promise<void> {
  return new Promise((resolve) => {
    if (fs.existsSync(file)) return resolve();
    const watcher = fs.watch(path.dirname(file), () => {
      if (fs.existsSync(file)) {
        watcher.close();
        resolve();
      }
    });
    // The file may have been renamed into place between the check and the watch.
    if (fs.existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

/**
 * Runs commands whose result does not depend on the vitest project (a `tsc -p`, an `attw
 * --pack`) once per vitest run, however many projects include the test file: the client-lib
 * files run under AngularJS 1.5 and 1.8 (two projects), and a type check is the same under
 * both. The first test to ask for a command claims it (an exclusive lock file in the run's
 * directory, `inject('clientLibRunDir')`) and runs it; a test of the other project asking for it
 * waits for the result file the runner renames into place, and reads the same result.
 * @returns a function giving a command's result by key (a promise).
 * @throws (from the function, rejected) when the key is not in the list.
 */
export function sharedCommands(commands: SharedCommand[]): (key: string) => Promise<CommandResult> {
  const dir = inject('clientLibRunDir');
  return async (key) => {
    const cmd = commands.find((c) => c.key === key);
    if (!cmd) throw new Error(`sharedCommands: no command named ${key}`);
    const resultFile = path.join(dir, `${key}.json`);
    let claimed = false;
    try {
      fs.closeSync(fs.openSync(path.join(dir, `${key}.lock`), 'wx'));
      claimed = true;
    } catch {
      // another project's test runs it
    }
    if (claimed) await runOnce(cmd, resultFile);
    else await waitForFile(resultFile);
    return JSON.parse(fs.readFileSync(resultFile, 'utf8')) as CommandResult;
  };
}
