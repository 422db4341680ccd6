/**
 * The substitution pass (sheet format doc, "Substitution"): replace `:name` references by their
 * values, again and again while anything is left to replace, at most `maxPasses` times
 * (restclient.el's `restclient-vars-max-passes`, `sheet-vars-max-passes`, default 10). Longer
 * names are tried before their prefixes, so `:id` never eats `:idx`. Replacement is plain text,
 * as in restclient.el: a declared name matches wherever it stands.
 */
import { EngineError } from '../errors.js';

/** Default number of substitution passes (sheet format doc, "Limits"). */
export const DEFAULT_MAX_PASSES = 10;

/** Text longer than this (in UTF-16 units) after a pass ends substitution with an error. */
export const MAX_SUBSTITUTED_LENGTH = 16 * 1024 * 1024;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A compiled set of variables, reusable for every template of one request. */
export class Substitution {
  private readonly re: RegExp | undefined;

  /**
   * @param values variable name (with its colon, e.g. `:host`) -> value text.
   * @param maxPasses at most this many passes (values below 1 count as 1).
   */
  constructor(
    readonly values: ReadonlyMap<string, string>,
    readonly maxPasses: number = DEFAULT_MAX_PASSES,
  ) {
    const names = [...values.keys()].sort((a, b) => b.length - a.length);
    this.re = names.length ? new RegExp(names.map(escapeRe).join('|'), 'g') : undefined;
  }

  /** The declared names that occur in `text` (longest first at each position). */
  references(text: string): string[] {
    if (!this.re) return [];
    this.re.lastIndex = 0;
    return [...new Set(text.match(this.re) ?? [])];
  }

  /**
   * Substitute every reference in `text`.
   * @param line the sheet line the template comes from, for the error.
   * @throws EngineError `variable-cycle` when references are left after `maxPasses` passes, or
   *   when a pass changes nothing although references are left (a value that reproduces
   *   itself, e.g. `:a = :a`). The message names the variables of the cycle.
   */
  apply(text: string, line?: number): string {
    const re = this.re;
    if (!re) return text;
    const passes = Math.max(1, Math.floor(this.maxPasses));
    let current = text;
    for (let pass = 0; pass < passes; pass++) {
      re.lastIndex = 0;
      if (!re.test(current)) return current;
      re.lastIndex = 0;
      const next = current.replace(re, (m) => this.values.get(m)!);
      if (next === current) break;
      current = next;
      // A value that holds itself twice doubles the text at every pass: stop before memory runs out.
      if (current.length > MAX_SUBSTITUTED_LENGTH) break;
    }
    const left = this.references(current);
    if (!left.length) return current;
    const cycle = this.cycleFrom(left);
    const names = cycle.length ? cycle : left;
    throw new EngineError(
      'variable-cycle',
      cycle.length
        ? `variables refer to each other in a cycle: ${cycle.join(' -> ')} -> ${cycle[0]}`
        : `variables still unresolved after ${passes} substitution passes: ${left.join(', ')}`,
      {
        line,
        hint: cycle.length
          ? `Break the cycle: one of ${cycle.join(', ')} must not refer back to the others.`
          : `The references nest deeper than ${passes} levels; raise the pass limit (sheet-vars-max-passes).`,
        details: { variables: names, passes },
      },
    );
  }

  /** The cycle rotated to start at its first-declared name, so the message does not depend on the pass count. */
  private canonical(cycle: string[]): string[] {
    const order = [...this.values.keys()];
    let best = 0;
    for (let i = 1; i < cycle.length; i++) if (order.indexOf(cycle[i]!) < order.indexOf(cycle[best]!)) best = i;
    return [...cycle.slice(best), ...cycle.slice(0, best)];
  }

  /** A cycle of references reachable from `start`, as a list of names; [] when none. */
  private cycleFrom(start: string[]): string[] {
    const state = new Map<string, 1 | 2>(); // 1: on the DFS path, 2: done
    const pathStack: string[] = [];
    const visit = (name: string): string[] => {
      state.set(name, 1);
      pathStack.push(name);
      for (const ref of this.references(this.values.get(name) ?? '')) {
        const s = state.get(ref);
        if (s === 1) return this.canonical(pathStack.slice(pathStack.indexOf(ref)));
        if (s === undefined) {
          const c = visit(ref);
          if (c.length) return c;
        }
      }
      pathStack.pop();
      state.set(name, 2);
      return [];
    };
    for (const name of start) {
      if (state.has(name)) continue;
      const c = visit(name);
      if (c.length) return c;
    }
    return [];
  }
}
