/**
 * XML pretty printing with xml-formatter (two-space indent, text-only elements kept on one
 * line). xml-formatter's parser rescans the rest of the document at every element
 * (`indexOf('?>')`), which is quadratic: 2 s for 1 MB. So a large document is cut at element
 * boundaries, by a small scanner that only finds where elements start and end, into batches of
 * sibling nodes of a few KiB; each batch is formatted by xml-formatter inside as many wrapper
 * elements as its depth, and the wrapper lines are dropped. The result is the same text
 * xml-formatter gives for the whole document (the tests compare both).
 *
 * Most big documents (elements holding text alone or elements alone, as REST APIs send) take a
 * faster way first: {@link prettyXmlFastUtf8} indents them on their UTF-8 bytes in one pass,
 * giving the text xml-formatter gives (checked on generated documents), ten times as fast as
 * the batches; anything else in a document makes it step aside for the batches.
 */
import xmlFormatImport from 'xml-formatter';

type XmlFormat = (xml: string, options?: Record<string, unknown>) => string;
// A CommonJS module with `exports.default`: under NodeNext the default import is the module
// object; once bundled by esbuild it may already be the function.
const xmlFormat: XmlFormat = ((xmlFormatImport as unknown as { default?: XmlFormat }).default ?? xmlFormatImport) as unknown as XmlFormat;

const OPTIONS = { indentation: '  ', collapseContent: true, lineSeparator: '\n', throwOnFailure: true } as const;

/** Below this many characters a document (or an element) is handed to xml-formatter whole. */
export const XML_WHOLE_LIMIT = 32 * 1024;
/** Target size of one batch of siblings, in characters. */
const BATCH = 2 * 1024;

interface Elem {
  /** index of `<` of the start tag */
  start: number;
  /** index after `>` of the start tag */
  openEnd: number;
  /** index of `<` of the end tag (= openEnd... for a self-closing tag: -1) */
  closeStart: number;
  /** index after the end tag's `>` */
  end: number;
  children: Elem[];
}

/** Find the elements of `text` (start and end of tags, nesting); undefined when not well nested. */
function scan(text: string): { prolog: number; root: Elem; epilog: number } | undefined {
  const n = text.length;
  const stack: Elem[] = [];
  let root: Elem | undefined;
  let prolog = -1;
  let i = text.indexOf('<');
  while (i >= 0 && i < n) {
    const c = text.charCodeAt(i + 1);
    let next: number;
    if (c === 33 /* ! */) {
      if (text.startsWith('<!--', i)) next = text.indexOf('-->', i + 4) + 3;
      else if (text.startsWith('<![CDATA[', i)) next = text.indexOf(']]>', i + 9) + 3;
      else {
        // <!DOCTYPE ...> with an optional [internal subset]
        let k = i + 2;
        let bracket = 0;
        for (; k < n; k++) {
          const d = text.charCodeAt(k);
          if (d === 91) bracket++;
          else if (d === 93) bracket--;
          else if (d === 62 && bracket <= 0) break;
        }
        next = k + 1;
      }
      if (next <= 2 || next > n) return undefined;
    } else if (c === 63 /* ? */) {
      next = text.indexOf('?>', i + 2) + 2;
      if (next < 2) return undefined;
    } else if (c === 47 /* / */) {
      next = text.indexOf('>', i + 2) + 1;
      const top = stack.pop();
      if (next < 1 || !top) return undefined;
      top.closeStart = i;
      top.end = next;
    } else {
      // start tag: find its `>` outside attribute values
      let k = i + 1;
      let quote = 0;
      for (; k < n; k++) {
        const d = text.charCodeAt(k);
        if (quote) {
          if (d === quote) quote = 0;
        } else if (d === 34 || d === 39) quote = d;
        else if (d === 62) break;
      }
      if (k >= n) return undefined;
      next = k + 1;
      const selfClosing = text.charCodeAt(k - 1) === 47;
      const el: Elem = { start: i, openEnd: next, closeStart: -1, end: selfClosing ? next : -1, children: [] };
      if (stack.length) stack[stack.length - 1]!.children.push(el);
      else if (root) return undefined; // a second root
      else {
        root = el;
        prolog = i;
      }
      if (!selfClosing) stack.push(el);
    }
    i = text.indexOf('<', next);
  }
  if (!root || stack.length || root.end < 0) return undefined;
  return { prolog, root, epilog: root.end };
}

/** Format `inner` (sibling nodes) as if at `depth`, through `depth` wrapper elements. */
function formatAt(inner: string, depth: number): string {
  const wrapped = '<w>'.repeat(depth) + inner + '</w>'.repeat(depth);
  const s = xmlFormat(wrapped, OPTIONS);
  let a = 0;
  for (let d = 0; d < depth; d++) a = s.indexOf('\n', a) + 1;
  let b = s.length;
  for (let d = 0; d < depth; d++) b = s.lastIndexOf('\n', b - 1);
  return s.slice(a, b);
}

function formatElem(text: string, el: Elem, depth: number, out: string[]): void {
  if (el.end - el.start <= XML_WHOLE_LIMIT || el.closeStart < 0 || !el.children.length) {
    out.push(formatAt(text.slice(el.start, el.end), depth));
    return;
  }
  const pad = '  '.repeat(depth);
  out.push(pad + text.slice(el.start, el.openEnd));
  let from = el.openEnd;
  const flush = (to: number) => {
    if (to > from && text.slice(from, to).trim()) out.push(formatAt(text.slice(from, to), depth + 1));
    from = to;
  };
  for (const child of el.children) {
    if (child.end - child.start > XML_WHOLE_LIMIT && child.children.length) {
      flush(child.start);
      formatElem(text, child, depth + 1, out);
      from = child.end;
    } else if (child.end - from >= BATCH) flush(child.end);
  }
  flush(el.closeStart);
  out.push(pad + text.slice(el.closeStart, el.end));
}

/** Blanks between elements on the fast path: space, tab, line feed. */
const isBlank = (c: number) => c === 32 || c === 10 || c === 9;
/** What String.prototype.trim removes among ASCII bytes: tab, LF, VT, FF, CR, space. */
const isAsciiSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
/** ASCII letters, `_`, `:` (what a name starts with on the fast path). */
const isNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58;
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46;

/**
 * Length in bytes of the character at text[i] (valid UTF-8) when it is one String.prototype.trim
 * removes (ECMAScript WhiteSpace and LineTerminator: ASCII tab to CR and space, U+00A0, U+1680,
 * U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF); else 0.
 */
function spaceAt(t: Uint8Array, i: number): number {
  const c = t[i]!;
  if (c < 0x80) return isAsciiSpace(c) ? 1 : 0;
  const d = t[i + 1];
  const e = t[i + 2]!;
  if (c === 0xc2) return d === 0xa0 ? 2 : 0;
  if (c === 0xe1) return d === 0x9a && e === 0x80 ? 3 : 0;
  if (c === 0xe2) return (d === 0x80 && ((e >= 0x80 && e <= 0x8a) || e === 0xa8 || e === 0xa9 || e === 0xaf)) || (d === 0x81 && e === 0x9f) ? 3 : 0;
  if (c === 0xe3) return d === 0x80 && e === 0x80 ? 3 : 0;
  if (c === 0xef) return d === 0xbb && e === 0xbf ? 3 : 0;
  return 0;
}

/** As {@link spaceAt}, for the character that ends just before text[j], not before text[from]. */
function spaceBefore(t: Uint8Array, j: number, from: number): number {
  const c = t[j - 1]!;
  if (c < 0x80) return isAsciiSpace(c) ? 1 : 0;
  if (j - 2 >= from && t[j - 2] === 0xc2) return c === 0xa0 ? 2 : 0;
  if (j - 3 >= from && spaceAt(t, j - 3) === 3) return 3;
  return 0;
}

/** Thrown inside the fast path when the document is outside its subset. */
const OUTSIDE = new Error('outside the fast path');

/**
 * The common case without xml-formatter, on UTF-8 bytes: a document made only of elements
 * (ASCII names; attributes `name="value"`, each name once, no `xml:space`) that hold either
 * text alone or elements alone with blanks between them, after at most an `<?xml ...?>`
 * declaration; no comment, CDATA, DOCTYPE or processing instruction inside, no carriage
 * return, no mixed content. For such a document the output is exactly xml-formatter's
 * (two-space indent, collapseContent, '\n'), which the tests check on generated documents:
 * each element on its own line, text-only elements on one line with their text (trimmed when
 * it spans lines), empty ones as `<a></a>`, self-closing ones as `<a/>`.
 * @param input the document as valid UTF-8 (a leading byte order mark is skipped).
 * @returns the indented document as UTF-8, or undefined when it is outside that subset (the
 *   caller then uses xml-formatter), never a different text.
 */
export function prettyXmlFastUtf8(input: Uint8Array): Uint8Array | undefined {
  const text = input;
  let p = 0;
  let n = text.length;
  // The text xml-formatter gets is decoded (no byte order mark) and trimmed.
  let ta = 0;
  let tb = 0;
  /** Sets ta..tb to a..b without the characters String.prototype.trim removes. */
  const trim = (a: number, b: number) => {
    let k: number;
    while (a < b && (k = spaceAt(text, a))) a += k;
    while (b > a && (k = spaceBefore(text, b, a))) b -= k;
    ta = a;
    tb = b;
  };
  trim(0, n);
  p = ta;
  n = tb;
  if (p >= n || text[p] !== 60 || text[n - 1] !== 62) return undefined;
  let buf = new Uint8Array(Math.ceil((n - p) * 1.6) + 64);
  let o = 0;
  const ensure = (more: number) => {
    if (o + more <= buf.length) return;
    const next = new Uint8Array(Math.max(buf.length * 2, o + more));
    next.set(buf.subarray(0, o));
    buf = next;
  };
  const copy = (from: number, to: number) => {
    const len = to - from;
    ensure(len);
    if (len > 32) buf.set(text.subarray(from, to), o);
    else for (let k = 0; k < len; k++) buf[o + k] = text[from + k]!;
    o += len;
  };
  const byte = (c: number) => {
    ensure(1);
    buf[o++] = c;
  };
  const newline = (depth: number) => {
    ensure(1 + 2 * depth);
    buf[o++] = 10;
    for (let d = 2 * depth; d > 0; d--) buf[o++] = 32;
  };
  /** Whether text[a..b) equals text[c..c+(b-a)). */
  const same = (a: number, b: number, c: number) => {
    for (let k = 0; k < b - a; k++) if (text[a + k] !== text[c + k]) return false;
    return true;
  };
  /** Reads `</name\s*>` at p for the name at text[a..b). */
  const closeTag = (a: number, b: number) => {
    if (text[p] !== 60 || text[p + 1] !== 47 || !same(a, b, p + 2)) throw OUTSIDE;
    let k = p + 2 + (b - a);
    while (k < n && isBlank(text[k]!)) k++;
    if (text[k] !== 62) throw OUTSIDE;
    p = k + 1;
  };
  try {
    for (let k = p; k < n; k++) if (text[k] === 13) return undefined;
    if (text[p + 1] === 63 /* ? */) {
      // <?name content?>, written as xml-formatter does: `<?name content?>` with one space.
      let k = p + 2;
      while (k < n && isNameChar(text[k]!)) k++;
      if (k === p + 2) return undefined;
      let end = k;
      while (end + 1 < n && !(text[end] === 63 && text[end + 1] === 62)) end++;
      if (end + 1 >= n) return undefined;
      trim(k, end);
      copy(p, k);
      byte(32);
      copy(ta, tb);
      byte(63);
      byte(62);
      p = end + 2;
      while (p < n && isBlank(text[p]!)) p++;
    }
    /** Open elements: start and end of each name. */
    const stack: number[] = [];
    for (;;) {
      // An element starts at p.
      if (text[p] !== 60 || !isNameStart(text[p + 1]!)) return undefined;
      let k = p + 1;
      while (k < n && isNameChar(text[k]!)) k++;
      const nameA = p + 1;
      const nameB = k;
      let c = text[k]!;
      if (!(isBlank(c) || c === 47 || c === 62)) return undefined;
      if (o > 0) newline(stack.length / 2);
      copy(p, nameB);
      let seen: string[] | undefined;
      for (;;) {
        while (k < n && isBlank(text[k]!)) k++;
        c = text[k]!;
        if (c === 62 || c === 47) break;
        if (!isNameStart(c)) return undefined;
        const a = k;
        while (k < n && isNameChar(text[k]!)) k++;
        const b = k;
        while (k < n && isBlank(text[k]!)) k++;
        if (text[k] !== 61) return undefined;
        k++;
        while (k < n && isBlank(text[k]!)) k++;
        if (text[k] !== 34) return undefined;
        let close = k + 1;
        while (close < n && text[close] !== 34) close++;
        if (close >= n) return undefined;
        // Each name once (xml-formatter keeps attributes in an object), no xml:space.
        const attr = Buffer.from(text.buffer, text.byteOffset + a, b - a).toString('latin1');
        seen ??= [];
        if (seen.includes(attr) || attr === 'xml:space' || attr === '__proto__') return undefined;
        seen.push(attr);
        byte(32);
        copy(a, b);
        byte(61);
        copy(k, close + 1);
        k = close + 1;
      }
      let closed = false;
      if (c === 47) {
        if (text[k + 1] !== 62) return undefined;
        byte(47);
        byte(62);
        p = k + 2;
        closed = true;
      } else {
        byte(62);
        p = k + 1;
        const t0 = p;
        while (p < n && text[p] !== 60) p++;
        if (p >= n) return undefined;
        const t1 = p;
        if (text[p + 1] === 47) {
          // Text alone (or nothing): on the tag's line; trimmed when it spans lines, dropped
          // when blank.
          closeTag(nameA, nameB);
          trim(t0, t1);
          let lf = false;
          for (let m = t0; m < t1 && !lf; m++) lf = text[m] === 10;
          if (lf || ta === tb) copy(ta, tb);
          else copy(t0, t1);
          byte(60);
          byte(47);
          copy(nameA, nameB);
          byte(62);
          closed = true;
        } else {
          // Elements alone: the text before the first one must be blank.
          for (let m = t0; m < t1; m++) if (!isBlank(text[m]!)) return undefined;
          stack.push(nameA, nameB);
        }
      }
      if (!closed) continue;
      // After an element: blanks, then a sibling or the parent's end tag.
      for (;;) {
        while (p < n && isBlank(text[p]!)) p++;
        if (!stack.length) return p === n ? buf.subarray(0, o) : undefined;
        if (text[p] !== 60) return undefined;
        if (text[p + 1] !== 47) break;
        const b = stack.pop()!;
        const a = stack.pop()!;
        closeTag(a, b);
        newline(stack.length / 2);
        byte(60);
        byte(47);
        copy(a, b);
        byte(62);
      }
    }
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}

/**
 * Pretty-print an XML document.
 * @param opts.fast try {@link prettyXmlFastUtf8} first on a big document (default true; false
 *   when the caller has already tried it on the same text).
 * @returns the indented text, or undefined when the text is not well-formed enough to format.
 */
export function prettyXml(text: string, opts: { fast?: boolean } = {}): string | undefined {
  try {
    if (text.length <= XML_WHOLE_LIMIT) return xmlFormat(text, OPTIONS);
    const fast = opts.fast === false ? undefined : prettyXmlFastUtf8(Buffer.from(text, 'utf8'));
    if (fast !== undefined) return Buffer.from(fast.buffer, fast.byteOffset, fast.byteLength).toString('utf8');
    const doc = scan(text);
    if (!doc) return undefined;
    // Mixed content (text beside elements) at the top level of a big element is rare; the
    // batches keep it, since text between siblings goes into the batch that follows it.
    const out: string[] = [];
    const prolog = text.slice(0, doc.prolog).trim();
    if (prolog) out.push(xmlFormat(prolog + '<r/>', OPTIONS).split('\n').slice(0, -1).join('\n'));
    formatElem(text, doc.root, 0, out);
    const epilog = text.slice(doc.epilog).trim();
    if (epilog) return undefined;
    return out.join('\n');
  } catch {
    return undefined;
  }
}
