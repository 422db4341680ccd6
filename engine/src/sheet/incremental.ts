/**
 * Re-parsing a sheet after an edit without parsing all of it again (issue 25's speed target:
 * completion and diagnostics within 50 ms on a 5,000-request sheet, whose whole parse takes
 * 15-40 ms on the shared test machine). The parse is the same ({@link parseSheet}): the text is
 * cut into chunks that the sheet grammar parses independently, and a chunk whose text (and first
 * line) did not change since the last parse keeps its nodes.
 *
 * Why chunks parse alone (docs/sheet-format.md, "Comments and separators"): a `#` line ends
 * every construct, a multi-line value and a request body included, and nothing reaches across
 * it. A chunk is a run of comment lines, then the non-comment lines of one block, then the one
 * `#` line that closes them (which a multi-line value needs to see). Only line numbers depend on
 * where a chunk stands; they are shifted, and a chunk at the same place with the same text is
 * reused as it is (typing inside a line moves nothing).
 */
import type { Block, Diagnostic, RequestNode, Sheet, VarDecl } from './ast.js';
import { parseSheet, splitLines } from './parse.js';

const isComment = (l: string) => l.startsWith('#');

/** `req` with every line moved by `delta`. */
function shiftRequest(r: RequestNode, delta: number): RequestNode {
  const body = r.body;
  return {
    ...r,
    line: r.line + delta,
    startLine: r.startLine + delta,
    endLine: r.endLine + delta,
    headers: r.headers.map((h) => ({ ...h, line: h.line + delta })),
    hooks: r.hooks.map((h) => ({ ...h, line: h.line + delta, endLine: h.endLine + delta })),
    body: !body
      ? undefined
      : body.kind === 'file'
        ? { ...body, line: body.line + delta }
        : body.kind === 'text'
          ? { ...body, line: body.line + delta, endLine: body.endLine + delta }
          : { ...body, line: body.line + delta, endLine: body.endLine + delta, parts: body.parts.map((p) => ({ ...p, line: p.line + delta })) },
  };
}

/** A chunk's parse with its lines moved by `delta`; a block's request and error stay the very nodes of the lists. */
function shift(s: Sheet, delta: number): Pick<Sheet, 'vars' | 'requests' | 'blocks' | 'diagnostics'> {
  if (delta === 0) return s;
  const reqs = new Map<RequestNode, RequestNode>(s.requests.map((r) => [r, shiftRequest(r, delta)]));
  const diags = new Map<Diagnostic, Diagnostic>(s.diagnostics.map((d) => [d, { ...d, line: d.line + delta }]));
  return {
    vars: s.vars.map((v): VarDecl => ({ ...v, line: v.line + delta, endLine: v.endLine + delta })),
    requests: [...reqs.values()],
    diagnostics: [...diags.values()],
    blocks: s.blocks.map(
      (b): Block => ({
        startLine: b.startLine + delta,
        endLine: b.endLine + delta,
        ...(b.request ? { request: reqs.get(b.request)! } : {}),
        ...(b.error ? { error: diags.get(b.error) ?? { ...b.error, line: b.error.line + delta } } : {}),
      }),
    ),
  };
}

/** Where chunks start: 0-based line indexes, in order (see the file comment). */
function chunkStarts(lines: string[]): number[] {
  const starts = [0];
  let sawBlock = false;
  for (let i = 0; i < lines.length; i++) {
    if (!isComment(lines[i]!)) sawBlock = true;
    else if (sawBlock) {
      if (i + 1 < lines.length) starts.push(i + 1);
      sawBlock = false;
    }
  }
  return starts;
}

/**
 * A sheet parser that remembers its last parse's chunks: {@link parse} gives what
 * {@link parseSheet} gives for the same text. Memory: the chunks of the last text parsed.
 */
export class IncrementalSheetParser {
  /** Chunk parses by their first line and text: `${line}\n${text}`. */
  private chunks = new Map<string, Pick<Sheet, 'vars' | 'requests' | 'blocks' | 'diagnostics'>>();
  /** The same chunks at line 0, by text: reused, then shifted, when a chunk only moved. */
  private atZero = new Map<string, Sheet>();

  /** Parse `text` (sheet syntax), as {@link parseSheet}. Never throws. */
  parse(text: string): Sheet {
    const lines = splitLines(text);
    const starts = chunkStarts(lines);
    const chunks = new Map<string, Pick<Sheet, 'vars' | 'requests' | 'blocks' | 'diagnostics'>>();
    const atZero = new Map<string, Sheet>();
    const out: Sheet = { vars: [], requests: [], blocks: [], diagnostics: [], lineCount: lines.length };
    for (let k = 0; k < starts.length; k++) {
      const from = starts[k]!;
      const chunkText = lines.slice(from, starts[k + 1] ?? lines.length).join('\n');
      const key = `${from}\n${chunkText}`;
      let part = this.chunks.get(key) ?? chunks.get(key);
      if (!part) {
        // The final newline keeps a last empty line a line (splitLines drops one at the end).
        const zero = this.atZero.get(chunkText) ?? atZero.get(chunkText) ?? parseSheet(chunkText + '\n');
        atZero.set(chunkText, zero);
        part = shift(zero, from);
      } else atZero.set(chunkText, this.atZero.get(chunkText) ?? atZero.get(chunkText) ?? parseSheet(chunkText + '\n'));
      chunks.set(key, part);
      out.vars.push(...part.vars);
      out.requests.push(...part.requests);
      out.blocks.push(...part.blocks);
      out.diagnostics.push(...part.diagnostics);
    }
    this.chunks = chunks;
    this.atZero = atZero;
    return out;
  }
}
