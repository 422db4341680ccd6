// Which parser a file gets (engine/src/http-file/index.ts `syntaxFor`, docs/http-files.md
// "Which parser"): `.sheet` always the sheet syntax; the first-line marker next; a `.http` file
// that is plainly a restclient sheet (declarations before the first request, or no `###` and
// a sheet-only line or several requests) read as a sheet; every other `.http` file as `.http`.
import { describe, expect, it } from 'vitest';
import { looksLikeSheet, parseForFile, syntaxFor } from '../../engine/src/http-file/index.js';

describe('syntaxFor', () => {
  it.each([
    ['VS Code file', 'a.http', '@host = http://h\n\n### one\nGET {{host}}/a\n\n###\nPOST {{host}}/b\n\n{"a": 1}\n', 'http'],
    ['one request, no separator', 'a.http', '# a comment\nGET http://h/a\nAccept: text/plain\n\n{"a": 1}\n', 'http'],
    ['JetBrains handler', 'a.rest', 'GET http://h/a\n\n> {%\n  client.global.set("t", 1);\n%}\n', 'http'],
    ['a body line "-> ..." with ###', 'a.http', 'POST http://h/a\n\n-> step one\n\n###\nGET http://h/b\n', 'http'],
    ['marker sheet in a .http file', 'a.http', '# -*- sheet-syntax: sheet -*-\nGET http://h/a\n', 'sheet'],
    ['marker http in a .txt file', 'notes.txt', '# -*- sheet-syntax: http -*-\nGET http://h/\n', 'http'],
    ['.sheet ignores the marker', 'a.sheet', '# -*- sheet-syntax: http -*-\nGET http://h/\n', 'sheet'],
    ['declarations first', 'api.http', ':base = http://h\n:tok := (getenv "T")\nGET :base/a\n', 'sheet'],
    ['declarations first, ### separators', 'api.http', ':base = http://h\n###\nGET :base/a\n###\nGET :base/b\n', 'sheet'],
    ['hook, no ###', 'api.http', 'POST http://h/login\n\n{}\n-> jq-set-var :tok .token\n', 'sheet'],
    ['two requests separated by #', 'api.http', 'GET http://h/a\n#\nPOST http://h/b\nContent-Type: a\n\n{}\n', 'sheet'],
    ['no name', undefined, 'GET http://h/a\n', 'sheet'],
    ['requests separated by blank lines only', 'a.http', 'GET http://h/a HTTP/1.1\n\nGET http://h/b HTTP/1.1\n', 'http'],
    ['a # @name directive between requests', 'a.http', 'GET http://h/a\n\n# @name second\nGET http://h/b\n', 'http'],
    ['a {{variable}} in a request line', 'a.http', 'GET http://h/{{x}}\n#\nGET http://h/b\n', 'http'],
  ])('%s: %s is %s', (_what, name, text, syntax) => {
    expect(syntaxFor(text, name)).toBe(syntax);
    expect(parseForFile(text, name).syntax ?? 'sheet').toBe(syntax);
  });

  it('a restclient sheet saved as .http reads as the sheet it is', () => {
    const sheet = parseForFile(':base = http://h\n#\nGET :base/a\n#\nPOST :base/b\n-> jq-set-var :id .id\n', 'old.http');
    expect(sheet.requests.map((r) => [r.method, r.url])).toEqual([['GET', ':base/a'], ['POST', ':base/b']]);
    expect(sheet.vars.map((v) => v.name)).toEqual([':base']);
  });

  it('looksLikeSheet is false for an empty text', () => {
    expect(looksLikeSheet('')).toBe(false);
  });
});
