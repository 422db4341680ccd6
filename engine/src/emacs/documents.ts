/**
 * The texts an editor keeps in sync with the engine by their changes instead of sending the
 * whole text with every look-up (issue 25's speed target: completion and diagnostics within
 * 50 ms on a 5,000-request sheet, whose text is about 800 KB). The way LSP's
 * `textDocument/didChange` works (incremental sync), carried inside the look-up itself:
 *
 * - `doc: { id, version, text, size }` gives the whole text: it is kept as version `version`;
 * - `doc: { id, version, base, changes, size }` gives the changes since version `base`, each
 *   `{ start, end, text }` replacing the code points `[start, end)` of the text as the previous
 *   change left it (offsets in code points, as Emacs counts characters).
 *
 * `size`, the text's length in code points after the changes, is checked: a copy that went out
 * of step (a change Emacs did not see, an engine restarted) is refused with `bad-argument`
 * whose `details.stale` is true, and the editor sends the whole text again. At most
 * {@link MAX_DOCUMENTS} texts are kept (least recently used dropped), so memory stays bounded.
 */
import { EngineError } from '../errors.js';

/** The most texts kept at once. */
export const MAX_DOCUMENTS = 16;

/** A text's reference in the params of `sheet/completions` and `sheet/diagnostics`. */
export interface DocumentRef {
  id: string;
  version: number;
  /** The whole text (then `base` and `changes` are not read). */
  text?: string;
  /** The version the changes apply to. */
  base?: number;
  changes?: { start: number; end: number; text: string }[];
  /** The text's length in code points, after the changes. */
  size: number;
}

const stale = (why: string) =>
  new EngineError('bad-argument', `the engine's copy of the text is out of step (${why})`, { hint: 'Send the whole text (doc.text).', details: { stale: true } });

/** The UTF-16 index of code point `cp` in `text` (a text without surrogates: `cp` itself). */
function utf16Index(text: string, cp: number, astral: boolean): number {
  if (!astral) return cp;
  let i = 0;
  for (let n = 0; n < cp && i < text.length; n++) i += text.codePointAt(i)! > 0xffff ? 2 : 1;
  return i;
}

const ASTRAL = /[\uD800-\uDFFF]/;

/** The length of `text` in code points. */
function codePoints(text: string, astral: boolean): number {
  if (!astral) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i += text.codePointAt(i)! > 0xffff ? 2 : 1) n++;
  return n;
}

/** The kept texts of one session. */
export class Documents {
  private readonly docs = new Map<string, { text: string; version: number; astral: boolean }>();

  /**
   * The text `ref` stands for, kept as its new version.
   * @throws EngineError `bad-argument` (`details.stale`) when the changes do not apply to the
   *   kept copy, or their result has not `ref.size` code points; `bad-argument` for a malformed ref.
   */
  text(ref: DocumentRef): string {
    if (!ref || typeof ref.id !== 'string' || !Number.isInteger(ref.version) || !Number.isInteger(ref.size)) {
      throw new EngineError('bad-argument', 'params.doc must be { id, version, size, text | base + changes }', { hint: 'See docs/protocol.md, "Texts kept in step".' });
    }
    let text: string;
    let astral: boolean;
    if (typeof ref.text === 'string') {
      text = ref.text;
      astral = ASTRAL.test(text);
    } else {
      const kept = this.docs.get(ref.id);
      if (!kept || kept.version !== ref.base) throw stale(kept ? `it has version ${kept.version}, the changes are for ${ref.base}` : 'it has no copy');
      if (!Array.isArray(ref.changes)) throw stale('no changes given');
      ({ text, astral } = kept);
      for (const c of ref.changes) {
        if (!c || typeof c.text !== 'string' || !Number.isInteger(c.start) || !Number.isInteger(c.end) || c.start < 0 || c.end < c.start) throw stale('a malformed change');
        const from = utf16Index(text, c.start, astral);
        const to = utf16Index(text, c.end, astral);
        if (to > text.length) throw stale('a change past the end');
        text = text.slice(0, from) + c.text + text.slice(to);
        astral ||= ASTRAL.test(c.text);
      }
    }
    if (codePoints(text, astral) !== ref.size) {
      this.docs.delete(ref.id);
      throw stale(`${codePoints(text, astral)} characters, not ${ref.size}`);
    }
    this.docs.delete(ref.id);
    this.docs.set(ref.id, { text, version: ref.version, astral });
    if (this.docs.size > MAX_DOCUMENTS) this.docs.delete(this.docs.keys().next().value!);
    return text;
  }
}
