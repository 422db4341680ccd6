// present/xml-stream.ts: XML pretty-printed as a stream gives the text prettyXml (xml.ts, the
// in-memory path) gives the whole document, however the bytes are cut; what is not well-formed
// (or cannot be cut) ends with a reason that names the line. Issue 22, item 1.
import { describe, expect, it } from 'vitest';
import { XML_STREAM_MAX_DEPTH, XmlReindenter } from '../../engine/src/present/xml-stream.js';
import { prettyXml, XML_WHOLE_LIMIT } from '../../engine/src/present/xml.js';
import { bigXml } from '../fixtures/routes/core.mjs';

/** The document through the stream in chunks of `size` bytes: the text, or `error: why`. */
function stream(doc: string, size: number, opts = {}): string {
  const bytes = Buffer.from(doc, 'utf8');
  const r = new XmlReindenter(opts);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(Buffer.from(r.push(bytes.subarray(i, i + size))));
  const last = r.end();
  if (last === undefined) return `error: ${r.error}`;
  parts.push(Buffer.from(last));
  return Buffer.concat(parts).toString('utf8');
}

const medium = {
  'the example API document (200 kB)': bigXml(200_000),
  'a prolog, comments, CDATA, attributes holding > and non-ASCII text': `<?xml version="1.0"?>\n<!DOCTYPE r>\n<!-- head -->\n<r a="1"><big x="a>b">${Array.from(
    { length: 3000 },
    (_, i) => `<i n='${i}'><![CDATA[<x>]]><!-- c --><e/>t${i} \u00e9\u65e5\u{1f600}</i>`,
  ).join('')}</big><tail>z</tail></r>\n`,
  'a big leaf, big nested elements, pretty input': `<a>\n  <b><c>${'x'.repeat(40_000)}</c><d/></b>\n${'  <b>y<k><l><m>z</m></l></k></b>\n'.repeat(9000)}<q>${'<p>w</p>'.repeat(6000)}</q></a>`,
};

describe('XmlReindenter', () => {
  it.each(Object.entries(medium))('gives the text prettyXml gives, in chunks of 1, 7, 4096 and 65536 bytes: %s', (_, doc) => {
    expect(doc.length).toBeGreaterThan(XML_WHOLE_LIMIT);
    const want = prettyXml(doc);
    expect(want).toBeDefined();
    for (const size of [1, 7, 4096, 65536]) expect(stream(doc, size)).toBe(want);
  });

  it('a small document is formatted whole, as prettyXml does', () => {
    const doc = '<?xml version="1.0"?><a><b x="1">t</b><c/></a>';
    expect(stream(doc, 5)).toBe(prettyXml(doc));
    expect(stream(doc, 5)).toBe('<?xml version="1.0"?>\n<a>\n  <b x="1">t</b>\n  <c/>\n</a>');
  });

  const big = (inner: string) => `<?xml version="1.0"?>\n<a>\n${'<b>x</b>\n'.repeat(8000)}${inner}`;
  it.each([
    ['an end tag that closes another element', big('</c></a>'), 'not well-formed XML at line 8003: </c> closes <a>'],
    ['an end tag inside a pending element', big('<c><d></c></a>'), 'not well-formed XML at line 8003: </c> closes <d>'],
    ['a second root', big('</a><z/>'), 'not well-formed XML at line 8003: a second root element'],
    ['text after the root', big('</a>\ntrailing'), 'not well-formed XML at line 8003: text after the root element'],
    ['a body that stops inside an element', big('<c>'), 'not well-formed XML at line 8003: the body ends before </c>'],
    ['an unterminated comment', big('<!-- never closed'), 'not well-formed XML at line 8003: unterminated markup'],
    ['a small document xml-formatter cannot read', '<a><<</a>', 'not well-formed XML: xml-formatter could not read it'],
  ])('names why and where: %s', (_, doc, why) => {
    expect(stream(doc, 1000)).toBe(`error: ${why}`);
    expect(prettyXml(doc)).toBeUndefined();
  });

  it('a part with no element to cut it at, past maxPending, gives up with the reason', () => {
    const doc = `<a>${'<b>x</b>'.repeat(5000)}<leaf>${'y'.repeat(300_000)}</leaf></a>`;
    expect(stream(doc, 4096, { maxPending: 100_000 })).toMatch(/^error: a part of more than 100000 characters with no element to cut it at .* \(at line 1\)$/);
    // With room for it, the same document comes out as prettyXml gives it.
    expect(stream(doc, 4096)).toBe(prettyXml(doc));
  });

  it('elements nested past XML_STREAM_MAX_DEPTH, each big, stop it with the reason', () => {
    const depth = 20_000;
    const doc = `${'<d>'.repeat(depth)}${'</d>'.repeat(depth)}`;
    expect(stream(doc, 65536)).toBe(`error: more than ${XML_STREAM_MAX_DEPTH} big elements one inside the other: too deep to indent as it arrives (at line 1)`);
  });

  it('indenting that would grow past maxGrowth gives up instead of filling the disk', () => {
    // 200 levels, then short children each indented by 400 spaces: 100 times the input.
    const doc = `${'<d>'.repeat(200)}${'<e/>'.repeat(30_000)}${'</d>'.repeat(200)}`;
    expect(stream(doc, 65536)).toBe('error: indenting would make it more than 32 times bigger (nested too deep)');
    expect(stream(doc, 65536, { maxGrowth: Infinity })).toBe(prettyXml(doc));
  });

  it('a start tag longer than a chunk (an attribute of 1 MB) is read whole', () => {
    const doc = `<a>${'<b/>'.repeat(9000)}<c v="${'>'.repeat(1_000_000)}"/></a>`;
    expect(stream(doc, 65536)).toBe(prettyXml(doc));
  });

  it('once it has given up, push and end give nothing more', () => {
    const r = new XmlReindenter();
    r.push(Buffer.from(big('</c>')));
    expect(r.push(Buffer.from('<more/>')).length).toBe(0);
    expect(r.end()).toBeUndefined();
    expect(r.error).toMatch(/closes <a>/);
  });
});
