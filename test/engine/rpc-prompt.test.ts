// `# @prompt name [description]` in `.http` files over a real stdio pipe, as sheet-mode asks:
// sheet/outline lists a request's prompts, sheet/curl and sheet/send take the answers as
// `prompts` (first in `{{name}}` lookup, over an override), an unanswered prompt is a located
// error, a bad `prompts` is `bad-argument`. docs/protocol.md, docs/http-files.md.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { spawnEngine, tempDir, type EngineProcess } from './helpers.js';

let engine: EngineProcess;
let dir: string;
let file: string;

const TEXT = `GET http://127.0.0.1:9/open

###
# @prompt user The user name
# @prompt password
GET http://127.0.0.1:9/login?u={{user}}&p={{password}}
`;

async function rpcError(p: Promise<unknown>): Promise<ResponseError<{ code: string; line?: number }>> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ResponseError);
    return e as ResponseError<{ code: string; line?: number }>;
  }
  throw new Error('expected the request to fail');
}

const curl = async (params: Record<string, unknown>) =>
  ((await engine.conn.sendRequest('sheet/curl', { text: TEXT, line: 6, path: file, ...params })) as { command: string }).command;

beforeAll(async () => {
  dir = tempDir('rpc-prompt-');
  file = path.join(dir, 'p.http');
  engine = spawnEngine();
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
});

afterAll(async () => {
  expect(await engine.close()).toBe(0);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('# @prompt over the protocol', () => {
  it('sheet/outline lists the prompts of the requests that have them', async () => {
    const o = (await engine.conn.sendRequest('sheet/outline', { text: TEXT, path: file })) as { requests: { line: number; prompts?: unknown }[] };
    expect(o.requests[0]!.prompts).toBeUndefined();
    expect(o.requests[1]!.prompts).toEqual([
      { name: 'user', description: 'The user name', line: 4 },
      { name: 'password', description: '', line: 5 },
    ]);
  });

  it('the answers are used, before an override; a missing one is a located error', async () => {
    expect(await curl({ prompts: { user: 'ada', password: 's3 cret' } })).toBe("curl -X GET 'http://127.0.0.1:9/login?u=ada&p=s3%20cret'");
    const e = await rpcError(curl({ prompts: { user: 'ada' } }));
    expect(e.data?.code).toBe('bad-argument');
    expect(e.data?.line).toBe(5);
    expect(e.message).toBe('line 5: # @prompt password needs a value');
    await engine.conn.sendRequest('sheet/setVar', { name: ':password', value: 'from-override' });
    expect(await curl({ prompts: { user: 'ada' } })).toContain('p=from-override');
    expect(await curl({ prompts: { user: 'ada', password: 'answered' } })).toContain('p=answered');
  });

  it('prompts must be an object of strings', async () => {
    const e = await rpcError(curl({ prompts: ['ada'] }));
    expect(e.message).toMatch(/params\.prompts must map each # @prompt name/);
    expect((await rpcError(curl({ prompts: { user: 1 } }))).data?.code).toBe('bad-argument');
  });
});
