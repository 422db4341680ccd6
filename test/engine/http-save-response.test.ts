// Issue 37 item 5 through `sheet run` (the built bundle) against the example API: JetBrains'
// `>> path` and `>>! path` save the response body relative to the .http file, `>>` adds
// `-1`, `-2` when the file exists, `>>!` overwrites, missing folders are created, and a file
// that cannot be written fails its request at the `>>` line after the response came.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  dir = tempDir('http-save-');
  fs.writeFileSync(path.join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: api.url, out: 'saved' } }));
});

const run = (text: string, args: string[] = []) => {
  fs.mkdirSync(path.join(dir, 'api'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'api', 'x.http'), text);
  // From another folder: the paths are relative to the file, not the working directory.
  return runSheet(['run', '--env', 'local', 'api/x.http', ...args], { cwd: dir });
};
const served = async (p: string) => Buffer.from(await (await fetch(api.url + p)).arrayBuffer());

describe('>> and >>! (save the response body)', () => {
  it('>> writes the body under the file, creating folders, and adds -1, -2 when the file exists', async () => {
    const text = 'GET {{base}}/users/1\n\n>> ./{{out}}/user.json\n';
    for (const name of ['user.json', 'user-1.json', 'user-2.json']) {
      const r = await run(text);
      expect(r.code, r.out + r.err).toBe(0);
      // The terminal line says where, relative to the working directory.
      expect(r.out).toContain(`\n    saved: ${path.join('api', 'saved', name)}\n`);
    }
    const out = path.join(dir, 'api', 'saved');
    expect(fs.readdirSync(out).sort()).toEqual(['user-1.json', 'user-2.json', 'user.json']);
    const body = await served('/users/1');
    for (const f of fs.readdirSync(out)) expect(fs.readFileSync(path.join(out, f))).toEqual(body);
    expect(fs.existsSync(path.join(dir, 'saved'))).toBe(false);
  });

  it('>>! overwrites the same file, after the response handler, the request still checked', async () => {
    const text = 'GET {{base}}/users/2\n\n> {% client.test("ok", () => client.assert(response.status === 200)); %}\n>>! out/last.json\n';
    fs.mkdirSync(path.join(dir, 'api', 'out'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'api', 'out', 'last.json'), 'an older, longer content than the response body '.repeat(20));
    for (let i = 0; i < 2; i++) {
      const r = await run(text);
      expect(r.code, r.out + r.err).toBe(0);
    }
    expect(fs.readdirSync(path.join(dir, 'api', 'out'))).toEqual(['last.json']);
    expect(fs.readFileSync(path.join(dir, 'api', 'out', 'last.json'))).toEqual(await served('/users/2'));
  });

  it('a file that cannot be written fails the request at its line; the response is still reported and the next request runs', async () => {
    fs.mkdirSync(path.join(dir, 'api'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'api', 'blocked'), 'a file where a folder should be');
    const r = await run('GET {{base}}/users/1\n\n>> ./blocked/user.json\n\n###\nGET {{base}}/users/3\n', ['--report', 'json:report.json']);
    expect(r.code).not.toBe(0);
    expect(r.out + r.err).toMatch(/x\.http:3: >> \.\/blocked\/user\.json: the response body was not saved: \S*api\/blocked is a file, not a folder\. Make the folder writable/);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'));
    const results = report.results ?? report.files?.flatMap((f: { results: unknown[] }) => f.results);
    expect(results.map((x: { status?: number; outcome: string }) => [x.status, x.outcome])).toEqual([[200, 'failed'], [200, 'passed']]);
  });

  it('>> with no file is a located error and nothing is sent', async () => {
    const r = await run('GET {{base}}/users/1\n\n>>\n');
    expect(r.code).not.toBe(0);
    expect(r.out + r.err).toMatch(/x\.http:3: >> needs the file to save the response to/);
  });
});
