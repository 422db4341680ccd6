// Presentation helpers, table-driven: the JSON re-indenter (exact numbers and keys, \u escapes,
// invalid input), XML batching equal to xml-formatter on the whole document, charsets, modes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { charLength, decodeBody, modeFor, parseContentType, present, prettyJson, prettyJsonUtf8, prettyXml } from '../../engine/src/present/present.js';
import { prettyXmlFastUtf8, XML_WHOLE_LIMIT } from '../../engine/src/present/xml.js';
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
    ['invalid UTF-8: decoded with U+FFFD, then re-indented', [...Buffer.from('["'), 0xff, ...Buffer.from('"]')], '', '[\n  "\ufffd"\n]', true],
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

  // Documents of the shape the fast path takes: elements holding text alone or elements alone.
  const fast = (doc: string) => {
    const out = prettyXmlFastUtf8(Buffer.from(doc, 'utf8'));
    return out && Buffer.from(out).toString('utf8');
  };
  const name = fc.constantFrom('a', 'b', 'item', 'x:y', '_n', 'n-1', 'n.2', 'Users');
  const blank = fc.constantFrom('', ' ', '\n', '\n    ', '\t', '  \n  ');
  const doc = (textUnits: string[]) => {
    const text = fc.string({ unit: fc.constantFrom(...textUnits), maxLength: 8 });
    const attrs = fc
      .uniqueArray(fc.tuple(name, fc.string({ unit: fc.constantFrom('v', ' ', '>', '&amp;', '\u00e9', "'", '/', '\n'), maxLength: 5 }), fc.constantFrom(' ', '\n  ', '  '), fc.constantFrom('=', ' = ', '= ')), {
        maxLength: 3,
        selector: ([n]) => n,
      })
      .map((as) => as.map(([n, v, sep, eq]) => `${sep}${n}${eq}"${v}"`).join(''));
    const leaf = fc.oneof(
      fc.tuple(name, attrs, fc.constantFrom('/>', ' />')).map(([n, a, end]) => `<${n}${a}${end}`),
      fc.tuple(name, attrs, text, blank).map(([n, a, t, b]) => `<${n}${a}>${t}</${n}${b.replace(/\n/g, ' ')}>`),
    );
    const tree = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { maxDepth: 4 },
        leaf,
        fc
          .tuple(name, attrs, fc.array(fc.tuple(blank, tie('node')), { minLength: 1, maxLength: 4 }), blank)
          .map(([n, a, kids, b]) => `<${n}${a}>${kids.map(([k, c]) => k + c).join('')}${b}</${n}>`),
      ),
    })).node;
    return fc
      .tuple(fc.constantFrom('', '<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0"?>\n', '<?xml?>'), blank, tree, blank)
      .map(([decl, b1, t, b2]) => `${b1}${decl}${decl ? b1 : ''}${t}${b2}`);
  };
  const textUnits = ['x', 'y z', ' ', '\n', '\t', '\u00e9', '\u65e5', '&lt;', '>', '1', '  '];

  it('the fast path gives exactly what xml-formatter gives, on any document of its shape', () => {
    fc.assert(
      fc.property(doc(textUnits), (d) => {
        const out = fast(d);
        expect(out).toBeDefined();
        expect(out).toBe(whole(d));
      }),
      { numRuns: 500 },
    );
  });

  it('trims text as String.prototype.trim does, spaces beyond ASCII included', () => {
    fc.assert(
      fc.property(doc([...textUnits, '\u00a0', '\u3000', '\ufeff', '\u2028', '\u2009', '\u1680', '\u205f', '\u0085', '\v', '\f']), (d) => {
        const out = fast(d);
        expect(out).toBeDefined();
        expect(out).toBe(whole(d));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['a no-break space before text on its own lines', '<a>\u00a0x\n</a>'],
    ['an ideographic space alone', '<r><a>\u3000</a><b/></r>'],
    ['text with spaces around, on one line', '<r><a> x </a></r>'],
    ['a byte order mark and blanks around the document', '\ufeff \n<?xml version="1.0"?>\n<a b = "1"\n c="&gt;"/>\n'],
    ['an empty declaration', '<?xml?><a></a>'],
  ])('the fast path is exact on %s', (_, d) => {
    expect(fast(d)).toBe(whole(d));
  });

  it.each([
    ['a comment', '<a><!-- c --><b/></a>'],
    ['CDATA', '<a><![CDATA[x]]></a>'],
    ['mixed content', '<a>t<b/></a>'],
    ['a DOCTYPE', '<!DOCTYPE a><a/>'],
    ['a processing instruction inside', '<a><?pi x?></a>'],
    ['single-quoted attributes', "<a b='1'/>"],
    ['a repeated attribute', '<a b="1" b="2"/>'],
    ['xml:space', '<a xml:space="preserve"> <b/> </a>'],
    ['a carriage return', '<a>\r\n<b/></a>'],
    ['a non-ASCII name', '<\u00e9/>'],
    ['an end tag that does not match', '<a><b></c></a>'],
    ['text after the root', '<a/>x'],
  ])('the fast path steps aside for %s', (_, d) => {
    expect(fast(d)).toBeUndefined();
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

  it('big documents of the common shape take the fast path; others the batches', () => {
    const big = bigXml(5 * XML_WHOLE_LIMIT);
    expect(fast(big)).toBe(whole(big));
    const commented = big.replace('<users>', '<users><!-- c -->');
    expect(fast(commented)).toBeUndefined();
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
  ])('decodeBody(%j, %s)', (bytes, charset, text) => {
    expect(decodeBody(Uint8Array.from(bytes), charset).text).toBe(text);
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
