// Issue 29: request files as Visual Studio, IntelliJ and VS Code REST Client users write them,
// sent to a raw capture server on 127.0.0.1; the bytes that arrive are compared with what the
// dialect documents (and httpyac 6.16 sends). This file: how the text is read into requests.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../engine/src/http-file/environment.js';
import { Session } from '../../engine/src/session/session.js';
import { capture, wire, type Capture } from './http-field.js';

let cap: Capture;
beforeAll(async () => {
  cap = await capture();
});
afterAll(async () => {
  await cap?.close();
});

const BOM = '\uFEFF';

describe('a UTF-8 byte order mark is not content (Visual Studio writes one)', () => {
  it('sheet run sends a .http file that starts with a BOM and a file variable', async () => {
    const r = await cap.sheetRun('bom.http', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('@host = HOST\n\nGET {{host}}/x\nAccept: application/json\n')]));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.got.map(wire)).toEqual([{ line: 'GET /x HTTP/1.1', headers: { accept: 'application/json' }, body: '' }]);
  });

  it('the Session (C-c C-c) reads a sheet and a .http file with a BOM the same way', async () => {
    const s = new Session();
    const n = cap.requests.length;
    await s.send({ text: `${BOM}:base = ${cap.base}\nGET :base/sheet\n`, line: 2, path: path.join(cap.dir, 'a.sheet') });
    await s.send({ text: `${BOM}GET ${cap.base}/first-line\n`, line: 1, path: path.join(cap.dir, 'a.http') });
    // A restclient sheet saved as .http with a BOM is still recognised as a sheet.
    await s.send({ text: `${BOM}:base = ${cap.base}\n#\nGET :base/guessed\n`, line: 3, path: path.join(cap.dir, 'old.http') });
    expect(cap.requests.slice(n).map((r) => r.requestLine)).toEqual(['GET /sheet HTTP/1.1', 'GET /first-line HTTP/1.1', 'GET /guessed HTTP/1.1']);
  });
});

describe('requests separated by blank lines only (httpyac: a request line after a blank line starts a request)', () => {
  it('without any ###: two requests, the version never in the path', async () => {
    const r = await cap.sheetRun('blank.http', 'GET HOST/a HTTP/1.1\n\nGET HOST/b HTTP/1.1\nAccept: text/plain\n');
    expect(r.code).toBe(0);
    expect(r.got.map(wire)).toEqual([
      { line: 'GET /a HTTP/1.1', headers: {}, body: '' },
      { line: 'GET /b HTTP/1.1', headers: { accept: 'text/plain' }, body: '' },
    ]);
  });

  it('with ### elsewhere: a body ends at the blank line before the next request line', async () => {
    const got = await cap.runAll('mixed.http', [
      '### create',
      'POST HOST/items HTTP/1.1',
      'Content-Type: application/json',
      '',
      '{"name": "x"}',
      '',
      'GET HOST/items/1 HTTP/1.1',
      '',
      '###',
      'DELETE HOST/items/1',
    ].join('\n'));
    expect(got.map(wire)).toEqual([
      { line: 'POST /items HTTP/1.1', headers: { 'content-type': 'application/json', 'content-length': '13' }, body: '{"name": "x"}' },
      { line: 'GET /items/1 HTTP/1.1', headers: {}, body: '' },
      { line: 'DELETE /items/1 HTTP/1.1', headers: {}, body: '' },
    ]);
  });

  it('comment, # @name and @var lines between the blank line and the request line go with the request', async () => {
    const got = await cap.runAll('named.http', [
      'GET HOST/a',
      '',
      '# @name second',
      '// what it does',
      '@id = 5',
      'GET HOST/b/{{id}}',
      '',
      '###',
      'GET HOST/c?x={{second.response.body.path}}',
    ].join('\n'));
    expect(got.map((g) => g.requestLine)).toEqual(['GET /a HTTP/1.1', 'GET /b/5 HTTP/1.1', 'GET /c?x=/b/5 HTTP/1.1']);
  });

  it('a request line inside a > {% %} script does not split the request', async () => {
    const got = await cap.runAll('script.http', 'GET HOST/one\n\n> {%\n\nGET = 1;\n%}\n');
    expect(got.map((g) => g.requestLine)).toEqual(['GET /one HTTP/1.1']);
  });

  it('a sheet request line ending in HTTP/1.1 sends the path without it', async () => {
    const r = await cap.sheetRun('v.sheet', ':base = HOST\nGET :base/v HTTP/1.1\n');
    expect(r.code).toBe(0);
    expect(r.got.map((g) => g.requestLine)).toEqual(['GET /v HTTP/1.1']);
  });
});

describe('relative request lines (httpyac: a {{host}} variable, or a Host header, gives the origin)', () => {
  it('@host, an environment host without scheme, and a Host: header each complete /path', async () => {
    cap.write('rel/http-client.env.json', JSON.stringify({ dev: { host: `127.0.0.1:${cap.port}/` } }));
    const viaVar = await cap.runAll('rel/var.http', '@host = HOST\n\nGET /json?a=1\nAccept: application/json\n');
    const viaEnv = await cap.runAll('rel/env.http', 'POST /items\nContent-Type: text/plain\n\nhi\n', { env: loadEnvironment(path.join(cap.dir, 'rel/env.http'), 'dev') });
    const viaHeader = await cap.runAll('rel/header.http', `GET /by-header\nHost: 127.0.0.1:${cap.port}\n`);
    expect([...viaVar, ...viaEnv, ...viaHeader].map(wire)).toEqual([
      { line: 'GET /json?a=1 HTTP/1.1', headers: { accept: 'application/json' }, body: '' },
      { line: 'POST /items HTTP/1.1', headers: { 'content-type': 'text/plain', 'content-length': '2' }, body: 'hi' },
      { line: 'GET /by-header HTTP/1.1', headers: {}, body: '' },
    ]);
  });

  it('without a host is a located error saying what to add', async () => {
    await expect(cap.runAll('rel/none.http', '\n\nGET /json\n')).rejects.toMatchObject({ code: 'invalid-url', line: 3, hint: expect.stringContaining('@host = http://host') });
  });
});

describe('a URL continued on indented lines (JetBrains "break long request lines")', () => {
  it('joins the indented parts, then reads headers and body', async () => {
    const got = await cap.runAll('long.http', [
      'POST HOST',
      '    /anything',
      '    /deeper',
      '    ?test=test',
      '    &b={{b}} HTTP/1.1',
      'Content-Type: text/plain',
      '',
      'the body',
      '',
      '###',
      'GET HOST/api',
      '/v1',
      '  // a comment, not part of the URL',
      'X-A: 1',
    ].join('\n').replace('{{b}}', '2'));
    expect(got.map(wire)).toEqual([
      { line: 'POST /anything/deeper?test=test&b=2 HTTP/1.1', headers: { 'content-type': 'text/plain', 'content-length': '8' }, body: 'the body' },
      { line: 'GET /api/v1 HTTP/1.1', headers: { 'x-a': '1' }, body: '' },
    ]);
  });
});
