// The protocol's `.http` parts over a real stdio pipe (`node engine/dist/engine.cjs --stdio`,
// built by global-setup.ts), as sheet-mode speaks them: `path` picks the syntax in
// sheet/outline and sheet/variables, `env` in sheet/send and sheet/curl, sheet/environments,
// handler tests as assertions, client.global.set as the override `:name`, sheet/setVar
// answering `{{name}}` and `# @prompt`, and the errors (unknown env, unanswered prompt,
// bad environment JSON, bad params). docs/protocol.md, docs/http-files.md.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { spawnEngine, startApi, tempDir, type Api, type EngineProcess } from './helpers.js';

let api: Api;
let engine: EngineProcess;
let dir: string;
let file: string;

const TEXT = `@p = /hf/rpc
# @name first
GET {{host}}{{p}}?who={{who}}

> {%
  client.test("ok", function () { client.assert(response.status === 200, "status"); });
  client.global.set("tok", response.body.token);
%}

###
# @prompt code
GET {{host}}{{p}}/next?tok={{tok}}&code={{code}}&id={{first.response.body.$.id}}
`;

async function rpcError(p: Promise<unknown>): Promise<ResponseError<{ code: string; hint?: string; line?: number }>> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ResponseError);
    return e as ResponseError<{ code: string; hint?: string; line?: number }>;
  }
  throw new Error('expected the request to fail');
}

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('rpc-http-');
  fs.writeFileSync(path.join(dir, 'http-client.env.json'), JSON.stringify({ $shared: { host: api.url }, a: { who: 'ann' }, b: { who: 'bea' } }));
  file = path.join(dir, 'x.http');
  engine = spawnEngine();
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
});

afterAll(async () => {
  expect(await engine.close()).toBe(0);
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('.http over the protocol', () => {
  it('sheet/outline and sheet/variables read the .http syntax when path says so', async () => {
    const o = (await engine.conn.sendRequest('sheet/outline', { text: TEXT, path: file })) as { requests: { method: string; line: number }[]; variables: { name: string }[] };
    expect(o.requests.map((r) => [r.method, r.line])).toEqual([['GET', 3], ['GET', 12]]);
    expect(o.variables.map((v) => v.name)).toEqual(['p']);
    // Without path: the sheet syntax, where `@p = ...` is no declaration.
    const s = (await engine.conn.sendRequest('sheet/outline', { text: TEXT })) as { variables: unknown[] };
    expect(s.variables).toEqual([]);
    const v = (await engine.conn.sendRequest('sheet/variables', { text: TEXT, line: 3, path: file })) as { variables: { name: string; value?: string }[] };
    expect(v.variables).toContainEqual(expect.objectContaining({ name: 'p', value: '/hf/rpc' }));
  });

  it('sheet/environments lists the names found above the file', async () => {
    expect(await engine.conn.sendRequest('sheet/environments', { path: file })).toEqual({ names: ['a', 'b'], files: [path.join(dir, 'http-client.env.json')] });
    const e = await rpcError(engine.conn.sendRequest('sheet/environments', { path: 42 }));
    expect(e.data?.code).toBe('bad-argument');
  });

  it('sheet/curl and sheet/send use env; handler tests are assertions; globals, named requests and setVar carry', async () => {
    const c = (await engine.conn.sendRequest('sheet/curl', { text: TEXT, line: 3, path: file, env: 'b' })) as { command: string };
    expect(c.command).toContain('who=bea');
    const r = (await engine.conn.sendRequest('sheet/send', { text: TEXT, line: 3, path: file, env: 'a' })) as { request: { url: string }; hooks: { setVars: { name: string; value: string }[]; assertions: { name: string; args: string; passed: boolean; line: number }[] } };
    expect(r.request.url).toBe(`${api.url}/hf/rpc?who=ann`);
    // client.global.set is reported as jq-set-var is (a client that keeps overrides sees it).
    expect(r.hooks.setVars).toEqual([{ name: ':tok', value: 'abc123' }]);
    expect(r.hooks.assertions).toEqual([expect.objectContaining({ name: 'client.test', args: 'ok', passed: true, line: 5 })]);
    const v = (await engine.conn.sendRequest('sheet/variables', { text: TEXT, line: 3, path: file })) as { overrides: { name: string; value: string }[] };
    expect(v.overrides).toContainEqual({ name: ':tok', value: 'abc123' });
    // The prompt is unanswered: a located error naming it, nothing sent.
    const e = await rpcError(engine.conn.sendRequest('sheet/send', { text: TEXT, line: 12, path: file, env: 'a' }));
    expect(e.data?.code).toBe('bad-argument');
    expect(e.data?.line).toBe(11);
    expect(e.message).toContain('# @prompt code');
    await engine.conn.sendRequest('sheet/setVar', { name: ':code', value: '99' });
    const r2 = (await engine.conn.sendRequest('sheet/send', { text: TEXT, line: 12, path: file, env: 'a' })) as { request: { url: string } };
    expect(r2.request.url).toBe(`${api.url}/hf/rpc/next?tok=abc123&code=99&id=7`);
  });

  it('{{X}} is not defined with no environment chosen says so, lists the environments and how to choose one', async () => {
    for (const method of ['sheet/send', 'sheet/curl']) {
      const e = await rpcError(engine.conn.sendRequest(method, { text: TEXT, line: 3, path: file }));
      expect(e.data?.code).toBe('unknown-variable');
      expect(e.data?.line).toBe(3);
      expect(e.message).toBe('line 3: {{who}} is not defined, and no environment is chosen (a, b)');
      expect(e.data?.hint).toMatch(/^Choose an environment \(C-c C-e in Emacs, --env NAME for sheet run\), or: Declare it/);
    }
    // With an environment chosen the message is as before.
    const e = await rpcError(engine.conn.sendRequest('sheet/send', { text: TEXT.replace('{{who}}', '{{nobody}}'), line: 3, path: file, env: 'a' }));
    expect(e.message).toBe('line 3: {{nobody}} is not defined');
  });

  it('an unknown env is bad-environment listing the names; a bad env file is located', async () => {
    const e = await rpcError(engine.conn.sendRequest('sheet/send', { text: TEXT, line: 3, path: file, env: 'zz' }));
    expect(e.data?.code).toBe('bad-environment');
    expect(e.data?.hint).toBe('Choose one of: a, b.');
    const bad = path.join(dir, 'bad');
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, 'http-client.env.json'), '{\n  "a": {\n}}}');
    const e2 = await rpcError(engine.conn.sendRequest('sheet/environments', { path: path.join(bad, 'y.http') }));
    expect(e2.data?.code).toBe('bad-environment');
  });
});
