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
 * reused as it is (typing inside a line moves nothing). The lines come from lines.ts, which
 * re-splits only what the edit touched: the unchanged lines are the last parse's very strings,
 * so finding them compares identities.
 */
import type { Block, Diagnostic, RequestNode, Sheet, VarDecl } from './ast.js';
import { linesOf } from './lines.js';
import { parseSheet, tagsAbove } from './parse.js';

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
function shift(s: Pick<Sheet, 'vars' | 'requests' | 'blocks' | 'diagnostics'>, delta: number): Pick<Sheet, 'vars' | 'requests' | 'blocks' | 'diagnostics'> {
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

// The lines of the text: the parser and the checks of one edit share them (lines.ts).
export { linesOf };

type Part = Pick<Sheet, 'vars' | 'requests' | 'blocks' | 'diagnostics'>;

/** One chunk of the last parse: its lines `[from, to)` and its nodes. */
interface Chunk {
  from: number;
  to: number;
  part: Part;
}

/**
 * A sheet parser that remembers its last parse: {@link parse} gives what {@link parseSheet}
 * gives for the same text. The lines the edit left alone are found by comparing the new lines
 * with the last ones from both ends; the chunks wholly before the edit are kept as they are,
 * those wholly after it kept and shifted by the lines the edit added or removed, and only the
 * chunks in between are parsed. Memory: the last text's lines and chunks.
 */
export class IncrementalSheetParser {
  private lines: string[] = [];
  private chunks: Chunk[] = [];

  /** Parse `text` (sheet syntax), as {@link parseSheet}. Never throws. */
  parse(text: string): Sheet {
    const lines = linesOf(text);
    const old = this.lines;
    // The unchanged lines at the start and at the end (not overlapping).
    let head = 0;
    const most = Math.min(lines.length, old.length);
    while (head < most && lines[head] === old[head]) head++;
    let tail = 0;
    while (tail < most - head && lines[lines.length - 1 - tail] === old[old.length - 1 - tail]) tail++;
    const delta = lines.length - old.length;
    // Chunks wholly in the unchanged head; a chunk must also end where it ended (the line after
    // it unchanged too), which holds when it ends before the edit.
    let k = 0;
    while (k < this.chunks.length && this.chunks[k]!.to < head) k++;
    const chunks: Chunk[] = this.chunks.slice(0, k);
    const from = chunks.length ? chunks[chunks.length - 1]!.to : 0;
    // Chunks wholly in the unchanged tail. A chunk starts after a `#` line that follows a line
    // that is not one, so the two lines before it must be unchanged too.
    let j = this.chunks.length;
    while (j > k && this.chunks[j - 1]!.from - 2 >= old.length - tail) j--;
    const kept = this.chunks.slice(j);
    const to = kept.length ? kept[0]!.from + delta : lines.length;
    // Parse what lies between, chunk by chunk.
    const starts = chunkStarts(lines.slice(from, to)).map((s) => s + from);
    for (let i = 0; i < starts.length && starts[i]! < to; i++) {
      const a = starts[i]!;
      const b = Math.min(starts[i + 1] ?? to, to);
      chunks.push({ from: a, to: b, part: shift(parseSheet(lines.slice(a, b).join('\n') + '\n'), a) });
    }
    for (const c of kept) chunks.push(delta === 0 ? c : { from: c.from + delta, to: c.to + delta, part: shift(c.part, delta) });
    this.lines = lines;
    this.chunks = chunks;
    const out: Sheet = { vars: [], requests: [], blocks: [], diagnostics: [], lineCount: lines.length };
    for (const { part } of chunks) {
      for (const v of part.vars) out.vars.push(v);
      for (const r of part.requests) {
        // A tag (`# @no-auto-encoding`, `# @proxy`) may be the `#` line that closed the chunk before: read it in the whole text.
        const tags = tagsAbove(lines, r.startLine - 1);
        if (tags.length) r.directives = tags;
        else if (r.directives !== undefined) delete r.directives; // a delete costs even when there is nothing to delete
        out.requests.push(r);
      }
      for (const b of part.blocks) out.blocks.push(b);
      for (const d of part.diagnostics) out.diagnostics.push(d);
    }
    return out;
  }
}
