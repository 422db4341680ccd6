/**
 * `sheet import FILE_OR_DIR... [-o OUTDIR] [--to http|sheet] [--force]` (docs/import.md): Postman
 * collections and environments, OpenAPI/Swagger specs, HAR files and Bruno collection folders -> `.http` files (or
 * sheets) with http-client.env.json and http-client.private.env.json. The conversion is
 * convert/import.ts; this file reads the sources, writes the files and reports.
 *
 * Nothing is written unless every source imports: a source that is not one of the formats,
 * does not parse (the line where known) or whose `$ref` does not resolve is exit 2, as is an
 * output `.http`/`.sheet` file that exists (`--force` replaces it). The environment files are
 * merged into existing ones (their other keys kept, the imported values winning). Each file is
 * written whole: a temporary file beside it, then a rename.
 * @returns 0 everything carried, 1 written with warnings (one per thing not carried, on
 *   stderr), 2 nothing written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BrunoFile } from '../convert/bruno.js';
import { planImport, type ImportMessage, type ImportSource } from '../convert/import.js';
import { writeReport } from './write-whole.js';
import type { Io } from './io.js';

const EXTENSIONS = /\.(json|ya?ml|har)$/i;

function usage(io: Io, msg: string): number {
  io.err(`sheet import: ${msg}\nTry 'sheet --help'.\n`);
  return 2;
}

const located = (m: ImportMessage) => `${m.file}${m.line ? `:${m.line}` : ''}: ${m.where ? `${m.where}: ` : ''}${m.message}`;

/** The source files of `arg`: itself, a Bruno collection folder (with `bruno.json`), or a directory's `.json`/`.yaml`/`.yml`/`.har` files (sorted). */
function sourcesOf(arg: string): string[] | string {
  let st: fs.Stats;
  try {
    st = fs.statSync(arg);
  } catch {
    return `cannot read ${arg}`;
  }
  if (!st.isDirectory()) return [arg];
  if (fs.existsSync(path.join(arg, 'bruno.json'))) return [arg];
  const files = fs.readdirSync(arg).filter((f) => EXTENSIONS.test(f) && !/^http-client(\.private)?\.env\.json$/.test(f)).sort().map((f) => path.join(arg, f));
  return files.length ? files : `${arg} holds no .json, .yaml, .yml or .har file to import`;
}

/**
 * A Bruno collection folder's `bruno.json` and `.bru` files (paths relative to it, `/`-separated),
 * skipping `node_modules`, dot folders and the folders `bruno.json`'s `ignore` lists, as Bruno does.
 */
function brunoFiles(dir: string): BrunoFile[] {
  const out: BrunoFile[] = [];
  let ignore: string[] = [];
  try {
    const list = (JSON.parse(fs.readFileSync(path.join(dir, 'bruno.json'), 'utf8')) as { ignore?: unknown }).ignore;
    if (Array.isArray(list)) ignore = list.map(String);
  } catch {
    // A bruno.json that does not parse is reported by the import, with the others' errors.
  }
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && !e.name.startsWith('.') && !ignore.includes(r)) walk(r);
      } else if (e.name.endsWith('.bru') || r === 'bruno.json') out.push({ path: r, text: fs.readFileSync(path.join(dir, r), 'utf8') });
    }
  };
  walk('');
  return out;
}

/** Merge `text` (a JSON env file) into the existing `file`, the imported values winning. */
function mergedEnvText(file: string, text: string): string | { error: string } {
  if (!fs.existsSync(file)) return text;
  let old: Record<string, Record<string, unknown>>;
  try {
    old = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    return { error: `${file} exists and is not valid JSON (${(e as Error).message}); fix or move it` };
  }
  const add = JSON.parse(text) as Record<string, Record<string, unknown>>;
  for (const [env, vars] of Object.entries(add)) old[env] = { ...(old[env] ?? {}), ...vars };
  return `${JSON.stringify(old, null, 2)}\n`;
}

/** `sheet import` (see the file comment). */
export async function importCommand(args: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { output: { type: 'string', short: 'o' }, to: { type: 'string' }, force: { type: 'boolean' } } });
  } catch (e) {
    return usage(io, (e as Error).message.split('\n')[0]!);
  }
  const { values: v, positionals } = parsed;
  if (!positionals.length) return usage(io, 'a FILE or DIR is needed: sheet import collection.json [-o OUTDIR]');
  if (v.to !== undefined && v.to !== 'http' && v.to !== 'sheet') return usage(io, `--to ${v.to}: use --to http or --to sheet`);
  const files: string[] = [];
  for (const a of positionals) {
    const s = sourcesOf(a);
    if (typeof s === 'string') return usage(io, s);
    files.push(...s);
  }
  const sources: ImportSource[] = [];
  for (const f of files) {
    try {
      if (fs.statSync(f).isDirectory()) sources.push({ file: f, text: '', bruno: brunoFiles(f) });
      else sources.push({ file: f, text: fs.readFileSync(f, 'utf8') });
    } catch (e) {
      return usage(io, `cannot read ${f} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  const plan = await planImport(sources, (v.to as 'http' | 'sheet' | undefined) ?? 'http');
  if (plan.errors.length) {
    for (const e of plan.errors) io.err(`sheet import: ${located(e)}\n`);
    io.err('sheet import: nothing written\n');
    return 2;
  }
  const outDir = path.resolve(v.output ?? '.');
  const texts = new Map<string, string>();
  for (const [rel, text] of plan.outputs) {
    const target = path.join(outDir, rel);
    if (/\.env\.json$/.test(rel)) {
      const merged = mergedEnvText(target, text);
      if (typeof merged !== 'string') return usage(io, `${merged.error}; nothing written`);
      texts.set(target, merged);
    } else if (fs.existsSync(target) && !v.force) return usage(io, `${target} exists; give another -o OUTDIR, or --force to replace it; nothing written`);
    else texts.set(target, text);
  }
  try {
    fs.mkdirSync(outDir, { recursive: true });
    for (const [target, text] of texts) await writeReport(target, text);
  } catch (e) {
    return usage(io, `cannot write in ${outDir}: ${(e as Error).message}`);
  }
  for (const f of plan.formats) io.out(`read ${f.file} (${f.format})\n`);
  for (const target of texts.keys()) {
    const n = plan.counts.get(path.relative(outDir, target));
    io.out(`wrote ${path.relative(process.cwd(), target) || target}${n !== undefined ? ` (${n} request${n === 1 ? '' : 's'})` : ''}\n`);
  }
  for (const w of plan.warnings) io.err(`warning: ${located(w)}\n`);
  if (plan.warnings.length) io.err(`sheet import: ${plan.warnings.length} thing${plan.warnings.length === 1 ? '' : 's'} not carried (named above)\n`);
  return plan.warnings.length ? 1 : 0;
}
