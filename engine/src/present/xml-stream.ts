/**
 * The XML pretty printer of xml.ts as a stream (issue 22): UTF-8 bytes go in chunk by chunk,
 * the indented text comes out as it is known, the same text {@link prettyXml} gives for the
 * whole document. xml.ts already cuts a big document at element boundaries into batches of
 * siblings that xml-formatter indents one at a time; this does the same cuts while the bytes
 * arrive (the same tokenizer, {@link markupEnd}, and the same rules: an element of more than
 * {@link XML_WHOLE_LIMIT} characters with child elements is opened, its children go in
 * batches of {@link XML_BATCH}), so it holds only the pending batch, the names of the open
 * elements and an unfinished tag. An element is known to be big only once it has grown past
 * the limit: its content so far (at most the limit and one piece of markup) is then scanned
 * again at the level below. A part that cannot be cut (a leaf element, a text, comment or
 * CDATA section of more than `maxPending` characters) stops it with a reason: the body is then
 * shown as received. Used by session/spill.ts for bodies written to a file as they arrive.
 */
import { formatAt, formatProlog, Markup, markupEnd, prettyXml, XML_BATCH, XML_WHOLE_LIMIT } from './xml.js';

export interface XmlStreamOptions {
  /**
   * The most characters held for one part that cannot be cut (a leaf element, a text, a
   * comment): past it the stream gives up with a reason. Default 8 Mi characters.
   */
  maxPending?: number;
  /**
   * Give up when the output would be more than this many times the input plus 1 MiB (deep
   * nesting: each level indents its lines). Default 32, as json-stream.ts.
   */
  maxGrowth?: number;
}

/** An element whose start tag is in the pending text (not written yet). */
interface Pending {
  name: string;
  /** index in `buf` of its `<` */
  start: number;
  /** index in `buf` after its start tag */
  openEnd: number;
  hasChild: boolean;
}

const utf8 = new TextEncoder();

/**
 * The most elements opened one inside the other (each big, each holding the next): past it the
 * stream gives up, since every batch below is formatted inside as many wrapper elements.
 */
export const XML_STREAM_MAX_DEPTH = 256;

/** Characters gathered before a scan. */
const SCAN_STEP = 8192;

/** The element name in a tag, from `at` (after `<` or `</`). */
function tagName(text: string, at: number): string {
  let k = at;
  for (; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 62 || c === 47 || c === 32 || c === 9 || c === 10 || c === 13) break;
  }
  return text.slice(at, k);
}

/**
 * A streaming XML pretty printer. `push` each chunk of UTF-8 bytes, then `end`; once `error`
 * is set the input is known not to be well-formed XML (or not to be indentable as a stream),
 * and `push`/`end` give nothing more.
 * @example
 *   const r = new XmlReindenter();
 *   out.write(r.push(chunk1)); out.write(r.push(chunk2));
 *   const last = r.end(); if (last === undefined) console.log(r.error);
 */
export class XmlReindenter {
  /** Why the input is not pretty-printed (where, when known); else undefined. */
  error: string | undefined;
  /** Bytes taken in so far. */
  bytesIn = 0;
  /** Bytes given out so far. */
  bytesOut = 0;

  private readonly decoder = new TextDecoder('utf-8');
  private readonly maxPending: number;
  private readonly maxGrowth: number;
  /** The text not yet dropped: the pending batch and what follows. */
  private buf = '';
  /** Decoded text not yet added to `buf`: scanned once there is at least {@link SCAN_STEP} of it. */
  private incoming: string[] = [];
  private incomingLength = 0;
  /** Line breaks in the text dropped from the front of `buf` (for error positions). */
  private linesBefore = 0;
  /** Where scanning resumes in `buf`. */
  private pos = 0;
  /** Start of the text not written yet. */
  private from = 0;
  /** Before `buf` grows past {@link XML_WHOLE_LIMIT}, nothing is scanned (a small document is formatted whole). */
  private started = false;
  private rootSeen = false;
  private rootDone = false;
  private open: Pending[] = [];
  /** Names of the elements whose start tag is written, outermost first; the depth is the index. */
  private expanded: string[] = [];
  /** An unfinished piece of markup is looked at again once `buf` is this long. */
  private retryAt = 0;
  private out: string[] = [];
  private wrote = false;

  constructor(opts: XmlStreamOptions = {}) {
    this.maxPending = opts.maxPending ?? 8 * 1024 * 1024;
    this.maxGrowth = opts.maxGrowth ?? 32;
  }

  /** Take the next chunk; returns the indented bytes now known (often none). */
  push(chunk: Uint8Array): Uint8Array {
    if (this.error !== undefined) return new Uint8Array(0);
    this.bytesIn += chunk.length;
    const text = this.decoder.decode(chunk, { stream: true });
    this.incoming.push(text);
    this.incomingLength += text.length;
    // Small chunks are gathered first: each scan reads `buf` as one flat string.
    if (this.incomingLength < SCAN_STEP) return new Uint8Array(0);
    this.gather();
    if (!this.started && this.buf.length > XML_WHOLE_LIMIT) this.started = true;
    if (this.started) this.run(false);
    return this.take();
  }

  /** The input is complete: the last indented bytes, or undefined (then `error` says why). */
  end(): Uint8Array | undefined {
    if (this.error !== undefined) return undefined;
    this.incoming.push(this.decoder.decode());
    this.gather();
    if (!this.started) {
      const whole = prettyXml(this.buf);
      if (whole === undefined) this.fail('xml-formatter could not read it');
      else this.emit(whole);
    } else {
      this.run(true);
      if (this.error === undefined) {
        const open = this.open[this.open.length - 1]?.name ?? this.expanded[this.expanded.length - 1];
        if (!this.rootSeen) this.fail('no root element');
        else if (open !== undefined) this.fail(`the body ends before </${open}>`, this.buf.length);
        else if (this.buf.slice(this.from).trim()) this.fail('text after the root element', this.from);
      }
    }
    const last = this.take();
    return this.error === undefined ? last : undefined;
  }

  private gather(): void {
    this.buf += this.incoming.join('');
    this.incoming = [];
    this.incomingLength = 0;
  }

  /** Give up: `why` and, when `at` (an index in `buf`) is given, its line; `limit`: a limit of the stream's, not an error in the XML. */
  private fail(why: string, at?: number, limit = false): void {
    if (this.error !== undefined) return;
    let line = this.linesBefore + 1;
    if (at !== undefined) for (let k = this.buf.indexOf('\n'); k >= 0 && k < at; k = this.buf.indexOf('\n', k + 1)) line++;
    if (limit) this.error = at === undefined ? why : `${why} (at line ${line})`;
    else this.error = `not well-formed XML${at === undefined ? '' : ` at line ${line}`}: ${why}`;
    this.out = [];
    this.buf = '';
  }

  private emit(s: string): void {
    this.out.push(this.wrote ? '\n' + s : s);
    this.wrote = true;
  }

  /** The output gathered, as UTF-8; drops the text written from `buf`. */
  private take(): Uint8Array {
    if (this.error !== undefined || !this.out.length) {
      this.out = [];
      return new Uint8Array(0);
    }
    const bytes = utf8.encode(this.out.join(''));
    this.out = [];
    this.bytesOut += bytes.length;
    if (this.bytesOut > this.bytesIn * this.maxGrowth + 1048576) {
      this.fail(`indenting would make it more than ${this.maxGrowth} times bigger (nested too deep)`, undefined, true);
      return new Uint8Array(0);
    }
    return bytes;
  }

  /** Scan `buf` from `pos` as far as it goes; `final`: no more input comes. */
  private run(final: boolean): void {
    try {
      for (;;) {
        const i = this.buf.indexOf('<', this.pos);
        if (i < 0) {
          this.pos = this.buf.length;
          break;
        }
        this.pos = i;
        // `<!` needs nine characters to tell a comment, CDATA and a DOCTYPE apart.
        if (!final && (this.buf.length - i < 9 || this.buf.length < this.retryAt)) break;
        const { kind, end } = markupEnd(this.buf, i);
        if (end < 0) {
          if (final) this.fail('unterminated markup', i);
          // Looked at again once what follows it has doubled: linear, however long the tag.
          else this.retryAt = this.buf.length + Math.max(65536, this.buf.length - i);
          break;
        }
        this.retryAt = 0;
        this.pos = end;
        this.token(kind, i, end);
        if (this.error !== undefined) return;
      }
    } catch (e) {
      this.fail(`xml-formatter: ${(e as Error).message.split('\n')[0]}`, this.from);
      return;
    }
    this.compact();
  }

  /** Drop the written text from `buf`; give up when the pending part grows past `maxPending`. */
  private compact(): void {
    if (this.error !== undefined) return;
    const k = this.from;
    // Dropped in pieces of 16 Ki characters or more: fewer copies of the pending text.
    if (k >= 16384) {
      for (let n = this.buf.indexOf('\n'); n >= 0 && n < k; n = this.buf.indexOf('\n', n + 1)) this.linesBefore++;
      this.buf = this.buf.slice(k);
      this.pos -= k;
      this.from = 0;
      if (this.retryAt) this.retryAt -= k;
      for (const p of this.open) {
        p.start -= k;
        p.openEnd -= k;
      }
    }
    if (this.buf.length > this.maxPending) {
      this.fail(`a part of more than ${this.maxPending} characters with no element to cut it at (a leaf element, a text or a comment): too big to indent as it arrives`, 0, true);
    }
  }

  private token(kind: Markup, i: number, end: number): void {
    if (kind === Markup.Other) {
      if (this.rootDone) this.fail('markup after the root element', i);
      return;
    }
    if (this.rootDone) return this.fail(kind === Markup.Close ? 'an end tag after the root element' : 'a second root element', i);
    const b = this.open[0];
    // The pending child (or root) is past the limit and has children: it is opened, and its
    // content scanned again at the level below (xml.ts's formatElem, as the bytes come).
    if (b && b.hasChild && end - b.start > XML_WHOLE_LIMIT) return this.expand(b);
    const top = this.open[this.open.length - 1];
    if (kind === Markup.Close) {
      const name = tagName(this.buf, i + 2);
      if (top) {
        if (top.name !== name) return this.fail(`</${name}> closes <${top.name}>`, i);
        this.open.pop();
        if (!this.open.length) this.childDone(top.start, end);
        return;
      }
      const depth = this.expanded.length - 1;
      if (depth < 0) return this.fail(`</${name}> closes nothing`, i);
      if (this.expanded[depth] !== name) return this.fail(`</${name}> closes <${this.expanded[depth]}>`, i);
      this.flush(i, depth + 1);
      this.emit('  '.repeat(depth) + this.buf.slice(i, end));
      this.expanded.pop();
      this.from = end;
      if (!this.expanded.length) this.rootDone = true;
      return;
    }
    this.rootSeen = true;
    if (top) top.hasChild = true;
    if (kind === Markup.Open) this.open.push({ name: tagName(this.buf, i + 1), start: i, openEnd: end, hasChild: false });
    else if (!top) this.childDone(i, end);
  }

  /** A child of the innermost opened element (or the root) is complete, not opened itself. */
  private childDone(start: number, end: number): void {
    if (!this.expanded.length) {
      this.prolog(start);
      this.emit(formatAt(this.buf.slice(start, end), 0));
      this.from = end;
      this.rootDone = true;
    } else if (end - this.from >= XML_BATCH) this.flush(end, this.expanded.length);
  }

  private prolog(rootStart: number): void {
    const text = this.buf.slice(this.from, rootStart).trim();
    if (text) this.emit(formatProlog(text));
    this.from = rootStart;
  }

  /** Write the pending text up to `to` as one batch at `depth`. */
  private flush(to: number, depth: number): void {
    const text = this.buf.slice(this.from, to);
    if (to > this.from && text.trim()) this.emit(formatAt(text, depth));
    this.from = to;
  }

  private expand(b: Pending): void {
    const depth = this.expanded.length;
    if (depth >= XML_STREAM_MAX_DEPTH) {
      return this.fail(`more than ${XML_STREAM_MAX_DEPTH} big elements one inside the other: too deep to indent as it arrives`, b.start, true);
    }
    if (depth === 0) this.prolog(b.start);
    else this.flush(b.start, depth);
    this.emit('  '.repeat(depth) + this.buf.slice(b.start, b.openEnd));
    this.expanded.push(b.name);
    this.open = [];
    this.from = this.pos = b.openEnd;
    this.retryAt = 0;
  }
}
