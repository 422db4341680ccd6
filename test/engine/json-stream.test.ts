// The streaming JSON re-indenter (engine/src/present/json-stream.ts), table-driven: the same
// output as the whole-body re-indenter (json.ts) for every input, whole or cut at every byte;
// invalid input gives no output and a reason naming where; deep nesting gives up with a reason.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonReindenter, jsonError } from '../../engine/src/present/json-stream.js';
import { prettyJsonUtf8 } from '../../engine/src/present/json.js';

/** Run `input` through a reindenter in `cuts` pieces; the text, or { error }. */
function stream(input: Uint8Array, cuts: number[] = []): string | { error: string } {
  const r = new JsonReindenter();
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const at of [...cuts, input.length]) {
    parts.push(r.push(input.subarray(from, at)));
    from = at;
  }
  const last = r.end();
  if (last === undefined) return { error: r.error! };
  parts.push(last);
  return Buffer.concat(parts).toString('utf8');
}

const whole = (input: Uint8Array): string | undefined => {
  const out = prettyJsonUtf8(input);
  return out && Buffer.from(out).toString('utf8');
};

const VALID: [string, string][] = [
  ['scalar', '  42 '],
  ['numbers as sent', '[12345678901234567890, -0.0, 1E400, 1.50, 0, -1e-7, 2E+3]'],
  ['nested', '[[[]],{"a":{"b":[null,true,false]}}]'],
  ['empty object and array, with space inside', '{"o":{ },"l":[\n], "e": {}}'],
  ['strings with escaped quotes and brackets', '{"k\\"{[": "a \\"}]\\" b", "\\\\": "[{\\"x\\":1}]"}'],
  ['unicode as is', '{"k\u00e9y":"\u65e5\u672c \u{1f600}"}'],
  ['\\u escapes shown as characters', '"\\u00e9\\u65e5\\ud83d\\ude00"'],
  ['escapes that would change the meaning kept', '"\\u0022\\u005c\\u0000\\u001f\\u007f\\u0085"'],
  ['lone surrogates kept escaped', '["\\ud800", "\\udc00x", "\\ud800\\u0041", "\\ud800\\ud800\\udc00", "\\uD83D"]'],
  ['other escapes as written', '"a\\/b\\n\\t\\"\\\\\\b\\f\\r"'],
  ['already pretty', '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {}\n}'],
  ['byte order mark', '\ufeff{"a":1}'],
  ['CRLF and tabs between tokens', '{\r\n\t"a" :\t1 ,\r\n"b":[ true ]}'],
];

const INVALID: [string, string, RegExp][] = [
  ['empty', '', /it is empty/],
  ['only whitespace', '  \n', /ends before the JSON text/],
  ['trailing comma', '[1,]', /at byte 3: unexpected "\]"/],
  ['missing comma', '{"a":1 "b":2}', /at byte 7: unexpected """/],
  ['leading zero', '01', /at byte 1: unexpected "1" after the JSON text/],
  ['bare dot', '1.', /ends before/],
  ['bad exponent', '1e+x', /unexpected "x" in a number/],
  ['bad escape', '"\\x"', /at byte 1: unknown escape \\x/],
  ['raw control character in a string', '"a\nb"', /at byte 2: control character 0x0a inside a string/],
  ['unterminated string', '"abc', /ends inside a string/],
  ['two values', '1 2', /unexpected "2" after the JSON text/],
  ['single quotes', "{'a':1}", /unexpected "'"/],
  ['unclosed', '{"a":[1,2}', /unexpected "}"/],
  ['NaN', 'NaN', /unexpected "N"/],
  ['short \\u', '"\\u12"', /ends inside a string/],
  ['\\u with a bad digit', '"\\u12x4"', /at byte 1: \\u not followed by four hexadecimal digits/],
  ['high surrogate then a bad \\u', '"\\ud800\\u12x4"', /at byte 7: \\u not followed/],
  ['truncated word', '[tru]', /unexpected "\]"/],
  ['half a byte order mark', '\xef\xbb{}', /at byte 2/],
];

describe('JsonReindenter', () => {
  it.each(VALID)('%s: the same text as json.ts, whole and cut at every byte', (_, text) => {
    const input = Buffer.from(text, 'utf8');
    const want = whole(input);
    expect(want).toBeDefined();
    expect(stream(input)).toBe(want);
    for (let at = 0; at <= input.length; at++) expect(stream(input, [at])).toBe(want);
    // And one byte at a time.
    expect(stream(input, [...Array(input.length).keys()])).toBe(want);
  });

  it.each(INVALID)('invalid: %s -> no output, a reason', (_, text, reason) => {
    const input = Buffer.from(text, /[\x80-\xff]/.test(text) ? 'latin1' : 'utf8');
    expect(whole(input)).toBeUndefined();
    for (let at = 0; at <= input.length; at++) {
      const out = stream(input, [at]);
      expect(out).toMatchObject({ error: expect.stringMatching(/^not valid JSON/) });
      expect((out as { error: string }).error).toMatch(reason);
    }
    expect(jsonError(input)).toMatch(reason);
  });

  it('agrees with json.ts on any JSON value with any Unicode, cut at random places', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (v, cuts, pretty) => {
        const input = Buffer.from(JSON.stringify(v, null, pretty ? 1 : undefined), 'utf8');
        const at = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
        expect(stream(input, at)).toBe(whole(input));
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with json.ts on any text: valid or not, the same verdict', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1)))), fc.nat(), (t, cut) => {
        const input = Buffer.from(t, 'utf8');
        const w = whole(input);
        const s = stream(input, [cut % (input.length + 1)]);
        if (w === undefined) expect(s).toMatchObject({ error: expect.any(String) });
        else expect(s).toBe(w);
      }),
      { numRuns: 400 },
    );
  });

  it('a 10 MB string passes through in pieces, never held', () => {
    const r = new JsonReindenter();
    const chunk = Buffer.alloc(1 << 20, 'a');
    let out = r.push(Buffer.from('{"s":"'));
    expect(Buffer.from(out).toString()).toBe('{\n  "s": "');
    for (let k = 0; k < 10; k++) {
      out = r.push(chunk);
      expect(out.length).toBe(chunk.length);
    }
    expect(Buffer.from(r.push(Buffer.from('"}'))).toString()).toBe('"\n}');
    expect(r.end()!.length).toBe(0);
  });

  it('deep nesting gives up with a reason instead of growing without bound', () => {
    const r = new JsonReindenter();
    const out = r.push(Buffer.from('['.repeat(100000)));
    expect(out.length).toBe(0);
    expect(r.error).toMatch(/more than 32 times its size \(nested \d+ levels deep\)/);
    expect(r.end()).toBeUndefined();
    // Within the bound, deep is fine.
    expect(stream(Buffer.from('['.repeat(300) + ']'.repeat(300)))).toBe(whole(Buffer.from('['.repeat(300) + ']'.repeat(300))));
  });
});
