// `sheet/fromCurl` over a real stdio pipe (`node engine/dist/engine.cjs --stdio`), as
// sheet-yank-curl (C-c C-y) asks it: the request text of curl's converter, its warnings naming
// the options left out, the separator of the target file's syntax, and the errors naming the
// option. docs/protocol.md "sheet/fromCurl".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { spawnEngine, type EngineProcess } from './helpers.js';

let engine: EngineProcess;

interface FromCurl { text: string; warnings: { message: string }[]; separator: string }
const fromCurl = (params: unknown) => engine.conn.sendRequest('sheet/fromCurl', params) as Promise<FromCurl>;

async function rpcError(p: Promise<unknown>): Promise<ResponseError<{ code: string; hint?: string }>> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ResponseError);
    return e as ResponseError<{ code: string; hint?: string }>;
  }
  throw new Error('expected the request to fail');
}

beforeAll(async () => {
  engine = spawnEngine();
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
});

afterAll(async () => {
  expect(await engine.close()).toBe(0);
});

describe('sheet/fromCurl', () => {
  it('converts a command, names what it leaves out, and gives the sheet separator', async () => {
    const r = await fromCurl({ command: `curl --max-time 5 -X POST -H 'Content-Type: application/json' \\\n  -d '{"a": 1}' http://127.0.0.1:9/x` });
    expect(r).toEqual({
      text: 'POST http://127.0.0.1:9/x\nContent-Type: application/json\n\n{"a": 1}\n',
      warnings: [{ message: expect.stringMatching(/^--max-time 5: not carried over \(it changes what curl does with the response/), differs: false }],
      separator: '#',
    });
  });

  it('gives ### for a .http file, or a file whose first line says sheet-syntax: http', async () => {
    expect((await fromCurl({ command: 'curl http://127.0.0.1:9/', path: '/x/a.http' })).separator).toBe('###');
    expect((await fromCurl({ command: 'curl http://127.0.0.1:9/', path: '/x/notes', text: '# -*- sheet-syntax: http -*-\n' })).separator).toBe('###');
    expect((await fromCurl({ command: 'curl http://127.0.0.1:9/', path: '/x/a.sheet' })).separator).toBe('#');
  });

  it('names the option it cannot write, and what is not a curl command', async () => {
    const e = await rpcError(fromCurl({ command: 'curl -X FOO http://127.0.0.1:9/' }));
    expect(e.message).toBe('-X FOO: a sheet request cannot use this method');
    expect(e.data?.code).toBe('bad-option');
    expect((await rpcError(fromCurl({ command: 'ls -l' }))).data?.code).toBe('bad-argument');
    expect((await rpcError(fromCurl({ command: 42 }))).message).toMatch(/params\.command must be a curl command line/);
  });
});
