// Issue 36 item 6: JUnit/TAP test names were the resolved request line plus file:line
// (`GET /anything?id=96cb...&n=6 (api.http:154)`), so random values, captured ids and any edit
// above changed every name and CI's history ("newly failed") broke. Names are now `### name` /
// `# @name` when given, else the request line as written; file and line are attributes; JUnit
// <failure> carries the expectation and what came back as text. Real bin, the example API.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;

const HTTP = `@host = BASE

### list items
GET {{host}}/hf/items?n={{$randomInt 1 1000000}}
?? status == 200

###
# @name create
POST {{host}}/hf/items
Content-Type: application/json

{"id": "{{$guid}}"}

###
GET {{host}}/hf/items/{{create.response.body.json.id}}
?? status == 404

###
GET {{host}}/hf/items/{{create.response.body.json.id}}
`;

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('sheet-run-names-');
}, 60000);

afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The JUnit test cases' name, file and line attributes. */
function cases(xml: string): string[][] {
  return [...xml.matchAll(/<testcase ([^>]*)>/g)].map((m) => ['name', 'file', 'line'].map((a) => new RegExp(`\\b${a}="([^"]*)"`).exec(m[1]!)?.[1] ?? ''));
}

describe('test names in JUnit and TAP', () => {
  it('are the request names, else the request lines as written, the same from run to run and after an edit above', async () => {
    fs.writeFileSync(path.join(dir, 'api.http'), HTTP.replace('BASE', api.url));
    const one = await runSheet(['run', 'api.http', '--report', 'junit:one.xml', '--report', 'tap:one.tap'], { cwd: dir });
    expect(one.code).toBe(1);
    // A comment added above moves every line: the names stay.
    fs.writeFileSync(path.join(dir, 'api.http'), '# the items API\n\n' + HTTP.replace('BASE', api.url));
    await runSheet(['run', 'api.http', '--report', 'junit:two.xml', '--report', 'tap:two.tap'], { cwd: dir });
    const a = cases(fs.readFileSync(path.join(dir, 'one.xml'), 'utf8'));
    const b = cases(fs.readFileSync(path.join(dir, 'two.xml'), 'utf8'));
    expect(a).toEqual([
      ['list items', 'api.http', '4'],
      ['create', 'api.http', '9'],
      ['GET {{host}}/hf/items/{{create.response.body.json.id}}', 'api.http', '15'],
      ['GET {{host}}/hf/items/{{create.response.body.json.id}} #2', 'api.http', '19'],
    ]);
    expect(b.map((c) => c[0])).toEqual(a.map((c) => c[0]));
    expect(b.map((c) => c[2])).toEqual(['6', '11', '17', '21']);
    const tapNames = (f: string) => [...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/^(?:not )?ok \d+ - (.*)$/gm)].map((m) => m[1]);
    expect(tapNames('one.tap')).toEqual(tapNames('two.tap'));
    expect(tapNames('one.tap')[0]).toBe('list items');
  });

  it('a JUnit <failure> holds the message, and the expectation and what came back as its text', async () => {
    fs.writeFileSync(path.join(dir, 'fail.sheet'), `:id = 7\nGET ${api.url}/hf/users/:id\n-> expect-status 201\n`);
    const r = await runSheet(['run', 'fail.sheet', '--report', 'junit:fail.xml'], { cwd: dir });
    expect(r.code).toBe(1);
    const xml = fs.readFileSync(path.join(dir, 'fail.xml'), 'utf8');
    expect(cases(xml)).toEqual([[`GET ${api.url}/hf/users/:id`, 'fail.sheet', '2']]);
    expect(xml).toMatch(/<failure message="fail\.sheet:3: expect-status 201: failed, got 200 OK[^"]*" type="assertion">/);
    expect(xml).toMatch(/<!\[CDATA\[fail\.sheet:3: expect-status 201\n {2}expected: expect-status 201\n {2}actual: 200 OK: body/);
  });
});
