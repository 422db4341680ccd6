// sheet/send's `jq` (docs/protocol.md; Org Babel's `:jq`): the filter's output beside the
// response, a jq error in `jq.error` with the send still answered, and a malformed `jq`
// field refused as bad-argument. Real engine bundle, real example API, real jq.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseError } from 'vscode-jsonrpc/node.js';
import { spawnEngine, startApi, type EngineProcess } from './helpers.js';

let engine: EngineProcess;
let api: Awaited<ReturnType<typeof startApi>>;

beforeAll(async () => {
  api = await startApi();
  engine = spawnEngine();
  await engine.conn.sendRequest('initialize', { clientName: 'test' });
});

afterAll(async () => {
  expect(await engine.close()).toBe(0);
  await api.close();
});

type Answer = { response: { status: number }; jq?: { output?: string; error?: string } };
const send = (jq: unknown): Promise<Answer> =>
  engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/users\n`, line: 1, jq }) as Promise<Answer>;

describe('sheet/send jq', () => {
  it('answers the output with the response', async () => {
    const r = await send({ filter: '.[1].name', args: [] });
    expect(r.response.status).toBe(200);
    expect(r.jq).toEqual({ output: '"Alan Turing"' });
    expect((await send({ filter: '.[1].name', args: ['-r'] })).jq).toEqual({ output: 'Alan Turing' });
  });

  it('answers a jq error without failing the send', async () => {
    const r = await send({ filter: '.[', args: [] });
    expect(r.response.status).toBe(200);
    expect(r.jq?.error).toMatch(/^jq \.\[: .*syntax error/s);
  });

  it('is absent when not asked', async () => {
    const r = (await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/users\n`, line: 1 })) as Answer;
    expect(r).not.toHaveProperty('jq');
  });

  for (const bad of [{ filter: 3 }, { filter: '.', args: '-r' }, { filter: '.', args: [1] }, 'x']) {
    it(`refuses jq ${JSON.stringify(bad)}`, async () => {
      const e = await send(bad).catch((x: ResponseError<{ code: string }>) => x);
      expect((e as ResponseError<{ code: string }>).data?.code).toBe('bad-argument');
      expect((e as Error).message).toMatch(/params\.jq must be/);
    });
  }
});
