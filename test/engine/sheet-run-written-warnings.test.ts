// Issue 36 item 10 (the `sheet run` ones): an undefined `:name` in a sheet header was sent
// literally with no word (Flymake marks it), and replaying the shell's history.sheet sent its
// masked `Basic ****` and got 401 with no reason given. Both are now warnings under the request
// in `sheet run`, with the line and what to do. Real bin, the example API's echo on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';
import { historyEntry } from '../../engine/src/session/history.js';

let api: Api;
let dir: string;

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('sheet-run-written-');
}, 60000);

afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet run warns about the request as written', () => {
  it('an undefined :name in a header is named with its line; one given by --var or set by a hook above is not', async () => {
    fs.writeFileSync(
      path.join(dir, 'vars.sheet'),
      `GET ${api.url}/hf/login\n-> jq-set-var :tok .token\n#\nGET ${api.url}/hf/x\nX-Token: :tok\nX-Tenant: :tenant\nX-Region: :region\n`,
    );
    const r = await runSheet(['run', 'vars.sheet', '--var', ':region=eu'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.out).toContain('warning: line 6: :tenant is not a declared variable; it is sent as written');
    expect(r.out).not.toMatch(/:tok is not|:region is not/);
  });

  it('a history.sheet entry with a masked credential says it was masked and how to supply it', async () => {
    const entry = historyEntry({ method: 'GET', url: `${api.url}/hf/me`, headers: [['Authorization', 'Basic YWRhOnNlY3JldA==']] }, { secrets: false });
    expect(entry).toContain('Authorization: Basic ****');
    fs.writeFileSync(path.join(dir, 'history.sheet'), entry);
    const r = await runSheet(['run', 'history.sheet'], { cwd: dir });
    expect(r.out).toMatch(/warning: line \d+: the Authorization header is "Basic \*\*\*\*": the shell history masked this credential when it recorded the call, and it was sent as written; put the credential in its place \(or a variable: Authorization: Basic :auth, and sheet run --var :auth=\.\.\.\), or record the history with REST_HISTORY_SECRETS=1/);
  });
});
