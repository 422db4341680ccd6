/**
 * The substitution pass: replace `:name` references by their values, again and again while
 * anything changes, at most `maxPasses` times (restclient.el's `restclient-vars-max-passes`,
 * default 10). Longer names are tried before their prefixes, so `:id` never eats `:idx`.
 * Replacement is plain text, as in restclient.el: a name matches wherever it stands.
 */
import { EngineError } from '../errors.js';

/** Default number of substitution passes (sheet format doc, "Limits"). */
export const DEFAULT_MAX_PASSES = 10;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A compiled set of variables, reusable for every template of one request. */
export class Substitution {
  private readonly re: RegExp | undefined;

  /**
   * @param values variable name (with its colon, e.g. `:host`) -> value text.
   * @param maxPasses at most this many passes (>= 1).
   */
  constructor(
    readonly values: ReadonlyMap<string, string>,
    readonly maxPasses: number = DEFAULT_MAX_PASSES,
  ) {
    const names = [...values.keys()].sort((a, b) => b.length - a.length);
    this.re = names.length ? new RegExp(names.map(escapeRe).join('|'), 'g') : undefined;
  }

  /**
   * Substitute every reference in `text`.
   * @param line the sheet line the template comes from, for the error.
   * @throws EngineError `variable-cycle` when references are still being replaced after
   *   `maxPasses` passes; the message names the variables involved.
   */
  apply(text: string, line?: number): string {
    const re = this.re;
    if (!re) return text;
    let current = text;
    for (let pass = 0; pass < this.maxPasses; pass++) {
      re.lastIndex = 0;
      if (!re.test(current)) return current;
      re.lastIndex = 0;
      const next = current.replace(re, (m) => this.values.get(m)!);
      if (next === current) return current;
      current = next;
    }
    re.lastIndex = 0;
    if (!re.test(current)) return current;
    re.lastIndex = 0;
    const left = [...new Set(current.match(re))];
    throw new EngineError('variable-cycle', `variables still unresolved after ${this.maxPasses} passes: ${left.join(', ')}`, {
      line,
      hint: `The variables refer to each other in a cycle (${left.join(' -> ')}); break the cycle, or raise the pass limit (sheet-vars-max-passes).`,
      details: { variables: left, passes: this.maxPasses },
    });
  }
}
