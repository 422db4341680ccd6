// `sheet convert` end to end: the real launcher and bundle on real files. Both directions,
// every problem on stderr with its line, exit 0 / 1 / 2, output to stdout or written whole with
// -o (never half a file, the previous file kept on a usage error), and the converted file sent
// with `sheet run` against the example API on 127.0.0.1 (it converts to something that runs).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;

const sheet = (args: string[]) => runSheet(args, { cwd: dir });

const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text.replaceAll('BASE', api.url));
const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('sheet-convert-');
}, 60000);

afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet convert', () => {
  it('.sheet -> .http to stdout, exit 0 when everything converts; the result runs', async () => {
    write('clean.sheet', '# users\n:base = BASE\n:who = ada\n#\nGET :base/hf/users?name=:who\nAccept: application/json\n');
    const r = await sheet(['convert', 'clean.sheet']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`@base = ${api.url}`);
    expect(r.out).toContain('GET {{base}}/hf/users?name={{who}}');
    write('clean.http', r.out);
    const run = await sheet(['run', 'clean.http', '--report', 'json:clean.json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(read('clean.json')).files[0].results[0].url).toBe(`${api.url}/hf/users?name=ada`);
  });

  it('.http -> .sheet with -o: every problem on stderr with its line, exit 1, the rest written', async () => {
    write('mixed.http', '@host = BASE\n\n### login\n# @no-redirect\nPOST {{host}}/hf/login\nX-Id: {{$guid}}\n\n{"a": 1}\n\n> {%\n client.global.set("t", response.body.token);\n%}\n');
    const r = await sheet(['convert', 'mixed.http', '-o', 'mixed.sheet']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    const lines = r.err.trim().split('\n');
    expect(lines).toContain('mixed.http:4: # @no-redirect: the directive @no-redirect has no sheet equivalent');
    expect(lines.some((l) => l.startsWith('mixed.http:6: {{$guid}}: system variable'))).toBe(true);
    expect(lines.some((l) => l.startsWith('mixed.http:10: > {% ... %}: response handlers'))).toBe(true);
    expect(lines.at(-1)).toBe('sheet convert: 3 constructs not converted (named above)');
    const out = read('mixed.sheet');
    expect(out).toContain(`:host = ${api.url}`);
    expect(out).toContain('POST :host/hf/login');
    expect(out).toContain('# not converted (line 4): @no-redirect');
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('--to picks the direction of a file whose name says nothing', async () => {
    write('plain.txt', 'GET BASE/hf/x\n');
    const r = await sheet(['convert', 'plain.txt', '--to', 'http']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`GET ${api.url}/hf/x`);
    const same = await sheet(['convert', 'clean.sheet', '--to', 'sheet']);
    expect(same.code).toBe(2);
    expect(same.err).toContain('already in the sheet syntax');
  });

  it('usage errors exit 2 and leave an existing output file as it was', async () => {
    write('keep.sheet', 'old content\n');
    const missing = await sheet(['convert', 'nope.http', '-o', 'keep.sheet']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read nope.http (ENOENT)');
    expect(read('keep.sheet')).toBe('old content\n');
    expect((await sheet(['convert'])).code).toBe(2);
    const to = await sheet(['convert', 'clean.sheet', '--to', 'yaml']);
    expect(to.code).toBe(2);
    expect(to.err).toContain('--to yaml: use --to sheet or --to http');
    const self = await sheet(['convert', 'clean.sheet', '-o', 'clean.sheet']);
    expect(self.code).toBe(2);
    const noDir = await sheet(['convert', 'clean.sheet', '-o', 'no/such/dir/x.http']);
    expect(noDir.code).toBe(2);
    expect(noDir.err).toContain('cannot write no/such/dir/x.http');
    expect((await sheet(['run', 'clean.sheet', '-o', 'x'])).code).toBe(2);
  });

  it('is in sheet --help', async () => {
    const r = await sheet(['--help']);
    expect(r.out).toContain('sheet convert FILE [-o OUT] [--to sheet|http]');
  });
});
