// Reads the corpus of public `.http` files (test/fixtures/http-corpus, SOURCES.md says where each
// comes from) as the engine does: `parseForFile`, the environment found by walking up from the
// file (`loadEnvironment`), then `resolveHttpRequest` for every request. What each request
// resolves to, or the error that stops it, is the outcome the test compares.
import fs from 'node:fs';
import path from 'node:path';
import { loadEnvironment, parseForFile, syntaxFor } from '../../engine/src/http-file/index.js';
import { resolveHttpRequest } from '../../engine/src/resolve/resolve-http.js';
import type { Diagnostic, RequestNode } from '../../engine/src/sheet/ast.js';

export const CORPUS_DIR = path.resolve(__dirname, '../fixtures/http-corpus');

/** A request as resolved: what the tool would send, or why it is not sent. */
export interface ResolvedOutcome {
  line: number;
  method?: string;
  url?: string;
  headers?: [string, string][];
  /** A text body as text; a file body as `<file NAME>`; bytes as `<N bytes>`. */
  body?: string;
  error?: { code: string; message: string };
}

export interface FileOutcome {
  /** Path under the corpus folder, `/`-separated. */
  file: string;
  syntax: string;
  bom: boolean;
  crlf: boolean;
  env?: string;
  diagnostics: Diagnostic[];
  requests: ResolvedOutcome[];
  /** Names a request gets only at run time: `# @name` requests, values set by scripts. */
  runtimeNames: Set<string>;
}

/** Every `.http`/`.rest` file of the corpus, sorted, as paths under it. */
export function corpusFiles(dir = CORPUS_DIR): string[] {
  const walk = (d: string): string[] =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : /\.(http|rest)$/i.test(e.name) ? [path.join(d, e.name)] : []));
  return walk(dir).map((f) => path.relative(dir, f).split(path.sep).join('/')).sort();
}

/**
 * The environment a new user would pick: `ENV_CHOICE` for the file's repository, else `dev`,
 * else the first name the files define, else none (`$shared` only).
 */
function environmentOf(abs: string, choice?: string): ReturnType<typeof loadEnvironment> {
  const names = loadEnvironment(abs).available;
  const name = choice ?? (names.includes('dev') ? 'dev' : names[0]);
  return loadEnvironment(abs, name);
}

const SCRIPT_SET = /(?:client\.global|request\.variables)\.set\(\s*["'`]([\w.-]+)/g;

/** Names set at run time: named requests, `client.global.set` / `request.variables.set` in the file or its script files. */
function runtimeNames(text: string, requests: RequestNode[], dir: string): Set<string> {
  const names = new Set<string>();
  for (const r of requests) {
    if (r.name) names.add(r.name);
    for (const h of [...(r.handlers ?? []), ...(r.preScripts ?? [])]) {
      if (h.kind !== 'file') continue;
      try {
        text += '\n' + fs.readFileSync(path.resolve(dir, h.path), 'utf8');
      } catch {
        // a missing script file fails that request elsewhere
      }
    }
  }
  for (const m of text.matchAll(SCRIPT_SET)) names.add(m[1]!);
  return names;
}

/** Parse `rel` and resolve each of its requests (no I/O but the files it names). */
export async function readCorpusFile(rel: string, opts: { env?: string; overrides?: Record<string, string> } = {}): Promise<FileOutcome> {
  const abs = path.join(CORPUS_DIR, rel);
  const bytes = fs.readFileSync(abs);
  const text = bytes.toString('utf8');
  const sheet = parseForFile(text, abs);
  const env = environmentOf(abs, opts.env);
  const requests: ResolvedOutcome[] = [];
  for (const r of sheet.requests) {
    try {
      const res = await resolveHttpRequest(sheet, r, { baseDir: path.dirname(abs) }, {
        env: env.variables,
        jetbrainsEnv: env.jetbrains,
        dotenv: env.dotenv,
        processEnv: {},
        overrides: new Map(Object.entries(opts.overrides ?? {})),
      });
      const q = res.request;
      const b = q.body;
      const body = !b ? undefined : b.kind === 'text' ? b.text : 'path' in b && b.path ? `<file ${path.basename(b.path)}>` : `<${b.kind === 'bytes' ? b.bytes.length : '?'} bytes>`;
      requests.push({ line: r.line, method: q.method, url: q.url, headers: q.headers.map(([k, v]) => [k, v]), body });
    } catch (e) {
      const err = e as { code?: string; message?: string };
      requests.push({ line: r.line, error: { code: err.code ?? 'crash', message: err.message ?? String(e) } });
    }
  }
  return {
    file: rel,
    syntax: syntaxFor(text, abs),
    bom: bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf,
    crlf: bytes.includes('\r\n'),
    env: env.name,
    diagnostics: sheet.diagnostics,
    requests,
    runtimeNames: runtimeNames(text, sheet.requests, path.dirname(abs)),
  };
}

/** Whether an `unknown-variable` error names a value the file only gets at run time. */
export function needsRunTime(o: FileOutcome, r: ResolvedOutcome): boolean {
  if (r.error?.code !== 'unknown-variable') return false;
  const ref = /\{\{\s*([\w-]+)/.exec(r.error.message)?.[1];
  return ref !== undefined && o.runtimeNames.has(ref);
}
