// The .http parser (engine/src/http-file/parse.ts), table-driven: one row per construct of
// docs/http-files.md, plus a property test that any text parses without throwing and every
// diagnostic has a line inside the text.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseHttpFile } from '../../engine/src/http-file/parse.js';
import { requestAt } from '../../engine/src/sheet/parse.js';
import type { RequestNode } from '../../engine/src/sheet/ast.js';

const http = (...lines: string[]) => lines.join('\n');
const first = (text: string): RequestNode => {
  const s = parseHttpFile(text);
  expect(s.requests.length, JSON.stringify(s.diagnostics)).toBeGreaterThan(0);
  return s.requests[0]!;
};

describe('request line', () => {
  it.each([
    ['method and URL', 'POST https://example.com/comments', 'POST', 'https://example.com/comments', undefined],
    ['method omitted: GET', 'https://example.com/comments/1', 'GET', 'https://example.com/comments/1', undefined],
    ['HTTP version kept apart', 'GET https://example.com/x HTTP/1.1', 'GET', 'https://example.com/x', 'HTTP/1.1'],
    ['variables in the URL', 'GET {{host}}/users/{{id}}', 'GET', '{{host}}/users/{{id}}', undefined],
    ['host without scheme', 'GET localhost:3000/x', 'GET', 'localhost:3000/x', undefined],
  ])('%s', (_, text, method, url, version) => {
    const r = first(text);
    expect([r.method, r.url, r.httpVersion]).toEqual([method, url, version]);
  });

  it('continues the query on lines starting with ? and &', () => {
    const r = first(http('GET https://example.com/comments', '    ?page=2', '    &pageSize=10', 'Accept: */*'));
    expect(r.url).toBe('https://example.com/comments?page=2&pageSize=10');
    expect(r.headers).toEqual([{ kind: 'header', name: 'Accept', value: '*/*', line: 4 }]);
  });

  it.each([
    ['an unknown method', 'FETCH http://h/', 'unknown-method', 1],
    ['an unclosed pre-request script', '< {% request.variables.set("a", 1)\nGET http://h/', 'unterminated-hook-form', 1],
    ['CONNECT', 'CONNECT h:443', 'unsupported-construct', 1],
  ])('%s is a located error', (_, text, code, line) => {
    const s = parseHttpFile(text);
    expect(s.requests).toEqual([]);
    expect(s.diagnostics[0]).toMatchObject({ code, line, severity: 'error' });
    expect(() => requestAt(s, line)).toThrow(expect.objectContaining({ code }));
  });
});

describe('blocks, comments, variables, directives', () => {
  const text = http(
    '@host = http://127.0.0.1:3000',
    '@token = {{login.response.body.$.token}}',
    '',
    '### Log in',
    '# @name login',
    '// a comment',
    'POST {{host}}/login',
    'Content-Type: application/json',
    '',
    '{"user": "a"}',
    '',
    '###',
    '# @no-redirect',
    '# @no-cookie-jar',
    '# @prompt otp One-time password',
    'GET {{host}}/me',
    'Authorization: Bearer {{token}}',
  );
  const s = parseHttpFile(text);

  it('reads file variables anywhere outside requests', () => {
    expect(s.syntax).toBe('http');
    expect(s.vars.map((v) => [v.name, v.value, v.line])).toEqual([
      ['host', 'http://127.0.0.1:3000', 1],
      ['token', '{{login.response.body.$.token}}', 2],
    ]);
  });

  it('splits at ### and keeps line ranges', () => {
    expect(s.requests.map((r) => [r.method, r.line, r.startLine, r.endLine])).toEqual([
      ['POST', 7, 5, 11],
      ['GET', 16, 13, 17],
    ]);
    expect(requestAt(s, 9).line).toBe(7);
    expect(requestAt(s, 17).line).toBe(16);
  });

  it('names requests with # @name and keeps the other directives', () => {
    expect(s.requests[0]!.name).toBe('login');
    expect(s.requests[1]!.directives!.map((d) => [d.name, d.value])).toEqual([
      ['no-redirect', ''],
      ['no-cookie-jar', ''],
      ['prompt', 'otp One-time password'],
    ]);
    expect(s.diagnostics).toEqual([]);
  });

  it('takes the name after ### when there is no # @name', () => {
    expect(first(http('### get-user', 'GET http://h/u')).name).toBe('get-user');
  });

  it('warns about a directive it does not support, with its line', () => {
    const d = parseHttpFile(http('# @no-log', 'GET http://h/')).diagnostics;
    expect(d).toEqual([expect.objectContaining({ code: 'unsupported-construct', severity: 'warning', line: 1 })]);
  });

  it('ends the body at ### and drops trailing blank lines', () => {
    expect(s.requests[0]!.body).toEqual({ kind: 'text', text: '{"user": "a"}', line: 10, endLine: 10 });
  });
});

describe('bodies', () => {
  it.each([
    ['< path: a file body', '< ./data.json', { kind: 'file', path: './data.json', line: 4 }],
    ['<@ path: variables substituted', '<@ ./data.json', { kind: 'file', path: './data.json', line: 4, substitute: true }],
    ['<@latin1 path: with an encoding', '<@latin1 ./d.txt', { kind: 'file', path: './d.txt', line: 4, substitute: true, encoding: 'latin1' }],
  ])('%s', (_, line, body) => {
    expect(first(http('POST http://h/', 'Content-Type: application/json', '', line)).body).toEqual(body);
  });

  it('keeps # and // lines inside a body as body text', () => {
    expect(first(http('POST http://h/', '', 'a', '# not a comment', '// nor this')).body).toMatchObject({ text: 'a\n# not a comment\n// nor this' });
  });

  it('splits a multipart body into text and < path parts', () => {
    const r = first(http(
      'POST http://h/upload',
      'Content-Type: multipart/form-data; boundary=XYZ',
      '',
      '--XYZ',
      'Content-Disposition: form-data; name="file"; filename="a.txt"',
      '',
      '< ./a.txt',
      '--XYZ--',
    ));
    expect(r.body).toEqual({
      kind: 'parts',
      line: 4,
      endLine: 8,
      parts: [
        { kind: 'text', text: '--XYZ\nContent-Disposition: form-data; name="file"; filename="a.txt"\n', line: 4 },
        { kind: 'file', path: './a.txt', line: 7 },
        { kind: 'text', text: '--XYZ--', line: 8 },
      ],
    });
  });
});

describe('response handlers', () => {
  it('reads > {% ... %} over several lines and > ./file.js', () => {
    const r = first(http('GET http://h/', '', '> {%', '  client.global.set("a", response.body.a);', '%}', '', '> ./check.js'));
    expect(r.body).toBeUndefined();
    expect(r.handlers).toEqual([
      { kind: 'inline', source: '\n  client.global.set("a", response.body.a);\n', line: 3, endLine: 5 },
      { kind: 'file', path: './check.js', line: 7, endLine: 7 },
    ]);
  });

  it('an unclosed {% is a located error', () => {
    const s = parseHttpFile(http('GET http://h/', '', '> {% client.test("x", () => {})'));
    expect(s.diagnostics[0]).toMatchObject({ code: 'unterminated-hook-form', line: 3 });
  });

  it('<> reference: a warning, ignored', () => {
    const s = parseHttpFile(http('GET http://h/', '', '<> ./2024-01-01T000000.200.json'));
    expect(s.diagnostics).toEqual([expect.objectContaining({ code: 'unsupported-construct', line: 3, severity: 'warning' })]);
    expect(s.requests.length).toBe(1);
  });

  it('>> file and >>! file are the response saves, in order, never the body (issue 37 item 5)', () => {
    const s = parseHttpFile(http('POST http://h/', '', '{"a": 1}', '', '> {% client.log(1) %}', '>> ./out/a.json', '>>! {{dir}}/b.json'));
    expect(s.diagnostics).toEqual([]);
    expect(s.requests[0]!.body).toMatchObject({ kind: 'text', text: '{"a": 1}' });
    expect(s.requests[0]!.saveResponse).toEqual([
      { path: './out/a.json', overwrite: false, line: 6 },
      { path: '{{dir}}/b.json', overwrite: true, line: 7 },
    ]);
  });
});

describe('pre-request script files (kulala.nvim tests/functional/requests/advanced_E.http)', () => {
  it('a < ./script.js line, then blank lines and directives, then the request line: one request with its script and directives', () => {
    const s = parseHttpFile(http('### Request 1', '', '< ./../scripts/pre.js', '# @prompt PROMPT_VAR', '', 'POST https://h/x', '', '{"a": 1}'));
    expect(s.diagnostics).toEqual([]);
    expect(s.requests.length).toBe(1);
    expect(s.requests[0]).toMatchObject({
      method: 'POST',
      line: 6,
      preScripts: [{ kind: 'file', path: './../scripts/pre.js', line: 3, endLine: 3 }],
      directives: [{ name: 'prompt', value: 'PROMPT_VAR', line: 4 }],
    });
  });
});

describe('robustness', () => {
  it('never throws and locates every diagnostic', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('###', '# @name x', '@a = 1', 'GET {{a}}', '> {%', '%}', '< ./f', '', 'X: y', '?q=1'), fc.string()), { maxLength: 30 }), (ls) => {
        const text = ls.join('\n');
        const s = parseHttpFile(text);
        for (const d of s.diagnostics) expect(d.line >= 1 && d.line <= Math.max(1, s.lineCount)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("kulala.nvim's run and import lines (tests/functional/fixtures/format.http)", () => {
  it('are named in a warning each and never read as a request line', () => {
    const s = parseHttpFile(http('run   #Ndjson', 'run #Multi-form   ( @host  =example.com,   @user= userName)', 'run    ./export/simple.http  ', '', 'import ./export/simple.http', '', 'GET http://h/post HTTP/1.1', 'Accept: application/json'));
    expect(s.diagnostics.map((d) => [d.line, d.code, d.severity])).toEqual([[1, 'unsupported-construct', 'warning'], [2, 'unsupported-construct', 'warning'], [3, 'unsupported-construct', 'warning'], [5, 'unsupported-construct', 'warning']]);
    expect(s.diagnostics[0]!.message).toMatch(/kulala\.nvim's run line/);
    expect(s.requests.map((r) => [r.line, r.method, r.url])).toEqual([[7, 'GET', 'http://h/post']]);
  });

  it('a URL without a method that starts with run is still a request', () => {
    expect(parseHttpFile('runner.example.com/x\n').requests.map((r) => r.url)).toEqual(['runner.example.com/x']);
  });
});

describe('what stands above a request line across blank lines stays with it (kulala.nvim format.http)', () => {
  it('pre-request scripts, directives and run lines, then blank lines, then the request line: one request', () => {
    const s = parseHttpFile(http('### two', '< ./post.js', '', '< {%', 'client.log("x");', '%}', '', '# @no-redirect', '', 'run #Other', '', '', 'GET http://h/post'));
    expect(s.requests.length).toBe(1);
    expect(s.requests[0]).toMatchObject({ line: 13, preScripts: [{ kind: 'file', line: 2 }, { kind: 'inline', line: 4 }], directives: [{ name: 'no-redirect', line: 8 }] });
    expect(s.diagnostics.map((d) => d.line)).toEqual([10]);
  });
});

describe('directives and scripts with no request line below them', () => {
  it('are named in a warning (they apply to nothing), not dropped silently', () => {
    const s = parseHttpFile(http('### one', '# @pageId=', '# @name orphan', '< ./pre.js', '', '###', 'GET http://h/a'));
    expect(s.requests.map((r) => [r.line, r.name])).toEqual([[7, undefined]]);
    expect(s.diagnostics).toEqual([expect.objectContaining({ line: 3, severity: 'warning', message: expect.stringMatching(/# @name has no request line below it/) })]);
  });
});
