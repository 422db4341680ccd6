// Issue 25's speed target: an editor session re-parses a sheet chunk by chunk after an edit
// (engine/src/sheet/incremental.ts). Whatever the text and whatever the edits, the result must
// be the whole parse's (parseSheet): sheets from the grammar's line kinds (comments, request
// lines, headers, hooks, run-hook forms over lines, multi-line values, `< file` bodies, blank
// lines, unknown methods, `# @no-auto-encoding`, multipart bodies with `< path` parts), edited line by line and character by character (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IncrementalSheetParser } from '../../engine/src/sheet/incremental.js';
import { parseSheet } from '../../engine/src/sheet/parse.js';

const line = fc.constantFrom(
  '#', '# comment', '#', '', '  ', 'GET http://h/a', 'POST :base/x?y=1', 'get http://h/lower', 'GET', 'Accept: */*', 'Content-Type: application/json',
  ':base = http://h', ':v = <<', ':f := (concat "a"', '"b")', '-> jq-set-var :t .t', '-> run-hook (message', '"x")', '-> expect-status 200',
  '{"a": 1}', '< body.bin', 'body text', ':hdrs', 'PUT http://h/b HTTP/1.1',
  '# @no-auto-encoding', 'Content-Type: multipart/form-data; boundary=B', '--B', '< part.bin',
);
const text = fc.array(line, { maxLength: 40 }).map((ls) => ls.join('\n'));
const edit = fc.record({ at: fc.nat(), del: fc.nat({ max: 12 }), ins: fc.oneof(fc.constant(''), fc.constant('\n'), fc.constant('#'), fc.constant('\n#\n'), line, line.map((l) => l + '\n')) });

describe('the incremental parse is the whole parse', () => {
  it('after any sequence of edits', () => {
    fc.assert(
      fc.property(text, fc.array(edit, { maxLength: 12 }), fc.boolean(), (start, edits, finalNewline) => {
        const parser = new IncrementalSheetParser();
        let t = start + (finalNewline ? '\n' : '');
        expect(parser.parse(t)).toEqual(parseSheet(t));
        for (const e of edits) {
          const at = e.at % (t.length + 1);
          t = t.slice(0, at) + e.ins + t.slice(at + e.del);
          expect(parser.parse(t)).toEqual(parseSheet(t));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('a chunk below the edit whose start moves (a request line turned into a comment) is parsed again', () => {
    const parser = new IncrementalSheetParser();
    const before = 'GET http://h/x\n#\nGET http://h/y\n#\nGET http://h/z\n';
    parser.parse(before);
    for (const t of ['#\n#\nGET http://h/y\n#\nGET http://h/z\n', 'GET http://h/x\n#\nGET http://h/y\n#\nGET http://h/z\n', 'GET http://h/x\n\n#\n#\nGET http://h/z\n']) {
      expect(parser.parse(t)).toEqual(parseSheet(t));
    }
  });

  it('keeps the identity a block shares with its request and its error', () => {
    const parser = new IncrementalSheetParser();
    const t = '# a\nGET http://h/1\n#\nget http://h/2\n#\n:v = <<\nx\n';
    parser.parse(t);
    const s = parser.parse('#\n' + t);
    expect(s.blocks.filter((b) => b.request).every((b) => s.requests.includes(b.request!))).toBe(true);
    expect(s.blocks.filter((b) => b.error).every((b) => s.diagnostics.includes(b.error!))).toBe(true);
    expect(s.diagnostics.map((d) => [d.code, d.line])).toEqual([['unknown-method', 5], ['unterminated-multiline', 7]]);
  });
});
