/**
 * `sheet export --to postman FILE [-o OUT.json] [--env NAME]` (docs/import.md, "Back to
 * Postman"): a `.http` file or a sheet as a Postman collection v2.1, on stdout or in OUT
 * (written whole); with `--env NAME`, that environment of the http-client.env.json and
 * http-client.private.env.json beside FILE as `NAME.postman_environment.json` beside OUT
 * (private values as `secret`). The mapping: convert/to-postman.ts.
 * @returns 0 everything exported, 1 exported with warnings (on stderr), 2 nothing written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { envToPostman, httpToPostman } from '../convert/to-postman.js';
import { syntaxFor } from '../http-file/index.js';
import { writeReport } from './write-whole.js';
import type { Io } from './io.js';

/** Is `args` (after `export`) the Postman export? */
export function isPostmanExport(args: string[]): boolean {
  return args.includes('--to=postman') || args.some((a, i) => a === '--to' && args[i + 1] === 'postman');
}

function readEnv(file: string): Record<string, Record<string, unknown>> | string {
  if (!fs.existsSync(file)) return {};
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    return `${file}: not valid JSON (${(e as Error).message})`;
  }
}

/** `sheet export --to postman` (see the file comment). */
export async function exportPostmanCommand(args: string[], io: Pick<Io, 'out' | 'err'>): Promise<number> {
  const usage = (msg: string) => {
    io.err(`sheet export: ${msg}\nTry 'sheet export --help'.\n`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { to: { type: 'string' }, output: { type: 'string', short: 'o' }, env: { type: 'string' } } });
  } catch (e) {
    return usage((e as Error).message.split('\n')[0]!);
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) return usage('give one FILE: sheet export --to postman FILE [-o OUT.json] [--env NAME]');
  if (v.env !== undefined && v.output === undefined) return usage('--env NAME writes NAME.postman_environment.json beside -o OUT.json; give -o');
  const file = positionals[0]!;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return usage(`cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const name = path.basename(file).replace(/\.(http|rest|sheet)$/i, '');
  const r = httpToPostman(text, syntaxFor(text, file) === 'http' ? 'http' : 'sheet', name);
  let envText: string | undefined;
  if (v.env !== undefined) {
    const dir = path.dirname(path.resolve(file));
    const pub = readEnv(path.join(dir, 'http-client.env.json'));
    const priv = readEnv(path.join(dir, 'http-client.private.env.json'));
    if (typeof pub === 'string') return usage(pub);
    if (typeof priv === 'string') return usage(priv);
    const env = envToPostman(v.env, pub, priv);
    if (!env) return usage(`--env ${v.env}: no such environment in http-client.env.json or http-client.private.env.json beside ${file} (${[...new Set([...Object.keys(pub), ...Object.keys(priv)])].filter((k) => !k.startsWith('$')).join(', ') || 'none'})`);
    envText = `${JSON.stringify(env, null, 2)}\n`;
  }
  const json = `${JSON.stringify(r.collection, null, 2)}\n`;
  if (v.output === undefined) io.out(json);
  else {
    try {
      await writeReport(path.resolve(v.output), json);
      if (envText) await writeReport(path.join(path.dirname(path.resolve(v.output)), `${v.env}.postman_environment.json`), envText);
    } catch (e) {
      return usage(`cannot write ${v.output}: ${(e as Error).message}`);
    }
  }
  for (const w of r.warnings) io.err(`warning: ${file}: ${w.where}: ${w.message}\n`);
  return r.warnings.length ? 1 : 0;
}
