// Issue 36 item 1: assertions are never skipped silently. httpyac's `?? ...` lines in a `.http`
// file are read as assertions (counted, reported, never sent as body), and in a sheet a line
// inside a body that reads like a hook or a request line is a located warning in `sheet run`
// and in the diagnostics (Flymake). Real bin, real bundle, the example API on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';
import { parseForFile } from '../../engine/src/http-file/index.js';
import { lintSheet } from '../../engine/src/lint/diagnostics.js';

let api: Api;
let dir: string;

const sheet = (args: string[]) => runSheet(args, { cwd: dir });

function write(rel: string, text: string): string {
  const p = path.join(dir, rel);
  fs.writeFileSync(p, text.replaceAll('BASE', api.url));
  return p;
}

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('sheet-run-assert-lines-');
}, 60000);

afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("httpyac's ?? assertions in .http files", () => {
  it('are counted and reported, fail the run when they fail, and are never sent as the body', async () => {
    write(
      'four.http',
      `POST BASE/hf/items
Content-Type: application/json

{"name": "Ada"}

?? status == 201
?? header content-type includes json
?? body method == GET
?? js response.parsedBody.json.name == Ada
`,
    );
    const r = await sheet(['run', 'four.http', '--report', 'json:four.json']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('1 of 1 requests, 4 assertions, 2 failed');
    expect(r.out).toMatch(/four\.http:6: \?\? status == 201: failed, got status 200/);
    expect(r.out).toMatch(/four\.http:8: \?\? body method == GET: failed, got method POST/);
    const rep = JSON.parse(fs.readFileSync(path.join(dir, 'four.json'), 'utf8'));
    const res = rep.files[0].results[0];
    expect(JSON.parse(res.response.body).data).toBe('{"name": "Ada"}');
    expect(res.assertions.map((a: { line: number; passed: boolean }) => [a.line, a.passed])).toEqual([
      [6, false],
      [7, true],
      [8, false],
      [9, true],
    ]);
  });

  it('reads every field and predicate httpyac documents', async () => {
    write(
      'forms.http',
      `GET BASE/hf/q?n=5
?? status == 200
?? status >= 200
?? status startsWith 2
?? status isNumber
?? header x-authtoken == tok-42
?? header x-missing isFalse
?? header content-type exists
?? body args.n == 5
?? body path endsWith /q
?? body headers isString
?? body method matches ^G.T$
?? duration < 60000
?? js response.statusCode === 200 && response.headers['x-authtoken'] === 'tok-42' isTrue
`,
    );
    const r = await sheet(['run', 'forms.http']);
    expect(r.out).toContain('13 assertions, 1 failed');
    // `headers` is an object, not a string: the one that fails.
    expect(r.out).toMatch(/forms\.http:11: \?\? body headers isString: failed/);
    expect(r.code).toBe(1);
  });

  it('a ?? line httpyac would not read, or a field we do not support, stops the file before anything is sent', async () => {
    write('xpath.http', 'GET BASE/hf/x\n\n?? xpath //a == b\n');
    const r = await sheet(['run', 'xpath.http']);
    expect(r.code).toBe(2);
    expect(r.out + r.err).toMatch(/xpath\.http:3: \?\? xpath \/\/a == b: the field xpath is not supported/);
    write('bad.http', 'GET BASE/hf/x\n\n?? status 200\n');
    const b = await sheet(['run', 'bad.http']);
    expect(b.code).toBe(2);
    expect(b.out + b.err).toMatch(/bad\.http:3: \?\? status 200: not an assertion/);
  });

  it('--untrusted refuses ?? js (code), and runs plain ?? assertions', async () => {
    write('js.http', 'GET BASE/hf/x\n\n?? status == 200\n?? js response.statusCode == 200\n');
    const r = await sheet(['run', 'js.http', '--untrusted']);
    expect(r.code).toBe(2);
    expect(r.out + r.err).toMatch(/js\.http:4: the JavaScript of the \?\? assertion is code/);
    write('plain.http', 'GET BASE/hf/x\n\n?? status == 200\n?? body args isString\n');
    const p = await sheet(['run', 'plain.http', '--untrusted']);
    expect(p.out).toContain('2 assertions, 1 failed');
  });
});

describe('sheet lines that read like hooks or request lines inside a body', () => {
  const TEXT = `POST BASE/hf/items
Content-Type: application/json

{"name": "Ada"}
-> expect-status 201

GET BASE/hf/next
`;

  it('sheet run warns on each with its line, and the request is sent as restclient.el sends it', async () => {
    write('body.sheet', TEXT);
    const r = await sheet(['run', 'body.sheet']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('warning: line 5: "-> expect-status 201" is inside the body of the POST request above and is sent as body text, not run as a hook');
    expect(r.out).toContain('warning: line 7: "GET ' + api.url + '/hf/next" is inside the body of the POST request above and is sent as body text, not as a request of its own');
  });

  it('the diagnostics (Flymake) mark the same lines', () => {
    const text = TEXT.replaceAll('BASE', 'http://127.0.0.1:1');
    const d = lintSheet(text, parseForFile(text, 'body.sheet')).filter((x) => x.code === 'sent-as-body');
    expect(d.map((x) => [x.line, x.severity])).toEqual([
      [5, 'warning'],
      [7, 'warning'],
    ]);
  });
});

describe('sheet convert of ?? assertions', () => {
  it('writes the sheet assertion that says the same, and names the ones it cannot convert', async () => {
    write('conv.http', 'GET BASE/hf/x\n?? status == 200\n?? header content-type includes json\n?? duration < 500\n?? body id == 1\n');
    const r = await sheet(['convert', 'conv.http']);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`GET ${api.url}/hf/x\n-> expect-status 200\n-> expect-header content-type json\n-> expect-time < 500\n#`);
    expect(r.err).toMatch(/conv\.http:5: \?\? body id == 1: this assertion has no sheet equivalent/);
  });
});
