// Presentation helpers, table-driven: the JSON re-indenter (exact numbers and keys, \u escapes,
// invalid input), XML batching equal to xml-formatter on the whole document, charsets, modes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { charLength, decodeExact, modeFor, parseContentType, present, prettyJson, prettyJsonUtf8, prettyXml } from '../../engine/src/present/present.js';
import { XML_WHOLE_LIMIT } from '../../engine/src/present/xml.js';
// @ts-expect-error plain ESM fixture without types
import { bigXml } from '../fixtures/routes/core.mjs';
import xmlFormatImport from 'xml-formatter';

describe('prettyJson', () => {
  it.each([
    ['scalars', '  42 ', '42'],
    ['big integers as sent', '[12345678901234567890, -0.0, 1E400, 1.50]', '[\n  12345678901234567890,\n  -0.0,\n  1E400,\n  1.50\n]'],
    ['duplicate keys kept, in order', '{"a":1,"b":2,"a":3}', '{\n  "a": 1,\n  "b": 2,\n  "a": 3\n}'],
    ['empty containers on one line', '{"o":{ },"l":[\n]}', '{\n  "o": {},\n  "l": []\n}'],
    ['nesting', '[[[]],{"a":{"b":[null,true,false]}}]', '[\n  [\n    []\n  ],\n  {\n    "a": {\n      "b": [\n        null,\n        true,\n        false\n      ]\n    }\n  }\n]'],
    ['\\u escapes shown as characters', '"\\u00e9\\u65e5\\ud83d\\ude00"', '"\u00e9\u65e5\u{1f600}"'],
    ['escapes that would change the meaning kept', '"\\u0022\\u005c\\u0000\\u001f\\u007f\\u0085"', '"\\u0022\\u005c\\u0000\\u001f\\u007f\\u0085"'],
    ['lone surrogates kept escaped', '["\\ud800", "\\udc00x", "\\ud800\\u0041"]', '[\n  "\\ud800",\n  "\\udc00x",\n  "\\ud800A"\n]'],
    ['other escapes as written', '"a\\/b\\n\\t\\"\\\\"', '"a\\/b\\n\\t\\"\\\\"'],
    ['non-ASCII text as is', '{"k\u00e9y":"\u65e5\u672c"}', '{\n  "k\u00e9y": "\u65e5\u672c"\n}'],
  ])('%s', (_, input, output) => {
    expect(prettyJson(input)).toBe(output);
  });

  it.each([
    ['empty', ''],
    ['trailing comma', '[1,]'],
    ['missing comma', '{"a":1 "b":2}'],
    ['leading zero', '01'],
    ['bare dot', '1.'],
    ['bad escape', '"\\x"'],
    ['raw control character in a string', '"a\nb"'],
    ['unterminated string', '"abc'],
    ['two values', '1 2'],
    ['single quotes', "{'a':1}"],
    ['unclosed', '{"a":[1,2}'],
    ['NaN', 'NaN'],
    ['short \\u', '"\\u12"'],
  ])('invalid: %s -> undefined', (_, input) => {
    expect(prettyJson(input)).toBeUndefined();
  });

  it('agrees with JSON.stringify(v, null, 2) on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        expect(prettyJson(text)).toBe(JSON.stringify(v, null, 2));
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1)))), (t) => {
        const out = prettyJson(t);
        expect(out === undefined || typeof out === 'string').toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe('JSON re-indented on the UTF-8 bytes as received (present)', () => {
  const json = (body: Uint8Array, charset = '', threshold: number | null = 100000) =>
    present({ httpVersion: '1.1', status: 200, statusText: 'OK', headers: [['Content-Type', `application/json${charset}`]], body }, { threshold });

  it('gives the text JSON.stringify(v, null, 2) gives, for any JSON value with any Unicode text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (v) => {
        const body = Buffer.from(JSON.stringify(v), 'utf8');
        const r = json(body);
        expect(r).toMatchObject({ kind: 'text', formatted: true, charset: 'utf-8' });
        expect(r.text).toBe(JSON.stringify(v, null, 2));
        expect(Buffer.from(prettyJsonUtf8(body)!).toString('utf8')).toBe(JSON.stringify(v, null, 2));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['a byte order mark, dropped as decoding drops it', [0xef, 0xbb, 0xbf, ...Buffer.from('{"a":1}')], '', '{\n  "a": 1\n}', true],
    ['a charset label for UTF-8', [...Buffer.from('{"\u00e9":"\\u00e9"}')], '; charset=UTF8', '{\n  "\u00e9": "\u00e9"\n}', true],
    ['another charset: decoded by it', [0x5b, 0x22, 0xe9, 0x22, 0x5d], '; charset=iso-8859-1', '[\n  "\u00e9"\n]', true],
    ['not JSON: the text as received', [...Buffer.from('{"a":\u00e9')], '', '{"a":\u00e9', false],
  ])('%s', (_, bytes, charset, text, formatted) => {
    const r = json(Uint8Array.from(bytes), charset);
    expect(r.text).toBe(text);
    expect(r.formatted).toBe(formatted);
  });

  it('the threshold counts the characters of the body as decoded (no BOM, code points)', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const ascii = Buffer.concat([bom, Buffer.from('"' + 'a'.repeat(10) + '"')]);
    expect(json(ascii, '', 12).overThreshold).toBe(false);
    expect(json(ascii, '', 11).overThreshold).toBe(true);
    const wide = Buffer.from('"' + '\u{1f600}'.repeat(10) + '"');
    expect(json(wide, '', 12).overThreshold).toBe(false);
    expect(json(wide, '', 11).overThreshold).toBe(true);
    expect(json(wide, '', 9).overThreshold).toBe(true);
    expect(json(wide, '', null).overThreshold).toBe(false);
  });
});

describe('prettyXml', () => {
  const xmlFormat = ((xmlFormatImport as unknown as { default?: typeof xmlFormatImport }).default ?? xmlFormatImport) as (x: string, o: object) => string;
  const whole = (x: string) => xmlFormat(x, { indentation: '  ', collapseContent: true, lineSeparator: '\n' });

  it.each([
    ['the example API document', bigXml(5 * XML_WHOLE_LIMIT)],
    [
      'a deep document with a prolog, comments, CDATA and attributes holding >',
      `<?xml version="1.0"?>\n<!DOCTYPE r>\n<!-- head -->\n<r a="1"><big x="a>b">${Array.from({ length: 3000 }, (_, i) => `<i n='${i}'><![CDATA[<x>]]><!-- c --><e/>t${i}</i>`).join('')}</big><tail>z</tail></r>`,
    ],
  ])('formats a large document in batches exactly as xml-formatter does whole: %s', (_, doc) => {
    expect(doc.length).toBeGreaterThan(XML_WHOLE_LIMIT);
    expect(prettyXml(doc)).toBe(whole(doc));
  });

  it('present() gives the same text for a big XML body, as UTF-8 bytes or in another charset', () => {
    const d = bigXml(5 * XML_WHOLE_LIMIT).replace('user 1<', 'user \u00e9 1<');
    const show = (body: Uint8Array, type: string) =>
      present({ httpVersion: '1.1', status: 200, statusText: 'OK', headers: [['Content-Type', type]], body }, { threshold: 100 });
    const utf8 = show(Buffer.from(d, 'utf8'), 'application/xml');
    const latin1 = show(Buffer.from(d, 'latin1'), 'text/xml; charset=iso-8859-1');
    expect(utf8).toMatchObject({ kind: 'text', mode: 'xml', formatted: true, overThreshold: true, charset: 'utf-8' });
    expect(utf8.text).toBe(whole(d));
    expect(latin1.text).toBe(whole(d));
  });

  it('a big document with a comment is formatted in batches too', () => {
    const commented = bigXml(5 * XML_WHOLE_LIMIT).replace('<users>', '<users><!-- c -->');
    expect(prettyXml(commented)).toBe(whole(commented));
  });

  it.each([
    ['unclosed', `<a>${'<b>x</b>'.repeat(5000)}`],
    ['two roots', `<a>${'<b/>'.repeat(10000)}</a><c/>`],
    ['small and broken', '<a><b></a'],
  ])('invalid: %s -> undefined', (_, doc) => {
    expect(prettyXml(doc)).toBeUndefined();
  });
});

describe('content types, charsets, modes', () => {
  it.each([
    ['application/json; charset=UTF-8', { type: 'application/json', charset: 'UTF-8' }],
    ['Text/XML;Charset="iso-8859-1"', { type: 'text/xml', charset: 'iso-8859-1' }],
    [undefined, { type: '' }],
  ])('parseContentType(%j)', (value, parsed) => {
    expect(parseContentType(value)).toEqual(parsed);
  });

  it.each([
    ['application/json', 'json'],
    ['application/hal+json', 'json'],
    ['text/xml', 'xml'],
    ['application/xml', 'xml'],
    ['application/rss+xml', 'xml'],
    ['text/html', 'html'],
    ['image/svg+xml', 'xml'],
    ['image/jpeg', 'image'],
    ['text/plain', 'text'],
  ])('modeFor(%s) = %s', (type, mode) => {
    expect(modeFor(type)).toBe(mode);
  });

  it.each([
    [[0x63, 0x61, 0x66, 0xe9], 'iso-8859-1', 'caf\u00e9'],
    [[0x93, 0xfa, 0x96, 0x7b], 'shift_jis', '\u65e5\u672c'],
    [[0xc3, 0xa9], undefined, '\u00e9'],
    [[0xc3, 0xa9], 'no-such-charset', '\u00e9'],
    [[0x63, 0x61, 0x66, 0xe9], undefined, undefined],
    [[0x61, 0xff, 0x62], 'utf-8', undefined],
    [[0x93], 'shift_jis', undefined],
  ])('decodeExact(%j, %s)', (bytes, charset, text) => {
    expect(decodeExact(Uint8Array.from(bytes), charset)?.text).toBe(text);
  });

  it('charLength counts code points, as Emacs counts characters', () => {
    expect(charLength('a\u{1f600}b')).toBe(3);
    expect(charLength('\ud800x')).toBe(2);
  });

  it('the threshold counts characters, not bytes or UTF-16 units', () => {
    const body = Buffer.from('"' + '\u{1f600}'.repeat(10) + '"');
    const r = (threshold: number) => present({ httpVersion: '1.1', status: 200, statusText: 'OK', headers: [['Content-Type', 'application/json']], body }, { threshold });
    expect(r(12).overThreshold).toBe(false);
    expect(r(11).overThreshold).toBe(true);
  });
});
