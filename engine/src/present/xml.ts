/**
 * XML pretty printing with xml-formatter (two-space indent, text-only elements kept on one
 * line). xml-formatter's parser rescans the rest of the document at every element
 * (`indexOf('?>')`), which is quadratic: 2 s for 1 MB. So a large document is cut at element
 * boundaries, by a small scanner that only finds where elements start and end, into batches of
 * sibling nodes of a few KiB; each batch is formatted by xml-formatter inside as many wrapper
 * elements as its depth, and the wrapper lines are dropped. The result is the same text
 * xml-formatter gives for the whole document (the tests compare both). The indenting itself is
 * always xml-formatter's: a well-kept library over our own formatter.
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
export const XML_BATCH = 2 * 1024;

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

/** What a piece of markup starting with `<` is (see {@link markupEnd}). */
export const enum Markup {
  /** `<!-- -->`, `<![CDATA[ ]]>`, `<!DOCTYPE >`, `<? ?>`: kept inside the batch around it. */
  Other,
  /** `</name>` */
  Close,
  /** `<name ...>` */
  Open,
  /** `<name .../>` */
  Empty,
}

/**
 * The markup that starts with the `<` at `i` of `text`: its kind and the index after its `>`,
 * or end -1 when `text` stops before it ends (unterminated; a stream waits for more). Only
 * what it takes to find where elements start and end (attribute values may hold `>`).
 */
export function markupEnd(text: string, i: number): { kind: Markup; end: number } {
  const n = text.length;
  const c = text.charCodeAt(i + 1);
  let e: number;
  if (c === 33 /* ! */) {
    if (text.startsWith('<!--', i)) e = text.indexOf('-->', i + 4) + 3;
    else if (text.startsWith('<![CDATA[', i)) e = text.indexOf(']]>', i + 9) + 3;
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
      e = k < n ? k + 1 : 2;
    }
    return { kind: Markup.Other, end: e <= 2 ? -1 : e };
  }
  if (c === 63 /* ? */) {
    e = text.indexOf('?>', i + 2) + 2;
    return { kind: Markup.Other, end: e < 2 ? -1 : e };
  }
  if (c === 47 /* / */) {
    e = text.indexOf('>', i + 2) + 1;
    return { kind: Markup.Close, end: e < 1 ? -1 : e };
  }
  // start tag: its `>` outside attribute values
  let k = i + 1;
  let quote = 0;
  for (; k < n; k++) {
    const d = text.charCodeAt(k);
    if (quote) {
      if (d === quote) quote = 0;
    } else if (d === 34 || d === 39) quote = d;
    else if (d === 62) break;
  }
  if (k >= n) return { kind: Markup.Open, end: -1 };
  return { kind: text.charCodeAt(k - 1) === 47 ? Markup.Empty : Markup.Open, end: k + 1 };
}

/** Find the elements of `text` (start and end of tags, nesting); undefined when not well nested. */
function scan(text: string): { prolog: number; root: Elem; epilog: number } | undefined {
  const n = text.length;
  const stack: Elem[] = [];
  let root: Elem | undefined;
  let prolog = -1;
  let i = text.indexOf('<');
  while (i >= 0 && i < n) {
    const { kind, end: next } = markupEnd(text, i);
    if (next < 0) return undefined;
    if (kind === Markup.Close) {
      const top = stack.pop();
      if (!top) return undefined;
      top.closeStart = i;
      top.end = next;
    } else if (kind !== Markup.Other) {
      const selfClosing = kind === Markup.Empty;
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

/**
 * Format `inner` (sibling nodes) as if at `depth`, through `depth` wrapper elements.
 * @throws xml-formatter's error when `inner` is not well-formed.
 */
export function formatAt(inner: string, depth: number): string {
  const wrapped = '<w>'.repeat(depth) + inner + '</w>'.repeat(depth);
  const s = xmlFormat(wrapped, OPTIONS);
  let a = 0;
  for (let d = 0; d < depth; d++) a = s.indexOf('\n', a) + 1;
  let b = s.length;
  for (let d = 0; d < depth; d++) b = s.lastIndexOf('\n', b - 1);
  return s.slice(a, b);
}

/**
 * The prolog (XML declaration, comments, DOCTYPE before the root; trimmed, not empty) as
 * xml-formatter lays it out before a root element.
 * @throws xml-formatter's error when it is not well-formed.
 */
export function formatProlog(prolog: string): string {
  return xmlFormat(prolog + '<r/>', OPTIONS).split('\n').slice(0, -1).join('\n');
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
    } else if (child.end - from >= XML_BATCH) flush(child.end);
  }
  flush(el.closeStart);
  out.push(pad + text.slice(el.closeStart, el.end));
}

/**
 * Pretty-print an XML document (two-space indent, as xml-formatter does it).
 * @returns the indented text, or undefined when the text is not well-formed enough to format.
 */
export function prettyXml(text: string): string | undefined {
  try {
    if (text.length <= XML_WHOLE_LIMIT) return xmlFormat(text, OPTIONS);
    const doc = scan(text);
    if (!doc) return undefined;
    // Mixed content (text beside elements) at the top level of a big element is rare; the
    // batches keep it, since text between siblings goes into the batch that follows it.
    const out: string[] = [];
    const prolog = text.slice(0, doc.prolog).trim();
    if (prolog) out.push(formatProlog(prolog));
    formatElem(text, doc.root, 0, out);
    const epilog = text.slice(doc.epilog).trim();
    if (epilog) return undefined;
    return out.join('\n');
  } catch {
    return undefined;
  }
}
