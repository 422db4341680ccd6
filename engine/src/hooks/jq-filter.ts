/**
 * A jq filter applied to a response body for display (sheet-mode's Org Babel `:jq`,
 * `sheet/send`'s `jq` field), as `jq [ARGS] FILTER` prints it: each result as JSON,
 * pretty-printed, one after the other; with `-r` strings bare (ob-restclient's `:jq` and
 * `:jq-args`, github.com/alf/ob-restclient.el). It runs through {@link runJq} (the system jq,
 * bounded in time and output), so only the options that can be written into the filter are
 * understood; any other is an error naming it.
 */
import { runJq } from './run.js';
import { prettyJson } from '../present/json.js';

/** What `sheet/send` is asked to run: the filter and jq's command-line options. */
export interface JqFilterSpec {
  /** The jq filter, as on jq's command line. */
  filter: string;
  /**
   * jq's options (argv words, already split): `--arg NAME VALUE`, `--argjson NAME JSON`,
   * `-r`/`--raw-output`, `-c`/`--compact-output`, `--args` (ignored, ob-restclient adds it).
   */
  args?: string[];
}

/** The filter's output, or why there is none (in words, naming the option or jq's message). */
export type JqFilterResult = { output: string } | { error: string };

interface Options {
  prefix: string;
  raw: boolean;
  compact: boolean;
}

/** jq's options as a filter prefix (`"v" as $name | `) and output flags; throws naming a bad one. */
function parseArgs(args: readonly string[]): Options {
  const o: Options = { prefix: '', raw: false, compact: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = (): string => {
      const n = args[i + 1];
      if (n === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n) || args[i + 2] === undefined) {
        throw new Error(`jq option ${a} needs a NAME and a VALUE (e.g. ${a} id 7)`);
      }
      return n;
    };
    if (a === '-r' || a === '--raw-output') o.raw = true;
    else if (a === '-c' || a === '--compact-output') o.compact = true;
    else if (a === '--args') continue;
    else if (a === '--arg') {
      const n = name();
      o.prefix += `${JSON.stringify(args[i + 2])} as $${n} | `;
      i += 2;
    } else if (a === '--argjson') {
      const n = name();
      try {
        JSON.parse(args[i + 2]!);
      } catch {
        throw new Error(`jq option --argjson ${n}: ${JSON.stringify(args[i + 2])} is not JSON`);
      }
      o.prefix += `(${args[i + 2]}) as $${n} | `;
      i += 2;
    } else {
      throw new Error(`jq option ${a} is not supported here (use --arg, --argjson, -r, -c)`);
    }
  }
  return o;
}

/**
 * Run `spec` on `body` (the response body as text).
 * @returns the output: each result on its own line(s), JSON pretty-printed with two spaces
 *   unless `-c` (or `-r` for strings); or `error` with jq's message, a bad option, an empty or
 *   non-JSON body. Never throws.
 */
export async function filterBody(spec: JqFilterSpec, body: string): Promise<JqFilterResult> {
  let o: Options;
  try {
    o = parseArgs(spec.args ?? []);
  } catch (e) {
    return { error: (e as Error).message };
  }
  // Each result as one line of JSON (strings bare with -r), then indented here.
  const filter = `${o.prefix}(${spec.filter})${o.raw ? '' : ' | tojson'}`;
  try {
    const out = await runJq(filter, body);
    if (o.compact) return { output: out };
    // jq prints objects and arrays indented, -r or not; a bare string stays as it is.
    const indent = (line: string): string => (!o.raw || /^[[{]/.test(line) ? (prettyJson(line) ?? line) : line);
    return { output: out.split('\n').map(indent).join('\n') };
  } catch (e) {
    return { error: `jq ${spec.filter}: ${(e as Error).message}` };
  }
}
