// The sheet parser, table-driven: one row per construct of docs/sheet-format.md, plus
// property tests (fast-check) that parsing any text never throws and always yields requests or
// located diagnostics.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blockAt, lispFormEnd, METHODS, parseSheet, requestAt, splitLines, varsBefore } from '../../engine/src/sheet/parse.js';
import type { RequestNode } from '../../engine/src/sheet/ast.js';
import { isEngineError } from '../../engine/src/errors.js';

const sheet = (...lines: string[]) => lines.join('\n');

/** The request parsed from `text`, without line bookkeeping, for compact expectations. */
function only(text: string, line = 1): Omit<RequestNode, 'startLine' | 'endLine' | 'line'> & { line: number } {
  const s = parseSheet(text);
  const r = requestAt(s, line);
  const { startLine: _s, endLine: _e, ...rest } = r;
  return rest;
}

describe('request line', () => {
  it.each(METHODS.map((m) => [m]))('%s is a method', (m) => {
    expect(only(`${m} http://h/p?q=1&r=2`)).toMatchObject({ method: m, url: 'http://h/p?q=1&r=2', headers: [], hooks: [] });
  });

  it.each([
    ['https URL with query string', 'GET https://example.org/a/b?x=1&y=%20', 'https://example.org/a/b?x=1&y=%20'],
    ['URL with variables', 'GET :base/users/:id', ':base/users/:id'],
    ['trailing blanks trimmed', 'GET http://h/p   ', 'http://h/p'],
    ['several blanks after the method', 'DELETE \t http://h/p', 'http://h/p'],
  ])('%s', (_, text, url) => {
    expect(only(text).url).toBe(url);
  });

  it.each([
    ['unknown method', 'FETCH http://h/', 'unknown-method', 1, /Use one of GET, POST/],
    ['lower-case method', 'get http://h/', 'unknown-method', 1, /upper case: GET/],
    ['unknown method with a variable URL', '# c\nCOPY :base/x', 'unknown-method', 2, /Use one of/],
    ['request line without URL', 'POST', 'missing-url', 1, /POST http:\/\/host/],
    ['request line with only blanks after the method', '#\nPUT   ', 'missing-url', 2, /PUT http/],
  ])('%s is an error naming the line', (_, text, code, line, hint) => {
    const s = parseSheet(text);
    expect(s.diagnostics).toEqual([expect.objectContaining({ code, line, severity: 'error' })]);
    let err: unknown;
    try {
      requestAt(s, line);
    } catch (e) {
      err = e;
    }
    expect(isEngineError(err)).toBe(true);
    expect(err).toMatchObject({ code, line });
    expect((err as { hint: string }).hint).toMatch(hint);
  });

  it.each([
    ['a final newline', sheet('GET http://h/1', '#', 'GET http://h/2', ''), 4],
    ['blank lines and a final newline', sheet('GET http://h/1', '#', 'GET http://h/2', 'A: x', '', '', ''), 7],
    ['a body and a final newline', sheet('GET http://h/1', '#', 'POST http://h/2', '', 'body', ''), 6],
  ])('at the end of the buffer after %s (M->), the last request, as restclient.el', (_, text, line) => {
    expect(requestAt(parseSheet(text), line).url).toBe('http://h/2');
  });

  it.each([
    ['a trailing comment', sheet('GET http://h/1', '#', 'GET http://h/2', '# end', ''), 5],
    ['variables only in the last block', sheet('GET http://h/1', '#', ':a = 1', ''), 4],
    ['only a comment', sheet('# only a comment', '', ''), 3],
  ])('at the end of the buffer after %s, no request, as restclient.el', (_, text, line) => {
    expect(() => requestAt(parseSheet(text), line)).toThrow(expect.objectContaining({ code: 'no-request-at-point' }));
  });

  it('text above the request line in a block is ignored, as restclient.el does', () => {
    const s = parseSheet(sheet('# notes', 'see http://docs for more', 'GET http://h/'));
    expect(s.diagnostics).toEqual([]);
    expect(requestAt(s, 2).line).toBe(3);
  });
});

describe('headers and hooks', () => {
  it.each([
    ['one header', sheet('GET http://h/', 'Accept: application/json'), [{ kind: 'header', name: 'Accept', value: 'application/json', line: 2 }]],
    [
      'several headers, case and order kept',
      sheet('GET http://h/', 'X-B: 2', 'x-a: 1', 'Authorization: Bearer :token'),
      [
        { kind: 'header', name: 'X-B', value: '2', line: 2 },
        { kind: 'header', name: 'x-a', value: '1', line: 3 },
        { kind: 'header', name: 'Authorization', value: 'Bearer :token', line: 4 },
      ],
    ],
    ['header value with colons', sheet('GET http://h/', 'X-Time: 12:30:00'), [{ kind: 'header', name: 'X-Time', value: '12:30:00', line: 2 }]],
    ['empty header value', sheet('GET http://h/', 'X-Empty:'), [{ kind: 'header', name: 'X-Empty', value: '', line: 2 }]],
    [
      'a :name line inserts the headers held in a variable',
      sheet(':hs = <<', 'A: 1', 'B: 2', '#', 'GET http://h/', ':hs', 'C: 3'),
      [
        { kind: 'use-var', name: ':hs', line: 6 },
        { kind: 'header', name: 'C', value: '3', line: 7 },
      ],
    ],
  ])('%s', (_, text, headers) => {
    const s = parseSheet(text);
    expect(s.requests[0]!.headers).toEqual(headers);
  });

  it.each([
    ['jq-set-var', sheet('GET http://h/', '-> jq-set-var :id .id'), [{ name: 'jq-set-var', args: ':id .id', line: 2, endLine: 2 }]],
    [
      'run-hook over several lines, until the parens balance',
      sheet('POST http://h/', '-> run-hook (progn', '  (message "a)")', '  (sheet-set-var ":x" "1"))', 'Content-Type: text/plain', '', 'body'),
      [{ name: 'run-hook', args: '(progn\n  (message "a)")\n  (sheet-set-var ":x" "1"))', line: 2, endLine: 4 }],
    ],
    ['unknown hook (warned when run)', sheet('GET http://h/', '-> frobnicate 1 2'), [{ name: 'frobnicate', args: '1 2', line: 2, endLine: 2 }]],
    [
      'hooks between headers',
      sheet('GET http://h/', 'A: 1', '-> jq-set-var :a .a', 'B: 2'),
      [{ name: 'jq-set-var', args: ':a .a', line: 3, endLine: 3 }],
    ],
  ])('hook: %s', (_, text, hooks) => {
    expect(parseSheet(text).requests[0]!.hooks).toEqual(hooks);
  });

  it('a run-hook form left open is an error naming the hook line', () => {
    const s = parseSheet(sheet('GET http://h/', '-> run-hook (message "x"', '#', 'GET http://h/2'));
    expect(s.diagnostics).toEqual([expect.objectContaining({ code: 'unterminated-hook-form', line: 2 })]);
    expect(() => requestAt(s, 1)).toThrow(/line 2/);
    expect(requestAt(s, 4).url).toBe('http://h/2');
  });
});

describe('body', () => {
  it.each([
    ['after an empty line; the final newline removed', sheet('POST http://h/', 'A: 1', '', '{"a": 1}', '#'), '{"a": 1}'],
    ['one more empty line keeps one newline', sheet('POST http://h/', '', 'line', '', '#'), 'line\n'],
    ['two more keep two', sheet('POST http://h/', '', 'line', '', '', '#'), 'line\n\n'],
    ['at the end of the text, the final newline removed', 'PUT http://h/\n\nx\ny\n', 'x\ny'],
    ['at the end of the text with one more empty line', 'PUT http://h/\n\nx\n\n', 'x\n'],
    ['directly after the headers (no empty line)', sheet('POST http://h/', 'A: 1', 'text=1'), 'text=1'],
    ['blank lines inside kept', sheet('POST http://h/', '', 'a', '', 'b', '#'), 'a\n\nb'],
    ['CRLF text', 'POST http://h/\r\n\r\nx\r\ny\r\n#\r\n', 'x\ny'],
    ['with variables as text', sheet('POST http://h/', '', '{"id": :id}'), '{"id": :id}'],
    ['XML starting with <', sheet('POST http://h/', '', '<a><b/></a>'), '<a><b/></a>'],
  ])('%s', (_, text, body) => {
    const b = parseSheet(text).requests[0]!.body;
    expect(b).toMatchObject({ kind: 'text', text: body });
  });

  it.each([
    ['GET without body', sheet('GET http://h/', 'A: 1', '#')],
    ['only an empty line', sheet('POST http://h/', '', '#')],
    ['two empty lines: an empty body, as restclient.el', sheet('POST http://h/', '', '', '#')],
  ])('no body: %s', (_, text) => {
    expect(parseSheet(text).requests[0]!.body).toBeUndefined();
  });

  it('a # line ends the body and the request', () => {
    const s = parseSheet(sheet('POST http://h/', '', 'a', '# next', 'b'));
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]).toMatchObject({ body: { text: 'a' }, endLine: 3 });
  });

  it.each([
    ['< path', sheet('POST http://h/', '', '< ./data.json'), './data.json', 3],
    ['<path without a blank', sheet('POST http://h/', 'Content-Type: image/png', '', '<~/img.png  '), '~/img.png', 4],
    ['with a variable', sheet('PUT http://h/', '', '< :dir/body.bin'), ':dir/body.bin', 3],
  ])('file body: %s', (_, text, path, line) => {
    expect(parseSheet(text).requests[0]!.body).toEqual({ kind: 'file', path, line });
  });

  it('lines after a file body are ignored with a warning', () => {
    const s = parseSheet(sheet('POST http://h/', '', '< a.txt', 'more'));
    expect(s.requests[0]!.body).toEqual({ kind: 'file', path: 'a.txt', line: 3 });
    expect(s.diagnostics).toEqual([expect.objectContaining({ code: 'ignored-lines', severity: 'warning', line: 4 })]);
  });
});

describe('variables', () => {
  it.each([
    ['literal', ':host = http://h', { name: ':host', kind: 'literal', multiline: false, value: 'http://h', line: 1, endLine: 1 }],
    ['no blanks around =', ':a=1', { name: ':a', kind: 'literal', multiline: false, value: '1', line: 1, endLine: 1 }],
    ['trailing blanks dropped', ':a = 1  ', { name: ':a', kind: 'literal', multiline: false, value: '1', line: 1, endLine: 1 }],
    ['value with = and :', ':q = a=b:c', { name: ':q', kind: 'literal', multiline: false, value: 'a=b:c', line: 1, endLine: 1 }],
    ['lisp', ':now := (format-time-string "%Y")', { name: ':now', kind: 'lisp', multiline: false, value: '(format-time-string "%Y")', line: 1, endLine: 1 }],
    ['multi-line literal', sheet(':body = <<', '{', '  "a": 1', '}', '#'), { name: ':body', kind: 'literal', multiline: true, value: '{\n  "a": 1\n}', line: 1, endLine: 5 }],
    ['multi-line lisp', sheet(':v := <<', '(concat "a"', '  "b")', '#'), { name: ':v', kind: 'lisp', multiline: true, value: '(concat "a"\n  "b")', line: 1, endLine: 4 }],
    ['multi-line, empty lines kept but the last newline not', sheet(':t = <<', 'a', '', '#'), { name: ':t', kind: 'literal', multiline: true, value: 'a\n', line: 1, endLine: 4 }],
  ])('%s', (_, text, decl) => {
    expect(parseSheet(text).vars).toEqual([decl]);
  });

  it.each([
    ['a value starting with < is not a declaration', ':a = <file'],
    ['no value', ':a = '],
    ['blank in the name', ': a = 1'],
  ])('%s', (_, text) => {
    expect(parseSheet(text).vars).toEqual([]);
  });

  it('only declarations above the request line count; a later one is listed after an earlier one', () => {
    const text = sheet(':a = 1', '#', ':a = 2', 'GET http://h/:a', '#', ':b = 3', 'GET http://h/:b');
    const s = parseSheet(text);
    expect(varsBefore(s, requestAt(s, 4)).map((v) => `${v.name}=${v.value}`)).toEqual([':a=1', ':a=2']);
    expect(varsBefore(s, requestAt(s, 7)).map((v) => `${v.name}=${v.value}`)).toEqual([':a=1', ':a=2', ':b=3']);
  });

  it('a declaration-like line inside a body is body text', () => {
    const s = parseSheet(sheet('POST http://h/', '', ':x = 1', '#', 'GET http://h/:x'));
    expect(s.vars).toEqual([]);
    expect(s.requests[0]!.body).toMatchObject({ text: ':x = 1' });
  });

  it('an unterminated << block is an error naming its line', () => {
    const s = parseSheet(sheet('GET http://h/', '#', ':body = <<', '{"a": 1}', 'POST http://h/'));
    expect(s.diagnostics).toEqual([expect.objectContaining({ code: 'unterminated-multiline', line: 3 })]);
    expect(() => requestAt(s, 5)).toThrow(/line 3: unterminated multi-line variable :body/);
    expect(requestAt(s, 1).url).toBe('http://h/');
  });
});

describe('blocks and point', () => {
  const text = sheet('# first', 'GET http://h/1', 'A: 1', '', 'body', '#', '# second', ':v = 1', '', 'POST http://h/2', '', 'x');

  it('lists requests with the line of the request line and the block range', () => {
    const s = parseSheet(text);
    expect(s.requests.map((r) => [r.method, r.line, r.startLine, r.endLine])).toEqual([
      ['GET', 2, 2, 5],
      ['POST', 10, 8, 12],
    ]);
  });

  it.each([
    [1, 2],
    [2, 2],
    [5, 2],
    [6, 10],
    [7, 10],
    [8, 10],
    [12, 10],
  ])('point on line %i -> request of line %i', (line, reqLine) => {
    expect(requestAt(parseSheet(text), line).line).toBe(reqLine);
  });

  it('point after the last request, on a trailing comment, is no-request-at-point', () => {
    const s = parseSheet(text + '\n# end');
    expect(() => requestAt(s, 13)).toThrow(expect.objectContaining({ code: 'no-request-at-point' }));
  });

  it('an empty sheet has one empty block and no request', () => {
    const s = parseSheet('');
    expect(blockAt(s, 1)).toEqual({ startLine: 1, endLine: 1 });
    expect(() => requestAt(s, 1)).toThrow(expect.objectContaining({ code: 'no-request-at-point' }));
  });

  it.each([
    ['a\nb\n', ['a', 'b']],
    ['a\r\nb', ['a', 'b']],
    ['a\rb\r', ['a', 'b']],
    ['', ['']],
  ])('splitLines(%j)', (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
  });

  it.each([
    ['(a (b) c) rest', 9],
    ['(message ")")', 13],
    ['(list ?\\( ?))', 13],
    ['(a ; comment )\n b)', 18],
    ['(a (b)', -1],
    ['"str" x', 5],
    ['symbol x', 6],
  ])('lispFormEnd(%j) = %i', (text, end) => {
    expect(lispFormEnd(text)).toBe(end);
  });
});

describe('bad input stays fast (never a hang)', () => {
  const many = Array.from({ length: 20000 }, (_, i) => `  "k${i}": (${i},`).join('\n');
  it.each([
    ['a run-hook form left open before 20,000 lines', sheet('POST http://h/', '-> run-hook (progn', many), 'unterminated-hook-form'],
    ['an unterminated << before 20,000 lines', sheet(':v = <<', many), 'unterminated-multiline'],
    ['20,000 lines that look like unknown requests', Array.from({ length: 20000 }, (_, i) => `FETCH http://h/${i}`).join('\n'), 'unknown-method'],
  ])('%s', (_, text, code) => {
    const t = performance.now();
    const s = parseSheet(text);
    expect(performance.now() - t).toBeLessThan(1000);
    expect(s.diagnostics[0]).toMatchObject({ code, line: code === 'unterminated-hook-form' ? 2 : 1 });
  });
});

describe('properties', () => {
  const lineArb = fc.oneof(
    fc.constantFrom('#', '# c', '', '  ', 'GET http://h/:a', 'POST :base/x', 'PUT', 'FETCH http://x', 'get /x', ':a = 1', ':b := (x)', ':m = <<', ':n := <<',
      'A: 1', ':hs', '-> jq-set-var :a .a', '-> run-hook (progn', ')', '-> x', '< f.txt', '{"a": 1}', '\r', 'DELETE https://h/?q=:a'),
    fc.string({ maxLength: 30 }),
  );
  const textArb = fc.array(lineArb, { maxLength: 40 }).map((ls) => ls.join('\n'));

  it('parsing any text never throws, and every line has a request or a located, coded error', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const s = parseSheet(text);
        for (const d of s.diagnostics) expect(d.line >= 1 && d.line <= Math.max(1, s.lineCount)).toBe(true);
        for (const r of s.requests) expect(r.startLine <= r.line && r.line <= r.endLine && r.endLine <= s.lineCount).toBe(true);
        for (let line = 1; line <= s.lineCount; line++) {
          try {
            const r = requestAt(s, line);
            expect(s.requests).toContain(r);
          } catch (e) {
            expect(isEngineError(e)).toBe(true);
            expect(['no-request-at-point', 'unknown-method', 'missing-url', 'unterminated-multiline', 'unterminated-hook-form']).toContain((e as { code: string }).code);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('arbitrary unicode text never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        const s = parseSheet(text);
        expect(Array.isArray(s.requests) && Array.isArray(s.diagnostics)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
