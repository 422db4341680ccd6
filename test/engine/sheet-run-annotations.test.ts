// `sheet run` in CI (issue 26 item 2): with GITHUB_ACTIONS=true each failed assertion, sheet error
// and transport failure is also a `::error file=...,line=...,title=...::message` workflow
// command, escaped by GitHub's rules (sheet-command/annotations.ts); the JUnit report's test cases carry
// `file` and `line`. A real server on 127.0.0.1 (the fault server) and the real `sheet` command.
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startFaults } from '../fixtures/faults.mjs';
import { escapeData, escapeProperty } from '../../engine/src/sheet-command/annotations.js';

let faults: { url: string; refused: string; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  faults = await startFaults();
  dir = tempDir('annotations-');
  fs.mkdirSync(path.join(dir, 'api'));
  // A comma in the name: escaped in the file= property.
  fs.writeFileSync(path.join(dir, 'api/a,b.sheet'), `GET ${faults.url}/ann-1\n-> expect-status 200\n-> expect-status 404\n-> expect-body 100%\n#\nGET ${faults.url}/ann-2\n-> expect-status 200\n`);
  fs.writeFileSync(path.join(dir, 'api/broken.sheet'), `GET ${faults.url}/ann-3\n-> expect-status\n`);
  fs.writeFileSync(path.join(dir, 'api/down.sheet'), `GET ${faults.refused}/x\n`);
});
afterAll(async () => {
  await faults.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const commands = (s: string) => s.split('\n').filter((l) => l.startsWith('::'));

describe('GitHub annotations', () => {
  it('escape as @actions/core does: % CR LF in data; also : and , in properties', () => {
    expect(escapeData('50%\r\nx: a,b')).toBe('50%25%0D%0Ax: a,b');
    expect(escapeProperty('50%\r\nx: a,b')).toBe('50%25%0D%0Ax%3A a%2Cb');
  });

  it('GITHUB_ACTIONS=true: one ::error per failed assertion (a passed request has none), sheet error and transport failure, at its line', async () => {
    const r = await runSheet(['run', 'api/a,b.sheet', 'api/broken.sheet', 'api/down.sheet'], { cwd: dir, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir } });
    expect(r.code).toBe(2);
    const c = commands(r.out);
    expect(c).toEqual([
      '::error file=api/a%2Cb.sheet,line=3,title=sheet run%3A GET /ann-1 (a%2Cb.sheet%3A1)::a,b.sheet:3: expect-status 404: failed, got 200 OK: body ok',
      '::error file=api/a%2Cb.sheet,line=4,title=sheet run%3A GET /ann-1 (a%2Cb.sheet%3A1)::a,b.sheet:4: expect-body 100%25: failed, got body ok',
      expect.stringMatching(/^::error file=api\/broken\.sheet,line=2,title=sheet run%3A broken\.sheet::api\/broken\.sheet:2: expect-status: the argument must be a status code \(200\) or class \(2xx\)%0Ahint: Fix the assertion/),
      expect.stringMatching(/^::error file=api\/down\.sheet,line=1,title=sheet run%3A GET \/x \(down\.sheet%3A1\)::.*refused/),
    ]);
    // Nothing unescaped: a command is one line.
    for (const l of c) expect(l.split('::').length).toBe(3);
  });

  it('without GITHUB_ACTIONS=true, no workflow commands', async () => {
    const r = await runSheet(['run', 'api/a,b.sheet'], { cwd: dir, env: { GITHUB_ACTIONS: '' } });
    expect(r.code).toBe(1);
    expect(r.out + r.err).not.toContain('::error');
  });

  it('with TAP on stdout, the annotations go to stderr with the progress lines and the TAP stays clean', async () => {
    const r = await runSheet(['run', 'api/broken.sheet', '--report', 'tap'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.out).not.toContain('::error');
    expect(commands(r.err)).toHaveLength(1);
  });
});

describe('JUnit file and line', () => {
  it('each test case carries file and line: the request line, or the sheet error line', async () => {
    const r = await runSheet(['run', 'api/a,b.sheet', 'api/broken.sheet', '--report', 'junit:j.xml'], { cwd: dir });
    expect(r.code).toBe(2);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(fs.readFileSync(path.join(dir, 'j.xml'), 'utf8'));
    const cases = xml.testsuites.testsuite.flatMap((s: { testcase: unknown }) => [s.testcase].flat());
    expect(cases.map((c: { file: string; line: string }) => [c.file, c.line])).toEqual([
      ['api/a,b.sheet', '1'],
      ['api/a,b.sheet', '6'],
      ['api/broken.sheet', '2'],
    ]);
  });
});
