/**
 * The answers to the `# @prompt name [description]` lines of `.http` files in `sheet run`
 * (docs/sheet-run.md, "Prompts"). A prompt is answered, in this order, by:
 * 1. `--prompts-from FILE` or `--prompts-from -` (standard input): one JSON object
 *    `{"name": "value"}`, so that secrets never sit on a command line, where `ps` shows them
 *    (Emacs's C-c C-t passes its answers this way);
 * 2. `--var name=value` (an override, as before);
 * 3. the terminal, when standard input and standard error are both terminals: the question on
 *    stderr when the prompt's request comes, the description as the question (as Emacs's
 *    minibuffer: `description (name): `), without echo when the name matches
 *    {@link SECRET_PROMPT_NAME} (password, passwd, token, secret), through Node's readline
 *    (muted output for secrets: no prompt library is a dependency of the engine);
 * 4. else the run is a usage error naming the prompt's line, before anything is sent
 *    (convert-cli.ts `checkHttpFile`).
 * One answer per name for the whole run (every file, every request asking it), as C-c C-t
 * asks each name once; VS Code REST Client and httpyac ask per request sent, which for a run
 * would ask the same thing again and again.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { EngineError } from '../errors.js';
import { promptsOf, SECRET_PROMPT_NAME } from '../resolve/resolve-http.js';
import type { RequestNode } from '../sheet/ast.js';

/** The largest `--prompts-from` file or standard input read, in bytes (16 MiB). */
export const PROMPTS_FROM_LIMIT = 16 * 1024 * 1024;

/** One `# @prompt` line, where it is asked. */
export interface PromptQuestion {
  file: string;
  name: string;
  /** The words after the name; '' when none. */
  description: string;
  /** The `# @prompt` line (1-based). */
  line: number;
}

/** Asks one prompt; resolves its answer, or undefined when the input ended first (Ctrl-D). */
export type Ask = (q: PromptQuestion) => Promise<string | undefined>;

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/**
 * The answers in `text`, a JSON object of strings `{"name": "value"}` (names without a colon,
 * as written after `# @prompt`).
 * @param source the `--prompts-from` argument, for the messages
 * @returns the answers by name, or the usage message (not JSON, not an object, a value that
 *   is not a string)
 */
export function parseAnswers(text: string, source: string): Map<string, string> | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `--prompts-from ${source}: not JSON (${(e as Error).message}); give one object: {"name": "value"}`;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return `--prompts-from ${source}: give one JSON object of answers, {"name": "value"}, not ${kind(v)}`;
  const answers = new Map<string, string>();
  for (const [name, a] of Object.entries(v)) {
    if (typeof a !== 'string') return `--prompts-from ${source}: the answer to ${JSON.stringify(name)} is ${kind(a)}; answers are strings: {${JSON.stringify(name)}: "${String(a)}"}`;
    answers.set(name, a);
  }
  return answers;
}

/**
 * `--prompts-from SOURCE`: the answers read from the file SOURCE, or from standard input
 * when SOURCE is `-` (read whole, up to {@link PROMPTS_FROM_LIMIT}).
 * @returns the answers, or the usage message (unreadable, too large, not an object of strings)
 */
export async function readAnswers(source: string, stdin: () => Promise<string>): Promise<Map<string, string> | string> {
  let text: string;
  if (source === '-') {
    try {
      text = await stdin();
    } catch {
      return `--prompts-from -: standard input could not be read whole (more than ${PROMPTS_FROM_LIMIT / 1024 / 1024} MiB?); give one JSON object of answers`;
    }
  } else {
    try {
      const st = fs.statSync(source);
      if (st.isDirectory()) return `--prompts-from ${source} is a directory; give a JSON file of answers`;
      if (st.size > PROMPTS_FROM_LIMIT) return `--prompts-from ${source}: over ${PROMPTS_FROM_LIMIT / 1024 / 1024} MiB; give one JSON object of answers`;
      text = fs.readFileSync(source, 'utf8');
    } catch (e) {
      return `--prompts-from ${source}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
  }
  return parseAnswers(text, source);
}

/** The question asked for `q`, as Emacs's minibuffer asks it: `description (name): ` or `name: `. */
export function questionFor(q: Pick<PromptQuestion, 'name' | 'description'>): string {
  return q.description ? `${q.description} (${q.name}): ` : `${q.name}: `;
}

/** One line read from `input` after `question` on `output`; undefined at the end of input. */
function askLine(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, question: string, secret: boolean, onInterrupt: () => void): Promise<string | undefined> {
  return new Promise((resolve) => {
    let muted = false;
    // No echo: readline writes what is typed to its output, which drops it while muted.
    const sink = secret
      ? new Writable({
          write(chunk, _enc, cb) {
            if (!muted) output.write(chunk);
            cb();
          },
        })
      : output;
    const rl = readline.createInterface({ input, output: sink, terminal: true, historySize: 0 });
    let done = false;
    rl.on('close', () => {
      if (done) return;
      done = true;
      output.write('\n');
      resolve(undefined);
    });
    rl.on('SIGINT', () => {
      // Ctrl-C at a question stops the run, as anywhere else (raw mode swallowed the signal).
      done = true;
      output.write('^C\n');
      rl.close();
      onInterrupt();
    });
    const answered = (a: string) => {
      done = true;
      if (secret) output.write('\n');
      rl.close();
      resolve(a);
    };
    if (secret) {
      output.write(question);
      muted = true;
      rl.question('', answered);
    } else rl.question(question, answered);
  });
}

/**
 * An {@link Ask} on a terminal: `input` (standard input) and `output` (standard error) must be
 * terminals. Questions are asked one at a time (files run in parallel with `--jobs` wait their
 * turn), each name once per run: a later question for an asked name gets the same answer.
 * After the input ended (Ctrl-D), every question resolves undefined.
 * @param onInterrupt called on Ctrl-C at a question (entry.ts exits with status 130)
 */
export function terminalAsker(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, onInterrupt: () => void): Ask {
  let queue: Promise<unknown> = Promise.resolve();
  let ended = false;
  const asked = new Map<string, Promise<string | undefined>>();
  return (q) => {
    let a = asked.get(q.name);
    if (!a) {
      a = queue.then(async () => {
        if (ended) return undefined;
        const r = await askLine(input, output, questionFor(q), SECRET_PROMPT_NAME.test(q.name), onInterrupt);
        if (r === undefined) ended = true;
        return r;
      });
      queue = a;
      asked.set(q.name, a);
    }
    return a;
  };
}

/**
 * The answers to `node`'s `# @prompt` lines, for `Session.send`'s `prompts`: from `answers`
 * (`--prompts-from`), else none when a `--var` gives the name (the override answers it),
 * else asked with `ask` (the terminal). A prompt left without any goes to the Session, which
 * reports it (the run checked beforehand that none is left when there is no terminal).
 * @param vars the `--var` values, names with their colon
 * @returns the answers by name, or undefined when the request has no prompt
 * @throws EngineError `bad-argument` on the prompt's line when the terminal's input ended
 *   (Ctrl-D) before an answer
 */
export async function answersFor(node: RequestNode, file: string, o: { answers?: ReadonlyMap<string, string>; vars: [string, string][]; ask?: Ask }): Promise<Record<string, string> | undefined> {
  const prompts = promptsOf(node);
  if (!prompts.length) return undefined;
  const out: Record<string, string> = {};
  for (const p of prompts) {
    const given = o.answers?.get(p.name);
    if (given !== undefined) out[p.name] = given;
    else if (o.vars.some(([n]) => n === `:${p.name}`) || !o.ask) continue;
    else {
      const a = await o.ask({ file, ...p });
      if (a === undefined) {
        throw new EngineError('bad-argument', `# @prompt ${p.name} got no answer (the input ended)`, {
          line: p.line,
          hint: `Type the answer and Enter; or give it with --var ${p.name}=VALUE or --prompts-from FILE.`,
        });
      }
      out[p.name] = a;
    }
  }
  return out;
}
