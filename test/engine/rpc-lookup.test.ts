// `lookup: true` on sheet/variables and sheet/curl (issue 25 item 3, docs/protocol.md): the
// look-ups behind Eldoc evaluate no `:=` form and run no `.http` pre-request script; sheet/curl
// gives the URL after substitution.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { spawnEngine, tempDir, type EngineProcess } from './helpers.js';

let engine: EngineProcess;
let dir: string;
let evals = 0;

beforeAll(async () => {
  dir = tempDir('rpc-lookup-');
  engine = spawnEngine();
  engine.conn.onRequest('lisp/eval', () => {
    evals++;
    return { value: 'from-lisp' };
  });
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: true });
});

afterAll(async () => {
  expect(await engine.close()).toBe(0);
  fs.rmSync(dir, { recursive: true, force: true });
});

const TEXT = ':base = http://h\n:id = 7\n:who := (user-login-name)\n#\nGET :base/users/:id\n#\nGET :base/:who\n';

describe('lookup', () => {
  it('sheet/variables: values without evaluating := forms', async () => {
    const r = (await engine.conn.sendRequest('sheet/variables', { text: TEXT, line: 5, lookup: true })) as { variables: { name: string; value?: string; error?: string }[] };
    expect(r.variables).toContainEqual(expect.objectContaining({ name: ':id', value: '7' }));
    expect(r.variables).toContainEqual(expect.objectContaining({ name: ':who', error: 'Lisp value: evaluated only in Emacs' }));
    expect(evals).toBe(0);
    await engine.conn.sendRequest('sheet/variables', { text: TEXT, line: 5 });
    expect(evals).toBe(1);
  });

  it('sheet/curl: the URL after substitution; a Lisp reference is lisp-unavailable, not evaluated', async () => {
    evals = 0;
    const r = (await engine.conn.sendRequest('sheet/curl', { text: TEXT, line: 5, lookup: true })) as { url: string; command: string };
    expect(r.url).toBe('http://h/users/7');
    await expect(engine.conn.sendRequest('sheet/curl', { text: TEXT, line: 7, lookup: true })).rejects.toSatisfy((e: ResponseError<{ code: string }>) => e.data?.code === 'lisp-unavailable');
    expect(evals).toBe(0);
    const l = (await engine.conn.sendRequest('sheet/curl', { text: TEXT, line: 7 })) as { url: string };
    expect(l.url).toBe('http://h/from-lisp');
  });

  it('.http: no pre-request script runs in a look-up', async () => {
    const file = path.join(dir, 'x.http');
    const text = '< {%\n  request.variables.set("n", "script");\n%}\nGET http://h/{{n}}\n';
    const r = (await engine.conn.sendRequest('sheet/curl', { text, line: 4, path: file })) as { url: string };
    expect(r.url).toBe('http://h/script');
    const e = await engine.conn.sendRequest('sheet/curl', { text, line: 4, path: file, lookup: true }).catch((x: ResponseError<{ code: string }>) => x);
    expect((e as ResponseError<{ code: string }>).data?.code).toBe('unknown-variable');
  });
});
