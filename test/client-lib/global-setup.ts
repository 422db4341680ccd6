// One temporary directory per vitest run, shared by the client-lib projects (AngularJS 1.5 and
// 1.8): helpers/once-per-run.ts writes there the results of the commands that do not depend on
// the project (type checks, attw), so they run once per run, not once per project. Both
// projects' global setups run in vitest's main process, so the directory is kept on globalThis
// and removed by the last teardown.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

const shared = globalThis as typeof globalThis & { clientLibRun?: { dir: string; users: number } };

export default function setup(project: TestProject): () => void {
  shared.clientLibRun ??= { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'client-lib-run-')), users: 0 };
  const run = shared.clientLibRun;
  run.users += 1;
  project.provide('clientLibRunDir', run.dir);
  return () => {
    run.users -= 1;
    if (run.users === 0) {
      fs.rmSync(run.dir, { recursive: true, force: true });
      shared.clientLibRun = undefined;
    }
  };
}
