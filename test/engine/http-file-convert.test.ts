// .sheet <-> .http conversion (engine/src/convert/sheet-http.ts): what converts, converts both
// ways to the same requests; what cannot is named with its line, never dropped silently.
import { describe, expect, it } from 'vitest';
import { httpToSheet, sheetToHttp } from '../../engine/src/convert/sheet-http.js';
import { parseHttpFile } from '../../engine/src/http-file/parse.js';
import { parseSheet } from '../../engine/src/sheet/parse.js';

const lines = (...ls: string[]) => ls.join('\n') + '\n';
const shape = (s: ReturnType<typeof parseSheet>) => s.requests.map((r) => ({ method: r.method, url: r.url, headers: r.headers, body: r.body && ('text' in r.body ? r.body.text : r.body.kind === 'file' ? r.body.path : r.body.kind) }));

describe('sheet -> http', () => {
  const sheet = lines(
    '# Users API',
    ':host = http://127.0.0.1:3000',
    ':id = 7',
    '#',
    'GET :host/users/:id',
    'Accept: application/json',
    '#',
    'POST :host/users',
    'Content-Type: application/json',
    '',
    '{"name": "x"}',
    '#',
    'PUT :host/upload',
    '< ./data.bin',
  );

  it('converts variables, references, requests, bodies and comments', () => {
    const { text, problems } = sheetToHttp(sheet);
    expect(problems).toEqual([]);
    const http = parseHttpFile(text);
    expect(http.diagnostics).toEqual([]);
    expect(http.vars.map((v) => [v.name, v.value])).toEqual([['host', 'http://127.0.0.1:3000'], ['id', '7']]);
    expect(http.requests.map((r) => [r.method, r.url, r.body && ('text' in r.body ? r.body.text : r.body.kind)])).toEqual([
      ['GET', '{{host}}/users/{{id}}', undefined],
      ['POST', '{{host}}/users', '{"name": "x"}'],
      ['PUT', '{{host}}/upload', 'file'],
    ]);
    expect(text).toContain('# Users API');
  });

  it('round-trips back to the same sheet requests', () => {
    const back = httpToSheet(sheetToHttp(sheet).text);
    expect(back.problems).toEqual([]);
    expect(shape(parseSheet(back.text)).map(({ headers, ...r }) => ({ ...r, headers: headers.map((h) => ('value' in h ? [h.name, h.value] : h.name)) }))).toEqual(
      shape(parseSheet(sheet)).map(({ headers, ...r }) => ({ ...r, headers: headers.map((h) => ('value' in h ? [h.name, h.value] : h.name)) })),
    );
  });

  it.each([
    ['a Lisp variable', ':token := (getenv "T")\nGET http://h/:token', 1, ':token := (getenv "T")'],
    ['a multi-line variable', ':hdrs = <<\nA: b\n#\nGET http://h/', 1, ':hdrs = <<'],
    ['a header block line', ':h = X: 1\nGET http://h/\n:h', 3, ':h'],
    ['a hook', 'GET http://h/\n-> jq-set-var :id .id', 2, '-> jq-set-var :id .id'],
  ])('%s is named with its line', (_, text, line, construct) => {
    const { problems, text: out } = sheetToHttp(text);
    expect(problems).toContainEqual(expect.objectContaining({ line, construct }));
    expect(out).toContain(`not converted (line ${line})`);
  });
});

describe('http -> sheet', () => {
  it.each([
    ['a system variable', 'GET http://h/{{$guid}}', 1, '{{$guid}}'],
    ['an environment variable', 'GET {{host}}/x', 1, '{{host}}'],
    ['a request variable', '@a = 1\n###\nGET http://h/{{login.response.body.$.id}}', 3, '{{login.response.body.$.id}}'],
    ['# @no-redirect', '# @no-redirect\nGET http://h/', 1, '# @no-redirect'],
    ['a response handler', 'GET http://h/\n\n> {% client.log(1) %}', 3, '> {% ... %}'],
    ['a <@ body', 'POST http://h/\n\n<@ ./t.json', 3, '<@ ./t.json'],
    ['a >> save of the response', 'GET http://h/\n\n>>! ./out/u.json', 3, '>>! ./out/u.json'],
    ['a body with < parts outside multipart', 'POST http://h/\nContent-Type: text/plain\n\nabc\n< ./f\nxyz', 4, 'body with < path parts'],
    ['a body line starting with #', 'POST http://h/\n\n# heading\ntext', 3, '# heading'],
  ])('%s is named with its line', (_, text, line, construct) => {
    expect(httpToSheet(text).problems).toContainEqual(expect.objectContaining({ line, construct }));
  });

  it('converts a multipart body with < parts into the sheet multipart form (same bytes: sheet-multipart.test.ts)', () => {
    const http = 'POST http://h/\nContent-Type: multipart/form-data; boundary=B\n\n--B\nContent-Disposition: form-data; name="f"\n\n< ./f\n--B--\n';
    const { text, problems } = httpToSheet(http);
    expect(problems).toEqual([]);
    const s = parseSheet(text);
    expect(s.requests[0]!.body?.kind).toBe('parts');
    expect(text).toContain('\n< ./f\n--B--\n');
  });

  it('converts file variables and keeps the request name as a comment', () => {
    const { text, problems } = httpToSheet(lines('@host = http://127.0.0.1', '# @name list', 'GET {{host}}/users', '    ?page=2'));
    expect(problems).toEqual([]);
    const s = parseSheet(text);
    expect(s.vars.map((v) => [v.name, v.value])).toEqual([[':host', 'http://127.0.0.1']]);
    expect(s.requests.map((r) => [r.method, r.url])).toEqual([['GET', ':host/users?page=2']]);
    expect(text).toContain('# @name list');
  });
});

describe('HTTP/2 both ways (docs/networks.md)', () => {
  it('# @http2 and HTTP/2 on a .http request line become HTTP/2 on the sheet line, and back', () => {
    const { text, problems } = httpToSheet('# @http2\nGET https://h/a\n\n###\nGET https://h/b HTTP/2\n\n###\nGET https://h/c HTTP/1.1\n');
    expect(problems).toEqual([]);
    expect(text.split('\n').filter((l) => l.startsWith('GET'))).toEqual(['GET https://h/a HTTP/2', 'GET https://h/b HTTP/2', 'GET https://h/c']);
    const back = sheetToHttp('GET https://h/a HTTP/2\n#\nGET https://h/c\n');
    expect(back.text.split('\n').filter((l) => l.startsWith('GET'))).toEqual(['GET https://h/a HTTP/2', 'GET https://h/c']);
  });
});

describe("JetBrains' GRAPHQL method (kulala.nvim tests/functional/fixtures/format.http)", () => {
  it('becomes POST marked # @graphql (issue 37 item 4), the Content-Type as written', () => {
    const { text, problems } = httpToSheet('GRAPHQL https://h/graphql\n\nquery Q { a }\n\n###\nGRAPHQL https://h/graphql\nContent-Type: application/json\n\nquery R { b }\n');
    expect(problems).toEqual([]);
    const sheet = parseSheet(text);
    expect(shape(sheet)).toEqual([
      { method: 'POST', url: 'https://h/graphql', headers: [], body: 'query Q { a }' },
      { method: 'POST', url: 'https://h/graphql', headers: [expect.objectContaining({ name: 'Content-Type', value: 'application/json' })], body: 'query R { b }' },
    ]);
    expect(sheet.requests.map((r) => r.directives?.map((d) => d.name))).toEqual([['graphql'], ['graphql']]);
  });

  it("a sheet's # @graphql goes back to .http as X-REQUEST-TYPE: GraphQL", () => {
    const { text, problems } = sheetToHttp('# @graphql\nPOST https://h/graphql\n\nquery Q { a }\n');
    expect(problems).toEqual([]);
    expect(text).toBe('###\nPOST https://h/graphql\nX-REQUEST-TYPE: GraphQL\n\nquery Q { a }\n\n');
  });
});

describe('token auth both ways (docs/sheet-format.md, "Token auth")', () => {
  it("a sheet's # @auth ID becomes Authorization: Bearer {{$auth.token(\"ID\")}}, and back", () => {
    const { text, problems } = sheetToHttp('# @auth svc\nGET https://h/me\n#\n# @auth svc\nGET https://h/own\nAuthorization: Basic eDp5\n');
    expect(problems).toEqual([]);
    expect(text).toBe('###\nGET https://h/me\nAuthorization: Bearer {{$auth.token("svc")}}\n\n###\nGET https://h/own\nAuthorization: Basic eDp5\n\n');
    const back = httpToSheet(text);
    expect(back.problems).toEqual([]);
    expect(back.text).toBe('# @auth svc\nGET https://h/me\n#\nGET https://h/own\nAuthorization: Basic eDp5\n#\n');
    const sheet = parseSheet(back.text);
    expect(sheet.requests.map((r) => (r.directives ?? []).filter((d) => d.name === 'auth').map((d) => d.value))).toEqual([['svc'], []]);
  });

  it('another use of $auth.token (an ID token, a prefix other than Bearer) is named, not dropped', () => {
    const { problems } = httpToSheet('GET https://h/me\nAuthorization: Token {{$auth.token("svc")}}\nX-Id: {{$auth.idToken("svc")}}\n');
    expect(problems.map((p) => p.line)).toEqual([2, 3]);
  });
});
