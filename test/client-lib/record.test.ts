// @vitest-environment node
// elem.toCurl() / collection.toCurl() (engine/src/curl/to-curl.ts) and Client.record()/stop()
// (engine/src/sheet/write.ts): the curl command, run by real bash + curl, and the recorded
// sheet, run by `sheet run` (engine/bin/sheet), send what the library sends (/lib-echo's log).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '../../client-lib/src/node';
// @ts-expect-error plain JS fixture
import { startServer } from '../fixtures/server.mjs';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
let api: { url: string; close(): Promise<void> };
let dir: string;
beforeAll(async () => {
  api = await startServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-lib-record-'));
});
afterAll(async () => {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const log = async (): Promise<any[]> => (await fetch(api.url + '/lib-log')).json();

describe('toCurl', () => {
  it('an element gives its get, a collection its getList, an operation argument another request', async () => {
    const c = createClient({ baseUrl: api.url });
    c.setDefaultHeaders({ 'X-Trace': 'on' });
    const accounts: any = c.all('lib-echo').one('accounts', 7);
    expect(accounts.toCurl()).toBe(`curl -H 'X-Trace: on' -H 'Accept: application/json, text/plain, */*' ${api.url}/lib-echo/accounts/7`);
    expect(c.all('lib-echo').toCurl()).toBe(`curl -H 'X-Trace: on' -H 'Accept: application/json, text/plain, */*' ${api.url}/lib-echo`);
    accounts.name = "O'Brien";
    const put = accounts.toCurl('put');
    expect(put).toContain('-X PUT');
    expect(put).toContain(`--data-binary '{"id":7,"name":"O'\\''Brien"}'`);
    expect(() => accounts.toCurl('fly')).toThrow(/unknown operation 'fly'/);
    await log();
    // What the library sends, and what bash + curl send from the printed command, are the same.
    for (const op of ['get', 'put', 'remove'] as const) {
      if (op === 'get') await accounts.get({});
      else await accounts[op]();
      await run('bash', ['-c', accounts.toCurl(op) + ' > /dev/null']);
    }
    const seen = await log();
    expect(seen).toHaveLength(6);
    for (let i = 0; i < 6; i += 2) expect(seen[i + 1]).toEqual(seen[i]);
    expect(seen.map((s) => s.method)).toEqual(['GET', 'GET', 'PUT', 'PUT', 'DELETE', 'DELETE']);
  });
});

describe('record / stop', () => {
  it('gives sheet text that `sheet run` sends as the same requests', async () => {
    const c = createClient({ baseUrl: api.url });
    c.addResponseInterceptor((data: any, op: string) => (op === 'getList' ? [data] : data)); // /lib-echo answers an object
    await log();
    c.record();
    const coll: any = c.all('lib-echo');
    await coll.getList({ q: 'a b', tags: ['x', 'y'] });
    await coll.post({ name: 'Ada', note: 'line\nbreak' });
    const one: any = c.one('lib-echo', 3);
    one.name = 'Grace';
    await one.put(undefined, { 'X-Trace': 't1' });
    await c.withConfig((k: any) => k.setDefaultHeaders({ 'X-Trace': 'cfg' })).one('lib-echo', 4).remove();
    const text = c.stop();
    await coll.getList(); // after stop(): not recorded
    expect(c.stop()).toBe('');
    expect(text.split('\n#\n')).toHaveLength(5);
    expect(text).toContain(`GET ${api.url}/lib-echo?q=a+b&tags=x&tags=y\nAccept: application/json, text/plain, */*\n#\n`);
    expect(text).toContain(`POST ${api.url}/lib-echo\nContent-Type: application/json;charset=utf-8\nAccept: application/json, text/plain, */*\n\n{"name":"Ada","note":"line\\nbreak"}\n#\n`);
    const byLibrary = (await log()).slice(0, 4);
    const file = path.join(dir, 'recorded.sheet');
    fs.writeFileSync(file, text);
    const r = await run(process.execPath, [path.join(root, 'engine/bin/sheet'), 'run', file, '--no-color']);
    expect(r.stdout).toMatch(/4/);
    expect(await log()).toEqual(byLibrary);
  });
});
