// `sheet export --to postman` (issue 42 item 3): real collections of newman's repository
// (test/fixtures/imports/postman/README.md) imported with `sheet import`, exported back, and
// run by newman: the exported collection sends what the original sends (method, URL, the
// headers the collection set, body) to a recording server on 127.0.0.1. Also the folders come
// back, `--env` writes a Postman environment with secrets marked, and bad usage writes nothing.
import fs from 'node:fs';
import path from 'node:path';
import newman from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
import { startRecordingServer, type Recorded, type RecordingServer } from './recording-server.js';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/imports/postman');
const OWN = new Set(['host', 'connection', 'content-length', 'user-agent', 'accept', 'accept-encoding', 'postman-token', 'cache-control', 'transfer-encoding']);
let rec: RecordingServer;
let base = '';
let dir: string;

beforeAll(async () => {
  dir = tempDir('export-postman-');
  rec = await startRecordingServer({ own: OWN, answer: '{"ok": true}' });
  base = rec.base;
});

afterAll(async () => {
  await rec.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function copy(name: string): string {
  const to = path.join(dir, name);
  fs.writeFileSync(to, fs.readFileSync(path.join(FIXTURES, name), 'utf8').replace(/https:\/\/(postman-echo\.com|echo\.getpostman\.com)/g, base));
  return to;
}

async function viaNewman(collection: unknown, environment?: unknown, vars: Record<string, string> = {}): Promise<Recorded[]> {
  rec.reset();
  await new Promise<void>((resolve, reject) => newman.run({ collection: collection as never, environment: environment as never, envVar: Object.entries(vars).map(([key, value]) => ({ key, value })), reporters: [] }, (e) => (e ? reject(e) : resolve())));
  return rec.recorded;
}

describe('sheet export --to postman', () => {
  it.each([
    ['sample-collection.json', {}],
    ['multi-level-folders-v2.postman_collection.json', {}],
    ['esc-formdata.postman_collection.json', { msg: 'hello world', msg1: 'hello' }],
    ['inherited-entities.postman_collection.json', {}],
  ] as [string, Record<string, string>][])('%s: imported, exported, run by newman: the same requests', async (name, vars) => {
    const original = copy(name);
    const expected = await viaNewman(JSON.parse(fs.readFileSync(original, 'utf8')), undefined, vars);
    const out = `out-${name}`;
    const imp = await runSheet(['import', name, '-o', out], { cwd: dir });
    expect(imp.code).not.toBe(2);
    const httpFile = fs.readdirSync(path.join(dir, out)).find((f) => f.endsWith('.http'))!;
    const exp = await runSheet(['export', '--to', 'postman', path.join(out, httpFile), '-o', `${out}.json`], { cwd: dir });
    expect(exp.code, exp.err).not.toBe(2);
    const exported = JSON.parse(fs.readFileSync(path.join(dir, `${out}.json`), 'utf8'));
    expect(exported.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    // The import moved literal secrets to the private file: Postman gets them as an environment.
    const priv = path.join(dir, out, 'http-client.private.env.json');
    const secrets = fs.existsSync(priv) ? JSON.parse(fs.readFileSync(priv, 'utf8')).$shared : {};
    expect(await viaNewman(exported, undefined, { ...secrets, ...vars })).toEqual(expected);
  });

  it('folders come back from the ### titles; --env writes a Postman environment, private values secret', async () => {
    fs.mkdirSync(path.join(dir, 'envs'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'envs/api.http'), '@base = http://127.0.0.1:9\n\n### Users / List\n# @name list\nGET {{base}}/users\n\n### Users / Admin / Create\nPOST {{base}}/users\nAuthorization: Basic ada:{{pw}}\nContent-Type: application/x-www-form-urlencoded\n\nname=Ada%20L&role=admin\n');
    fs.writeFileSync(path.join(dir, 'envs/http-client.env.json'), JSON.stringify({ dev: { base: 'http://127.0.0.1:1' }, $shared: { x: '1' } }));
    fs.writeFileSync(path.join(dir, 'envs/http-client.private.env.json'), JSON.stringify({ dev: { pw: 'secret' } }));
    const r = await runSheet(['export', '--to', 'postman', 'envs/api.http', '-o', 'envs/api.postman_collection.json', '--env', 'dev'], { cwd: dir });
    expect([r.code, r.err]).toEqual([0, '']);
    const c = JSON.parse(fs.readFileSync(path.join(dir, 'envs/api.postman_collection.json'), 'utf8'));
    expect(c.variable).toEqual([{ key: 'base', value: 'http://127.0.0.1:9' }]);
    expect(c.item[0].name).toBe('Users');
    expect(c.item[0].item.map((i: { name: string }) => i.name)).toEqual(['List', 'Admin']);
    const create = c.item[0].item[1].item[0];
    expect(create.name).toBe('Create');
    expect(create.request.auth).toEqual({ type: 'basic', basic: [{ key: 'username', value: 'ada', type: 'string' }, { key: 'password', value: '{{pw}}', type: 'string' }] });
    expect(create.request.body).toEqual({ mode: 'urlencoded', urlencoded: [{ key: 'name', value: 'Ada L', type: 'text' }, { key: 'role', value: 'admin', type: 'text' }] });
    const env = JSON.parse(fs.readFileSync(path.join(dir, 'envs/dev.postman_environment.json'), 'utf8'));
    expect(env).toEqual({ name: 'dev', _postman_variable_scope: 'environment', values: [{ key: 'x', value: '1', type: 'default', enabled: true }, { key: 'base', value: 'http://127.0.0.1:1', type: 'default', enabled: true }, { key: 'pw', value: 'secret', type: 'secret', enabled: true }] });
    const bad = await runSheet(['export', '--to', 'postman', 'envs/api.http', '-o', 'envs/x.json', '--env', 'prod'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--env prod: no such environment in http-client.env.json or http-client.private.env.json beside envs/api.http (dev)');
    expect(fs.existsSync(path.join(dir, 'envs/x.json'))).toBe(false);
  });
});
