// Which parser a file gets (engine/src/http-file/index.ts `syntaxFor`, docs/http-files.md
// "Which parser"): `.sheet` always the sheet syntax; the first-line marker next; a `.http` file
// that is plainly a restclient sheet (declarations before the first request, or no `###` and
// a sheet-only line or several requests) read as a sheet; every other `.http` file as `.http`.
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../engine/src/errors.js';
import { looksLikeSheet, parseForFile, syntaxChoice, syntaxFor, withSyntaxHint } from '../../engine/src/http-file/index.js';

/** Issue 22 item 5: a restclient sheet saved as .http, a ##### banner, a body right after the headers. */
const BANNER = '#####################\n# The users API\n#####################\nGET http://h/users\n#\nPOST http://h/users\nContent-Type: application/json\n{"name": "x"}\n';

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
    ['a ##### banner is a comment, not a ### separator', 'a.http', BANNER, 'sheet'],
    ['a #### line between two requests', 'a.http', 'GET http://h/a\n####\nGET http://h/b\n', 'sheet'],
    ['### name separators', 'a.http', '### one\nGET http://h/a\n#\n### two\nGET http://h/b\n', 'http'],
    ['marker restclient in a .http file', 'a.http', '# -*- sheet-syntax: restclient -*-\nGET http://h/a\n###\nGET http://h/b\n', 'sheet'],
  ])('%s: %s is %s', (_what, name, text, syntax) => {
    expect(syntaxFor(text, name)).toBe(syntax);
    expect(parseForFile(text, name).syntax ?? 'sheet').toBe(syntax);
  });

  it('a restclient sheet saved as .http reads as the sheet it is', () => {
    const sheet = parseForFile(':base = http://h\n#\nGET :base/a\n#\nPOST :base/b\n-> jq-set-var :id .id\n', 'old.http');
    expect(sheet.requests.map((r) => [r.method, r.url])).toEqual([['GET', ':base/a'], ['POST', ':base/b']]);
    expect(sheet.vars.map((v) => v.name)).toEqual([':base']);
  });

  it('a restclient sheet with a ##### banner and a body right after the headers: two requests, the body a body', () => {
    const sheet = parseForFile(BANNER, 'old.http');
    expect(sheet.requests.map((r) => [r.method, r.url, r.headers.length, r.body?.kind === 'text' ? r.body.text : undefined])).toEqual([
      ['GET', 'http://h/users', 0, undefined],
      ['POST', 'http://h/users', 1, '{"name": "x"}'],
    ]);
  });

  it('.http syntax: a line that is no header (a name that is no token) starts the body', () => {
    const sheet = parseForFile('POST http://h/a\nContent-Type: application/json\n{"a": 1}\n', 'a.http');
    expect(sheet.syntax).toBe('http');
    expect(sheet.requests[0]!.headers.map((h) => h.kind === 'header' && h.name)).toEqual(['Content-Type']);
    expect(sheet.requests[0]!.body).toMatchObject({ kind: 'text', text: '{"a": 1}' });
    expect(parseForFile('GET http://h/a\n{{name}}: v\n', 'a.http').requests[0]!.headers).toHaveLength(1);
  });

  it('syntaxChoice says when the syntax was guessed', () => {
    expect(syntaxChoice('GET http://h/\n', 'a.http')).toEqual({ syntax: 'http', guessed: true });
    expect(syntaxChoice(BANNER, 'a.rest')).toEqual({ syntax: 'sheet', guessed: true });
    expect(syntaxChoice('# -*- sheet-syntax: http -*-\nGET http://h/\n', 'a.http')).toEqual({ syntax: 'http', guessed: false });
    expect(syntaxChoice('GET http://h/\n', 'a.sheet')).toEqual({ syntax: 'sheet', guessed: false });
    // A line only one syntax has backs the guess: nothing to warn about.
    expect(syntaxChoice('@host = http://h\nGET {{host}}/a\n', 'a.http')).toEqual({ syntax: 'http', guessed: false });
    expect(syntaxChoice(':base = http://h\nGET :base/a\n', 'a.http')).toEqual({ syntax: 'sheet', guessed: false });
  });

  it('withSyntaxHint: the line, and in a guessed file the syntax and how to pin it', () => {
    const e = withSyntaxHint(new EngineError('network-error', 'http://h/: invalid header key', { hint: 'Check it.' }), { syntax: 'http', guessed: true }, 4) as EngineError;
    expect(e.message).toBe('line 4: http://h/: invalid header key');
    expect(e.line).toBe(4);
    expect(e.hint).toBe('Check it. The file was read as a VS Code / JetBrains .http file (guessed from its text); if it is a restclient sheet, put # -*- sheet-syntax: restclient -*- on its first line.');
    const s = withSyntaxHint(new EngineError('unknown-method', 'unknown method X', { line: 2 }), { syntax: 'sheet', guessed: true }) as EngineError;
    expect(s.line).toBe(2);
    expect(s.hint).toMatch(/read as a restclient sheet \(guessed from its text\).*sheet-syntax: http/);
    const kept = new EngineError('unknown-method', 'x', { line: 2 });
    expect(withSyntaxHint(kept, { syntax: 'http', guessed: false }, 5)).toBe(kept);
    const cancelled = new EngineError('cancelled', 'request cancelled');
    expect(withSyntaxHint(cancelled, { syntax: 'http', guessed: true }, 5)).toBe(cancelled);
  });

  it('looksLikeSheet is false for an empty text', () => {
    expect(looksLikeSheet('')).toBe(false);
  });
});
