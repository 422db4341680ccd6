/**
 * `sheet import`'s conversion, without I/O: source files' texts -> the files to write (`.http`
 * or `.sheet` files, http-client.env.json, http-client.private.env.json) and the warnings, or
 * the errors that stop the import (nothing is written then). The command around it:
 * sheet-command/import-cli.ts; the decisions: docs/import.md.
 */
import { BrunoSyntaxError, importBruno, type BrunoFile } from './bruno.js';
import { httpToSheet } from './sheet-http.js';
import { detectImport } from './detect.js';
import { importHar } from './har.js';
import { importOpenApi } from './openapi.js';
import { fileSlug, importPostmanCollection, importPostmanEnvironment, mergeEnv } from './postman.js';
import type { EnvFile, ImportResult } from './model.js';
import { fileToHttp } from './write-http.js';

/** A source given to the import. */
export interface ImportSource {
  /** As the user named it (for messages). */
  file: string;
  text: string;
  /** A Bruno collection folder (`file` is the folder): its `.bru` files and `bruno.json`, paths relative to it. */
  bruno?: BrunoFile[];
}

/** A warning or error, tied to the source file it is about. */
export interface ImportMessage {
  file: string;
  line?: number;
  where?: string;
  message: string;
}

/** What to write, relative to the output directory, and what to say. */
export interface ImportPlan {
  /** Relative path -> text, in writing order (`.http`/`.sheet` files first, then the env files). */
  outputs: Map<string, string>;
  /** Requests per written request file. */
  counts: Map<string, number>;
  /** The formats read, per source. */
  formats: { file: string; format: string }[];
  warnings: ImportMessage[];
  /** Non-empty: nothing may be written. */
  errors: ImportMessage[];
}

const baseName = (file: string) => fileSlug((file.split(/[\\/]/).pop() ?? file).replace(/\.(json|ya?ml|har)$/i, '').replace(/\.postman_(environment|globals|collection)$/, ''), 'import');

/**
 * Import `sources` into one plan. `to`: `http` (default) or `sheet` (each `.http` text through
 * `httpToSheet`, whose problems become warnings). Environments of several sources are merged,
 * later winning.
 */
export async function planImport(sources: ImportSource[], to: 'http' | 'sheet' = 'http'): Promise<ImportPlan> {
  const plan: ImportPlan = { outputs: new Map(), counts: new Map(), formats: [], warnings: [], errors: [] };
  const results: { file: string; r: ImportResult }[] = [];
  for (const s of sources) {
    if (s.bruno) {
      try {
        const r = await importBruno(s.bruno);
        results.push({ file: s.file, r });
        plan.formats.push({ file: s.file, format: r.format });
      } catch (e) {
        if (!(e instanceof BrunoSyntaxError)) throw e;
        plan.errors.push({ file: `${s.file.replace(/[\\/]+$/, '')}/${e.file}`, line: e.line, message: e.message });
      }
      continue;
    }
    const d = await detectImport(s.text, s.file);
    if ('error' in d) {
      plan.errors.push({ file: s.file, line: d.line, message: d.error });
      continue;
    }
    try {
      let r: ImportResult;
      if (d.format === 'postman-collection') r = await importPostmanCollection(d.doc);
      else if (d.format === 'postman-environment') r = importPostmanEnvironment(d.doc, baseName(s.file));
      else if (d.format === 'har') r = importHar(d.doc as { log: { entries?: [] } }, baseName(s.file));
      else r = await importOpenApi(d.doc, s.file, baseName(s.file));
      results.push({ file: s.file, r });
      plan.formats.push({ file: s.file, format: r.format });
    } catch (e) {
      plan.errors.push({ file: s.file, message: (e as Error).message });
    }
  }
  if (plan.errors.length) return plan;
  const env: EnvFile = {};
  const privateEnv: EnvFile = {};
  const taken = new Set<string>();
  for (const { file, r } of results) {
    mergeEnv(env, r.env);
    mergeEnv(privateEnv, r.privateEnv);
    const warnings = [...r.warnings];
    for (const f of r.files) {
      let text = fileToHttp(f, taken, warnings);
      let name = f.path;
      if (to === 'sheet') {
        const c = httpToSheet(text);
        for (const p of c.problems) warnings.push({ where: `${f.path.replace(/\.http$/, '.sheet')}, from line ${p.line} of the .http text`, message: `${p.construct}: ${p.message}` });
        text = c.text;
        name = f.path.replace(/\.http$/, '.sheet');
      }
      for (let i = 2; plan.outputs.has(name); i++) name = f.path.replace(/\.http$/, `-${i}.${to}`);
      plan.outputs.set(name, text);
      plan.counts.set(name, f.requests.length);
    }
    for (const w of warnings) plan.warnings.push({ file: w.file ? `${file.replace(/[\\/]+$/, '')}/${w.file}` : file, line: w.line, where: w.where || undefined, message: w.message });
  }
  if (Object.keys(env).length) plan.outputs.set('http-client.env.json', `${JSON.stringify(env, null, 2)}\n`);
  if (Object.keys(privateEnv).length) plan.outputs.set('http-client.private.env.json', `${JSON.stringify(privateEnv, null, 2)}\n`);
  if (to === 'sheet' && (Object.keys(env).length || Object.keys(privateEnv).length)) {
    plan.warnings.push({ file: sources[0]!.file, message: 'sheets do not read http-client.env.json: the environments are written for .http files; use --to http, or copy the values into the sheet as :name = value' });
  }
  return plan;
}
