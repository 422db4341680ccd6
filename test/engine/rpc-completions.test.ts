// sheet/completions over a real stdio pipe (issue 25 item 2, docs/protocol.md): the names
// sheet-mode's completion-at-point offers, in a sheet and in a .http file with an environment.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEngine, tempDir, type EngineProcess } from './helpers.js';

let engine: EngineProcess;
let dir: string;

type Result = {
  syntax: string;
  variables: { name: string; source: string; line?: number; args?: string }[];
  methods: string[];
  headers: string[];
  headerValues: Record<string, string[]>;
  hooks: { name: string }[];
};

beforeAll(async () => {
  dir = tempDir('rpc-completions-');
  fs.writeFileSync(path.join(dir, 'http-client.env.json'), JSON.stringify({ $shared: { host: 'http://h' }, dev: { apiKey: 'k' } }));
  engine = spawnEngine();
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
});

afterAll(async () => {
  expect(await engine.close()).toBe(0);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet/completions', () => {
  it('a sheet: the declarations above point, the overrides, methods, headers, values, hooks', async () => {
    await engine.conn.sendRequest('sheet/setVar', { name: ':token', value: 'x' });
    const text = ':base = http://h\n:user := (user-login-name)\n#\nGET :base/a\n#\n:later = 1\nGET :base/b\n';
    const r = (await engine.conn.sendRequest('sheet/completions', { text, line: 4 })) as Result;
    expect(r.syntax).toBe('sheet');
    expect(r.variables).toEqual([
      { name: ':user', source: 'declared', line: 2 },
      { name: ':base', source: 'declared', line: 1 },
      { name: ':token', source: 'override' },
    ]);
    expect(r.methods).toContain('PATCH');
    expect(r.methods).not.toContain('PROPFIND');
    expect(r.headers).toEqual(expect.arrayContaining(['Content-Type', 'Authorization', 'If-None-Match', 'Accept']));
    expect(r.headerValues['content-type']).toContain('application/json');
    expect(r.hooks.map((h) => h.name)).toEqual(expect.arrayContaining(['jq-set-var', 'run-hook', 'expect-status', 'expect-jq']));
    const below = (await engine.conn.sendRequest('sheet/completions', { text, line: 7 })) as Result;
    expect(below.variables.map((v) => v.name)).toContain(':later');
  });

  it('a .http file: file variables, overrides, the chosen environment, system variables', async () => {
    const text = '@path = /a\nGET {{host}}{{path}}\n';
    const file = path.join(dir, 'x.http');
    const r = (await engine.conn.sendRequest('sheet/completions', { text, line: 2, path: file, env: 'dev' })) as Result;
    expect(r.syntax).toBe('http');
    const names = r.variables.map((v) => `${v.source}:${v.name}`);
    expect(names.slice(0, 4)).toEqual(['declared:path', 'override:token', 'environment:host', 'environment:apiKey']);
    expect(r.variables).toContainEqual({ name: '$timestamp', source: 'system', args: '[offset unit]' });
    expect(r.variables).toContainEqual({ name: '$random.uuid', source: 'system' });
    expect(r.hooks).toEqual([]);
    // The methods a `.http` request line takes (http-file/parse.ts), not only a sheet's eight.
    expect(r.methods).toEqual(expect.arrayContaining(['GET', 'CONNECT', 'PROPFIND', 'MKCOL', 'UNLOCK', 'GRAPHQL']));
    // No environment chosen: only $shared; an unknown one is no error here.
    const none = (await engine.conn.sendRequest('sheet/completions', { text, line: 2, path: file })) as Result;
    expect(none.variables.map((v) => v.name)).not.toContain('apiKey');
    const bad = (await engine.conn.sendRequest('sheet/completions', { text, line: 2, path: file, env: 'nope' })) as Result;
    expect(bad.variables.map((v) => v.name)).toContain('$guid');
  });
});
