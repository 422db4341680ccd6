// Issue 25 item 7: copy as code. The request at a line goes out through `sheet/send` (C-c C-c)
// and through the code `sheet/code` writes for it, run by the real python3 (requests) and node
// (fetch), all to one raw capture server on 127.0.0.1. What is compared (the code is the
// snippet library's, so transport details of each client are not):
// - the request line, byte for byte (the URL is the request's own, query order and escapes kept);
// - every header the sheet sets, with its value (each client adds its own User-Agent, Accept,
//   Accept-Encoding, Connection, which the sheet does not set);
// - the body: JSON bodies as JSON (Python's `json=` re-serialises with its own spacing), form
//   bodies field by field, other bodies byte for byte.
// `sheet export --to python FILE:LINE` prints the same code as `sheet/code`.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureAndEngine } from './capture-engine.js';
import { runSheet } from './helpers.js';

const parts = captureAndEngine();
const { dir } = parts;

type Captured = { requestLine: string; headers: [string, string][]; body: Buffer };

/** The requests, each a block of the sheet; `line` is its request line. */
const cases: { name: string; request: string; python?: RegExp }[] = [
  {
    name: 'a JSON body of plain strings is the language\'s JSON value (json=, JSON.stringify)',
    request: 'PATCH :base/users/1\nContent-Type: application/json\n\n{"name": ":who", "langs": ["en", "fr"], "age": 36, "admin": false, "boss": null, "pet": {"kind": "cat"}}',
    python: /json=payload/,
  },
  {
    name: 'JSON with a backslash, a quote and a newline in a string, a repeated query parameter, a + and an escape in the query, a substituted header',
    python: /data=payload/,
    request: 'POST :base/users/a%20b?tag=x&q=a+b&tag=y&e=%C3%A9\nContent-Type: application/json\nX-Trace: t-:who\nAuthorization: Bearer abc.def\n\n{"name": ":who", "path": "C:\\\\tmp\\n\'x\'", "tags": ["a", "b"], "n": 1.5, "ok": true, "none": null}',
  },
  {
    name: 'a form body, fields with spaces, & and non-ASCII',
    request: 'POST :base/token\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=password&user=ann%40example.org&pw=a%26b+c&name=J%C3%BCrgen',
  },
  {
    name: 'a text body with quotes, a backslash, a dollar, newlines and non-ASCII',
    request: 'PUT :base/notes/1\nContent-Type: text/plain; charset=utf-8\n\nline "one" it\'s\n${HOME} \\n back\\slash\nÄrger ✓',
  },
  { name: 'a GET with headers and no body', request: 'GET :base/items?page=2&sort=-name\nAccept: application/json\nX-Api-Key: k-123' },
  { name: 'DELETE', request: 'DELETE :base/items/7' },
];

const sheetText = () =>
  [`:base = http://127.0.0.1:${parts.capture.port}`, ':who = Ada', ...cases.flatMap((c) => ['#', c.request])].join('\n') + '\n';
const lineOf = (i: number) => sheetText().split('\n').indexOf(cases[i]!.request.split('\n')[0]!) + 1;

const run = (program: string, args: string[], code: string) =>
  new Promise<void>((resolve, reject) => {
    const child = execFile(program, args, { timeout: 30000 }, (e, _out, err) => (e ? reject(new Error(`${program}: ${err || e.message}`)) : resolve()));
    child.stdin!.end(code);
  });

/** The parts of a captured request the file comment says are compared. */
function compared(r: Captured, sheetHeaders: [string, string][]) {
  const get = (n: string) => r.headers.filter(([k]) => k.toLowerCase() === n).map(([, v]) => v);
  const type = get('content-type')[0] ?? '';
  const body = r.body.toString('utf8');
  return {
    requestLine: r.requestLine,
    headers: sheetHeaders.map(([n]) => [n.toLowerCase(), get(n.toLowerCase())]),
    body: /json/.test(type) ? JSON.parse(body) : /x-www-form-urlencoded/.test(type) ? [...new URLSearchParams(body)] : body,
  };
}

describe('copy as code: the generated code sends what the sheet sends', () => {
  for (const [i, c] of cases.entries()) {
    it(c.name, async () => {
      const text = sheetText();
      const line = lineOf(i);
      parts.capture.requests.splice(0);
      const sent = (await parts.engine.conn.sendRequest('sheet/send', { text, line })) as { request: { headers: [string, string][] } };
      const py = (await parts.engine.conn.sendRequest('sheet/code', { text, line, target: 'python' })) as { code: string };
      const js = (await parts.engine.conn.sendRequest('sheet/code', { text, line, target: 'javascript' })) as { code: string };
      expect(py.code).toMatch(/^import requests/);
      if (c.python) expect(py.code).toMatch(c.python);
      expect(js.code).toMatch(/fetch\(/);
      await run('python3', ['-'], py.code);
      await run(process.execPath, ['--input-type=module', '-'], js.code);
      // The sheet's own headers (the request as sent also holds the engine's defaults).
      const own = sent.request.headers.filter(([n]) => !/^(user-agent|accept-encoding|connection|content-length|host)$/i.test(n));
      const [bySheet, byPython, byFetch] = (parts.capture.requests as Captured[]).map((r) => compared(r, own));
      expect(parts.capture.requests).toHaveLength(3);
      expect(byPython).toEqual(bySheet);
      expect(byFetch).toEqual(bySheet);
    });
  }

  it('sheet export --to python FILE:LINE prints the code sheet/code writes', async () => {
    const file = path.join(dir, 'api.sheet');
    fs.writeFileSync(file, sheetText());
    const line = lineOf(1);
    const { code } = (await parts.engine.conn.sendRequest('sheet/code', { text: sheetText(), line, target: 'python', path: file })) as { code: string };
    const out = await runSheet(['export', '--to', 'python', `${file}:${line + 2}`], { cwd: dir });
    expect(out).toEqual({ code: 0, out: code, err: '' });
    // --var overrides as a hook would; the code carries the value.
    const withVar = await runSheet(['export', '--to=go', '--var', ':who=Grace', `${file}:${line}`], { cwd: dir });
    expect(withVar.code).toBe(0);
    expect(withVar.out).toContain('req.Header.Add("X-Trace", "t-Grace")');
  });

  it('bad input: an unknown target, a binary body, no line with two requests, no request at the line', async () => {
    const file = path.join(dir, 'bin.sheet');
    fs.writeFileSync(path.join(dir, 'img.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]));
    fs.writeFileSync(file, 'POST http://127.0.0.1:1/up\nContent-Type: image/png\n\n< img.bin\n#\n# a comment\n');
    const unknown = await runSheet(['export', '--to', 'cobol', `${file}:1`], { cwd: dir });
    expect(unknown).toMatchObject({ code: 2, out: '' });
    expect(unknown.err).toMatch(/unknown code target "cobol"[\s\S]*python, r, ruby/);
    const binary = await runSheet(['export', '--to', 'python', `${file}:1`], { cwd: dir });
    expect(binary).toMatchObject({ code: 2, out: '' });
    expect(binary.err).toMatch(/bin\.sheet:1: the body \(.*img\.bin\) is binary[\s\S]*C-c C-u, or --to curl/);
    expect((await runSheet(['export', '--to', 'curl', `${file}:1`], { cwd: dir })).out).toContain("printf '\\211PNG");
    // A bare FILE is the request when the file holds one; with two it names their lines.
    const bare = await runSheet(['export', '--to', 'curl', file], { cwd: dir });
    expect(bare).toEqual(await runSheet(['export', '--to', 'curl', `${file}:1`], { cwd: dir }));
    const two = path.join(dir, 'two.sheet');
    fs.writeFileSync(two, '# first\nGET http://127.0.0.1:1/a\n#\nGET http://127.0.0.1:1/b\n');
    const noLine = await runSheet(['export', '--to', 'python', two], { cwd: dir });
    expect(noLine).toMatchObject({ code: 2, out: '' });
    expect(noLine.err).toMatch(/two\.sheet holds 2 requests \(lines 2, 4\): give the line of one, FILE:LINE/);
    const missing = await runSheet(['export', '--to', 'python', path.join(dir, 'none.sheet')], { cwd: dir });
    expect(missing.err).toMatch(/give the file and a line of its request, FILE:LINE/);
    const noRequest = await runSheet(['export', '--to', 'python', `${file}:6`], { cwd: dir });
    expect(noRequest).toMatchObject({ code: 2, out: '' });
    expect(noRequest.err).toMatch(/no request at line 6/);
    await expect(parts.engine.conn.sendRequest('sheet/code', { text: 'GET http://h/\n', line: 1 })).rejects.toMatchObject({ data: { code: 'bad-argument' } });
  });
});
