// `sheet import` of real Postman collections (test/fixtures/imports/postman/README.md), each
// run twice through a recording server on 127.0.0.1: with newman (Postman's own runner) and
// with `sheet run` on what `sheet import` wrote. The requests must be the same: method, URL,
// the headers the collection (and its auth) set, body. Issue 42 items 1-3.
import fs from 'node:fs';
import path from 'node:path';
import newman from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
import { startRecordingServer, type Recorded, type RecordingServer } from './recording-server.js';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/imports/postman');
// Headers each runner adds of its own accord, not set by the collection.
const OWN = new Set(['host', 'connection', 'content-length', 'user-agent', 'accept', 'accept-encoding', 'postman-token', 'cache-control', 'transfer-encoding']);

let rec: RecordingServer;
let base = '';
let dir: string;

beforeAll(async () => {
  dir = tempDir('import-postman-');
  rec = await startRecordingServer({ own: OWN, answer: '{"ok": true}' });
  base = rec.base;
});

afterAll(async () => {
  await rec.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A fixture copied into `dir` with its hosts pointed at the recording server. */
function copy(name: string): string {
  const text = fs.readFileSync(path.join(FIXTURES, name), 'utf8').replace(/https:\/\/(postman-echo\.com|echo\.getpostman\.com)/g, base);
  const to = path.join(dir, name);
  fs.writeFileSync(to, text);
  return to;
}

async function viaNewman(collection: string, environment: string | undefined, vars: Record<string, string>): Promise<Recorded[]> {
  rec.reset();
  await new Promise<void>((resolve, reject) =>
    newman.run(
      { collection: JSON.parse(fs.readFileSync(collection, 'utf8')), environment: environment ? JSON.parse(fs.readFileSync(environment, 'utf8')) : undefined, envVar: Object.entries(vars).map(([key, value]) => ({ key, value })), reporters: [] },
      (e) => (e ? reject(e) : resolve()),
    ),
  );
  return rec.recorded;
}

async function viaSheet(files: string[], env: string | undefined, vars: Record<string, string>, out: string): Promise<{ recorded: Recorded[]; importErr: string; runErr: string; code: number }> {
  const imp = await runSheet(['import', ...files, '-o', out], { cwd: dir });
  expect(imp.code, imp.err).not.toBe(2);
  const http = fs.readdirSync(path.join(dir, out)).filter((f) => f.endsWith('.http'));
  expect(http.length).toBe(1);
  rec.reset();
  const args = ['run', path.join(out, http[0]!), ...(env ? ['--env', env] : []), ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}=${v}`])];
  const run = await runSheet(args, { cwd: dir });
  return { recorded: rec.recorded, importErr: imp.err, runErr: run.err, code: run.code };
}

/** The requests as compared: newman sends an empty body as none, so does the engine. */
const shape = (r: Recorded[]) => r.map((x) => ({ method: x.method, url: x.url, headers: x.headers, body: x.body }));

describe('sheet import of Postman collections, against newman', () => {
  it('sample-collection.json (v2.0.0: raw text and JSON bodies, legacy tests[...])', async () => {
    const c = copy('sample-collection.json');
    const expected = await viaNewman(c, undefined, {});
    expect(expected.length).toBe(3);
    const got = await viaSheet([c], undefined, {}, 'out-sample');
    expect(got.runErr).not.toMatch(/error/i);
    expect(shape(got.recorded)).toEqual(shape(expected));
  });

  it('inherited-entities (collection variables, an environment, Basic and Digest inherited, noauth, pre-request scripts)', async () => {
    const c = copy('inherited-entities.postman_collection.json');
    const e = copy('inherited-entities.postman_environment.json');
    const expected = await viaNewman(c, e, {});
    expect(expected.length).toBe(8);
    const got = await viaSheet([c, e], 'inherited-entities', {}, 'out-inherited');
    expect(shape(got.recorded)).toEqual(shape(expected));
    expect(expected.filter((r) => r.headers.authorization?.startsWith('Basic ')).length).toBe(4);
    const priv = JSON.parse(fs.readFileSync(path.join(dir, 'out-inherited/http-client.private.env.json'), 'utf8'));
    expect(priv.$shared.basic_password).toBe('password');
    expect(fs.readFileSync(path.join(dir, 'out-inherited/Inherited-Entities.http'), 'utf8')).not.toMatch(/postman:password/);
  });

  it('multi-level-folders-v2 (nested folders; postman.* scripts kept as comments, with warnings)', async () => {
    const c = copy('multi-level-folders-v2.postman_collection.json');
    const expected = await viaNewman(c, undefined, {});
    const got = await viaSheet([c], undefined, {}, 'out-folders');
    expect(shape(got.recorded)).toEqual(shape(expected));
    expect(got.importErr).toMatch(/warning: .*multi-level-folders-v2\.postman_collection\.json: item "F1 \/ F1\.R1": pre-request script line 1 is not converted \(var count = parseInt\(postman\.getEnvironmentVariable/);
    const text = fs.readFileSync(path.join(dir, 'out-folders/multi-level-folders-v2.http'), 'utf8');
    expect(text).toContain('### F1 / F1.R1');
    expect(text).toContain('# postman.setEnvironmentVariable("count", isNaN(count) ? 0 : count + 1);');
  });

  it('--to sheet: sample-collection.json as a sheet sends what newman sends', async () => {
    const c = copy('sample-collection.json');
    const expected = await viaNewman(c, undefined, {});
    const imp = await runSheet(['import', c, '--to', 'sheet', '-o', 'out-sheet'], { cwd: dir });
    expect(imp.out).toContain('wrote out-sheet/Sample-Postman-Collection.sheet (3 requests)');
    rec.reset();
    const run = await runSheet(['run', 'out-sheet/Sample-Postman-Collection.sheet'], { cwd: dir });
    expect(run.code, run.out + run.err).toBe(0);
    expect(shape(rec.recorded)).toEqual(shape(expected));
  });

  it('esc-formdata (urlencoded body, variables in names and values, a backslash)', async () => {
    const c = copy('esc-formdata.postman_collection.json');
    // A variable's value is encoded by the engine's form rule (encodeurl, as httpyac and REST
    // Client), which keeps a backslash and & that Postman encodes (docs/import.md): the value given here
    // holds characters both encode alike; the collection's literal backslash is compared as is.
    const vars = { msg: 'hello world', msg1: 'hello' };
    const expected = await viaNewman(c, undefined, vars);
    const got = await viaSheet([c], undefined, vars, 'out-form');
    expect(shape(got.recorded)).toEqual(shape(expected));
  });
});
