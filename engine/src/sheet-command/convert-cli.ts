/**
 * `sheet convert FILE [-o OUT] [--to sheet|http]` (docs/http-files.md "Converting") and the
 * checks `sheet run` makes of a `.http` file before sending anything (`--env`, `# @prompt`).
 * The conversion rules live in convert/sheet-http.ts; this file is the command around them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { httpToSheet, sheetToHttp } from '../convert/sheet-http.js';
import { loadEnvironment, syntaxFor } from '../http-file/index.js';
import { promptsOf } from '../resolve/resolve-http.js';
import { isEngineError } from '../errors.js';
import type { RequestNode } from '../sheet/ast.js';
import { writeReport } from './write-whole.js';
import type { Io } from './io.js';

/**
 * The usage problem of running `requests` of the `.http` `file` with environment `env` and
 * the `--var` values `vars` (names with their colon), or undefined when there is none:
 * an environment name the files do not define (the message lists those they do; no name
 * needed), a bad environment file, a `# @prompt name` that neither `--var name=value` nor
 * `prompts.answers` (`--prompts-from`) answers, unless `prompts.canAsk` (a terminal asks it).
 */
export function checkHttpFile(file: string, requests: RequestNode[], env: string | undefined, vars: [string, string][], prompts: { answers?: ReadonlyMap<string, string>; canAsk?: boolean } = {}): string | undefined {
  try {
    loadEnvironment(file, env || undefined);
  } catch (e) {
    if (!isEngineError(e)) throw e;
    return `${file}: --env ${env ?? ''}: ${e.message}${e.hint ? `. ${e.hint}` : ''}`;
  }
  if (prompts.canAsk) return undefined;
  const given = new Set(vars.map(([n]) => n.replace(/^:/, '')));
  for (const r of requests) {
    for (const p of promptsOf(r)) {
      if (!given.has(p.name) && !prompts.answers?.has(p.name)) {
        return `${file}:${p.line}: # @prompt ${p.name} needs a value${p.description ? ` (${p.description})` : ''}: give it with --var ${p.name}=VALUE or --prompts-from FILE ({"${p.name}": "..."}), or run sheet on a terminal to be asked`;
      }
    }
  }
  return undefined;
}

function usage(io: Io, msg: string): number {
  io.err(`sheet convert: ${msg}\nTry 'sheet --help'.\n`);
  return 2;
}

/**
 * `sheet convert`: `.sheet` -> `.http` or `.http`/`.rest` -> `.sheet` through convert.ts.
 * The direction: `--to`, else the source's syntax (its extension or first-line marker,
 * http-file/index.ts `syntaxFor`). Output to stdout, or to `output` written atomically (a
 * temporary file beside it, then renamed: never half a file). Every problem goes to stderr as
 * `FILE:LINE: construct: message`.
 * @returns 0 converted whole, 1 something could not be converted (the rest is written),
 *   2 usage error (no or several files, unreadable file, bad `--to`, unwritable output).
 */
export async function convertCommand(files: string[], o: { output?: string; to?: string }, io: Io): Promise<number> {
  if (files.length !== 1) return usage(io, files.length ? 'give one FILE' : 'a FILE is needed: sheet convert FILE [-o OUT]');
  const file = files[0]!;
  if (o.to !== undefined && o.to !== 'sheet' && o.to !== 'http') return usage(io, `--to ${o.to}: use --to sheet or --to http`);
  let text: string;
  try {
    if (fs.statSync(file).isDirectory()) return usage(io, `${file} is a directory; give a .sheet or .http file`);
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return usage(io, `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const from = syntaxFor(text, file);
  const to = o.to ?? (from === 'http' ? 'sheet' : 'http');
  if (to === from) return usage(io, `${file} is already in the ${from} syntax; --to ${to} has nothing to do`);
  if (o.output !== undefined && path.resolve(o.output) === path.resolve(file)) return usage(io, `-o ${o.output} is the input file; give another name`);
  const r = to === 'http' ? sheetToHttp(text) : httpToSheet(text);
  for (const p of r.problems) io.err(`${file}:${p.line}: ${p.construct}: ${p.message}\n`);
  if (o.output === undefined) io.out(r.text);
  else {
    try {
      await writeReport(path.resolve(o.output), r.text);
    } catch (e) {
      return usage(io, `cannot write ${o.output}: ${(e as Error).message}`);
    }
  }
  if (r.problems.length) io.err(`sheet convert: ${r.problems.length} construct${r.problems.length === 1 ? '' : 's'} not converted (named above)\n`);
  return r.problems.length ? 1 : 0;
}
