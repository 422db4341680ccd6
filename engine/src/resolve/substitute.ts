/**
 * The substitution passes (sheet format doc, "Substitution"), as restclient.el does them
 * (`restclient-replace-all-in-string`): replace `:name` references by their values, again and
 * again while anything is left to replace, at most `maxPasses` times (restclient.el's
 * `restclient-vars-max-passes`, `sheet-vars-max-passes`, default 10); then the text is used as
 * it is, whatever references are left. Nothing is refused for it: users lower the limit on
 * purpose (1 pass keeps a literal `:token` that a value holds). What is left is named in a
 * warning (`vars-cycle` for a cycle, `vars-unresolved` for nesting deeper than the limit).
 *
 * Longer names are tried before their prefixes, so `:id` never eats `:idx`. Replacement is
 * plain text, as in restclient.el: a declared name matches wherever it stands.
 *
 * Bounds: the growth of a text is limited ({@link MAX_SUBSTITUTION_GROWTH}, error
 * `vars-too-large`), and nothing here recurses, so a chain of 100,000 variables is as safe as
 * a value that doubles at every pass.
 */
import { EngineError } from '../errors.js';

/** Default number of substitution passes (sheet format doc, "Limits"). */
export const DEFAULT_MAX_PASSES = 10;

/**
 * How much longer (in UTF-16 units) substitution may make one text (a URL, a header value, a
 * body) than it was written; beyond it the request fails with `vars-too-large`.
 */
export const MAX_SUBSTITUTION_GROWTH = 16 * 1024 * 1024;

/** At most this many names are listed in one warning message (all are in `variables`). */
const LISTED = 10;

/** References left after the last pass, named for the user; the text was used as it was. */
export interface SubstitutionWarning {
  /** `vars-cycle`: the names refer back to themselves; `vars-unresolved`: nested deeper than the limit. */
  code: 'vars-cycle' | 'vars-unresolved';
  /** The sheet line of the text (URL, header, body) they are in. */
  line?: number;
  /** e.g. `line 3: :a refers to itself; sent as ":a"`. */
  message: string;
  /** The names left in the text (for a cycle: the names of the cycle). */
  variables: string[];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `":a"` or `":a", ":b" and 3 more`. */
function listed(names: string[], quote: boolean): string {
  const q = (n: string) => (quote ? JSON.stringify(n) : n);
  const shown = names.slice(0, LISTED).map(q).join(', ');
  return names.length > LISTED ? `${shown} and ${names.length - LISTED} more` : shown;
}

/** A compiled set of variables, reusable for every template of one request. */
export class Substitution {
  private readonly re: RegExp | undefined;
  private order: Map<string, number> | undefined;

  /**
   * @param values variable name (with its colon, e.g. `:host`) -> value text.
   * @param maxPasses at most this many passes; 0 substitutes nothing, as in restclient.el
   *   (negative counts as 0, a non-number as the default).
   */
  constructor(
    readonly values: ReadonlyMap<string, string>,
    readonly maxPasses: number = DEFAULT_MAX_PASSES,
  ) {
    const names = [...values.keys()].sort((a, b) => b.length - a.length);
    this.re = names.length ? new RegExp(names.map(escapeRe).join('|'), 'g') : undefined;
  }

  /** The declared names that occur in `text` (longest first at each position), each once. */
  references(text: string): string[] {
    if (!this.re) return [];
    this.re.lastIndex = 0;
    return [...new Set(text.match(this.re) ?? [])];
  }

  /**
   * Substitute the references in `text`, at most `maxPasses` passes; what is left stays as
   * written and is named in `warnings` (at most one warning per cycle, and one for the rest).
   * @param line the sheet line the text comes from, for the warnings and the error.
   * @param warnings where the warnings go (pushed in order).
   * @throws EngineError `vars-too-large` when a pass would make the text more than
   *   {@link MAX_SUBSTITUTION_GROWTH} units longer than written (a value that holds itself
   *   twice doubles the text at every pass); checked before the text is built.
   */
  apply(text: string, line?: number, warnings?: SubstitutionWarning[]): string {
    const re = this.re;
    if (!re) return text;
    const passes = Number.isFinite(this.maxPasses) ? Math.max(0, Math.floor(this.maxPasses)) : DEFAULT_MAX_PASSES;
    const limit = text.length + MAX_SUBSTITUTION_GROWTH;
    let current = text;
    for (let pass = 0; pass < passes; pass++) {
      const next = this.pass(current, limit, line);
      if (next === undefined) return current;
      // A value that reproduces itself (`:a = :a`) changes nothing: further passes would not either.
      if (next === current) break;
      current = next;
    }
    const left = this.references(current);
    if (left.length && warnings) warnings.push(...this.explain(left, passes, line));
    return current;
  }

  /**
   * One pass over `text`; undefined when no reference is in it.
   * @throws EngineError `vars-too-large` when the result would be longer than `limit`.
   */
  private pass(text: string, limit: number, line: number | undefined): string | undefined {
    const re = this.re!;
    re.lastIndex = 0;
    let m = re.exec(text);
    if (!m) return undefined;
    const parts: string[] = [];
    let last = 0;
    let length = text.length;
    const growth = new Map<string, number>();
    for (; m; m = re.exec(text)) {
      const name = m[0];
      const value = this.values.get(name)!;
      length += value.length - name.length;
      growth.set(name, (growth.get(name) ?? 0) + value.length - name.length);
      if (length > limit) throw this.tooLarge(growth, line);
      parts.push(text.slice(last, m.index), value);
      last = m.index + name.length;
    }
    parts.push(text.slice(last));
    return parts.join('');
  }

  private tooLarge(growth: Map<string, number>, line: number | undefined): EngineError {
    let worst = '';
    let most = -Infinity;
    for (const [name, g] of growth) {
      if (g > most) {
        most = g;
        worst = name;
      }
    }
    return new EngineError(
      'vars-too-large',
      `substituting variables would make this text more than ${MAX_SUBSTITUTION_GROWTH} characters longer than written (${worst} grows it most)`,
      {
        line,
        hint: `Check ${worst}: its value refers to itself (directly or through other variables) more than once, so the text multiplies at every pass; or lower the pass limit (sheet-vars-max-passes).`,
        details: { variables: [worst], limit: MAX_SUBSTITUTION_GROWTH },
      },
    );
  }

  /** The warnings for the references `left` after `passes` passes: one per cycle, one for the rest. */
  private explain(left: string[], passes: number, line: number | undefined): SubstitutionWarning[] {
    const at = line !== undefined ? `line ${line}: ` : '';
    const component = this.cyclicComponents(left);
    const out: SubstitutionWarning[] = [];
    const seen = new Set<number>();
    const deep: string[] = [];
    for (const name of left) {
      const c = component.get(name);
      if (c === undefined) {
        deep.push(name);
        continue;
      }
      if (seen.has(c)) continue;
      seen.add(c);
      const cycle = this.cycleThrough(name, component);
      const sentAs = left.filter((n) => component.get(n) === c);
      const message =
        cycle.length === 1
          ? `${cycle[0]} refers to itself; sent as ${listed(sentAs, true)}`
          : `${listed(cycle, false)} refer to each other (${[...cycle.slice(0, LISTED), ...(cycle.length > LISTED ? ['...'] : []), cycle[0]].join(' -> ')}); sent as ${listed(sentAs, true)}`;
      out.push({ code: 'vars-cycle', line, message: at + message, variables: cycle });
    }
    if (deep.length) {
      out.push({
        code: 'vars-unresolved',
        line,
        message: `${at}${listed(deep, false)} ${deep.length === 1 ? 'is' : 'are'} still unsubstituted after ${passes} substitution ${passes === 1 ? 'pass' : 'passes'} (the limit, sheet-vars-max-passes); sent as ${listed(deep, true)}`,
        variables: deep,
      });
    }
    return out;
  }

  /**
   * For the names reachable from `start`: name -> id of its strongly connected component, for
   * the names that lie on a cycle (a component of several names, or a name whose value refers
   * to itself). Tarjan's algorithm with an explicit stack (no recursion, whatever the depth).
   */
  private cyclicComponents(start: string[]): Map<string, number> {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const edges = new Map<string, string[]>();
    const refs = (n: string) => {
      let r = edges.get(n);
      if (!r) edges.set(n, (r = this.references(this.values.get(n) ?? '')));
      return r;
    };
    const result = new Map<string, number>();
    let next = 0;
    let componentId = 0;
    for (const root of start) {
      if (index.has(root)) continue;
      const frames: { name: string; i: number }[] = [{ name: root, i: 0 }];
      index.set(root, next);
      low.set(root, next++);
      stack.push(root);
      onStack.add(root);
      while (frames.length) {
        const f = frames[frames.length - 1]!;
        const out = refs(f.name);
        if (f.i < out.length) {
          const w = out[f.i++]!;
          if (!index.has(w)) {
            index.set(w, next);
            low.set(w, next++);
            stack.push(w);
            onStack.add(w);
            frames.push({ name: w, i: 0 });
          } else if (onStack.has(w)) {
            low.set(f.name, Math.min(low.get(f.name)!, index.get(w)!));
          }
          continue;
        }
        frames.pop();
        if (frames.length) {
          const parent = frames[frames.length - 1]!.name;
          low.set(parent, Math.min(low.get(parent)!, low.get(f.name)!));
        }
        if (low.get(f.name) === index.get(f.name)) {
          const members: string[] = [];
          let w: string;
          do {
            w = stack.pop()!;
            onStack.delete(w);
            members.push(w);
          } while (w !== f.name);
          if (members.length > 1 || refs(f.name).includes(f.name)) {
            for (const mName of members) result.set(mName, componentId);
            componentId++;
          }
        }
      }
    }
    return result;
  }

  /**
   * A shortest cycle through `name` inside its component (breadth-first), rotated to start at
   * its first-declared name, so the message does not depend on the pass count.
   */
  private cycleThrough(name: string, component: Map<string, number>): string[] {
    const c = component.get(name);
    const parent = new Map<string, string>();
    const queue = [name];
    let found = false;
    for (let q = 0; q < queue.length && !found; q++) {
      const v = queue[q]!;
      for (const w of this.references(this.values.get(v) ?? '')) {
        if (component.get(w) !== c) continue;
        if (w === name) {
          parent.set(name, v);
          found = true;
          break;
        }
        if (!parent.has(w)) {
          parent.set(w, v);
          queue.push(w);
        }
      }
    }
    const cycle: string[] = [];
    for (let v = parent.get(name)!; v !== name; v = parent.get(v)!) cycle.push(v);
    cycle.push(name);
    cycle.reverse();
    this.order ??= new Map([...this.values.keys()].map((k, i) => [k, i]));
    let best = 0;
    for (let i = 1; i < cycle.length; i++) if (this.order.get(cycle[i]!)! < this.order.get(cycle[best]!)!) best = i;
    return [...cycle.slice(best), ...cycle.slice(0, best)];
  }
}
