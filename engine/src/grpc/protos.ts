/**
 * Service definitions from `.proto` files, through `@grpc/proto-loader` (loaded at first use):
 * httpyac's `proto < ./file.proto` with its option lines (`keepCase: true`, `longs: String`,
 * `includeDirs: ["./protos"]`, ...; proto-loader's options, read by {@link loaderOptions}) and
 * kulala.nvim's `# @grpc-proto FILE` / `# @grpc-import-path DIR`. Relative paths start at the
 * directory of the file that names them (the `.http` file or sheet), the place vscode-httpyac
 * users expected and did not get (vscode-httpyac #88).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Options, PackageDefinition } from '@grpc/proto-loader';
import { EngineError } from '../errors.js';

/** One proto source a request names, as written with its line. */
export interface ProtoSource {
  /** The file as written (relative to `baseDir`, or absolute). */
  file: string;
  line: number;
}

/** A loader option line (`keepCase: true`) as written. */
export interface LoaderOptionLine {
  name: string;
  value: string;
  line: number;
}

/**
 * The defaults: the proto3 JSON mapping (lowerCamelCase names, 64-bit integers and enums as
 * strings, bytes as base64), as grpcurl and JetBrains HTTP Client print messages. Option lines
 * change them.
 */
export const DEFAULT_LOADER_OPTIONS: Options = { keepCase: false, longs: String, enums: String, bytes: String, defaults: false, oneofs: true };

const BOOLEAN_OPTIONS = new Set(['keepCase', 'defaults', 'arrays', 'objects', 'oneofs', 'json', 'alternateCommentMode']);
const TYPE_OPTIONS: Record<string, Record<string, unknown>> = {
  longs: { String, Number },
  enums: { String },
  bytes: { String, Array, Buffer },
};
/** Every option name a line may set (proto-loader's `Options`). */
export const LOADER_OPTION_NAMES = [...BOOLEAN_OPTIONS, ...Object.keys(TYPE_OPTIONS), 'includeDirs'];

/**
 * proto-loader's options from option lines over {@link DEFAULT_LOADER_OPTIONS}.
 * @param importPaths `# @grpc-import-path` directories and `includeDirs` entries are made
 *   absolute against `baseDir`.
 * @throws EngineError `bad-argument` naming the line: an unknown option, a value it does not take.
 */
export function loaderOptions(lines: LoaderOptionLine[], importPaths: ProtoSource[], baseDir: string): Options {
  // The same lines give the same object, so what is kept per options (the loaded protos,
  // reflection's answers) finds it without comparing them again on every call.
  const key = JSON.stringify([baseDir, lines.map((l) => [l.name, l.value]), importPaths.map((p) => p.file)]);
  const hit = optionsKept.get(key);
  if (hit) return hit;
  const o = readOptions(lines, importPaths, baseDir);
  if (optionsKept.size >= KEPT_MAX) optionsKept.clear();
  optionsKept.set(key, o);
  return o;
}

/** How many option sets, and loaded proto sets, are kept before the oldest are dropped (an editor's engine lives long). */
const KEPT_MAX = 64;
const optionsKept = new Map<string, Options>();
const optionKeys = new WeakMap<Options, string>();

/**
 * A key for `o` (the function values by name): what is loaded or reflected with these options
 * is kept under it.
 */
export function optionsKey(o: Options): string {
  let k = optionKeys.get(o);
  if (k === undefined) {
    k = JSON.stringify(Object.entries(o).map(([n, v]) => [n, typeof v === 'function' ? (v as { name: string }).name : v]));
    optionKeys.set(o, k);
  }
  return k;
}

function readOptions(lines: LoaderOptionLine[], importPaths: ProtoSource[], baseDir: string): Options {
  const o: Options = { ...DEFAULT_LOADER_OPTIONS };
  const dirs = importPaths.map((p) => path.resolve(baseDir, p.file));
  for (const l of lines) {
    const v = l.value.trim();
    if (BOOLEAN_OPTIONS.has(l.name)) {
      if (v !== 'true' && v !== 'false') throw new EngineError('bad-argument', `${l.name}: ${v}: the value is true or false`, { line: l.line, hint: `Write ${l.name}: true` });
      (o as Record<string, unknown>)[l.name] = v === 'true';
    } else if (TYPE_OPTIONS[l.name]) {
      const t = TYPE_OPTIONS[l.name]![v];
      if (!t) throw new EngineError('bad-argument', `${l.name}: ${v}: the value is one of ${Object.keys(TYPE_OPTIONS[l.name]!).join(', ')}`, { line: l.line, hint: `Write ${l.name}: String` });
      (o as Record<string, unknown>)[l.name] = t;
    } else if (l.name === 'includeDirs') {
      // httpyac #75: includeDirs must be an array; a single directory or a comma list is read too.
      let list: unknown;
      try {
        list = v.startsWith('[') ? JSON.parse(v) : v.split(',').map((x) => x.trim()).filter((x) => x);
      } catch {
        list = undefined;
      }
      if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) throw new EngineError('bad-argument', `includeDirs: ${v}: not a list of directories`, { line: l.line, hint: 'Write includeDirs: ["./protos", "../shared"] (relative to this file).' });
      dirs.push(...(list as string[]).map((d) => path.resolve(baseDir, d)));
    } else {
      throw new EngineError('bad-argument', `${l.name}: not a proto-loader option`, { line: l.line, hint: `The options are ${LOADER_OPTION_NAMES.join(', ')}.` });
    }
  }
  if (dirs.length) o.includeDirs = dirs;
  return o;
}

const cache = new Map<string, PackageDefinition>();

/** The files of `sources`, made absolute, and the cache key of their set as it is now (one `stat` a file). */
function keptLookup(sources: ProtoSource[], options: Options, baseDir: string): { files: (ProtoSource & { abs: string })[]; key: string; hit: PackageDefinition | undefined } {
  const files = sources.map((s) => Object.assign({}, s, { abs: path.resolve(baseDir, s.file) }));
  let key = optionsKey(options);
  for (const f of files) {
    const st = fs.statSync(f.abs, { throwIfNoEntry: false });
    key += `\n${f.abs}@${st?.mtimeMs}/${st?.ctimeMs}`;
  }
  return { files, key, hit: cache.get(key) };
}

/**
 * {@link loadProtos}'s kept definition of these files as they are now, without waiting (a call
 * of a `sheet run` finds it kept: no await, no promise), or undefined when they must be loaded.
 */
export function keptProtos(sources: ProtoSource[], options: Options, baseDir: string): PackageDefinition | undefined {
  return keptLookup(sources, options, baseDir).hit;
}

/**
 * Load the proto files (each with its imports) into one package definition. Kept per set of
 * files, their modification and change times (an edited or chmod-ed file is read again) and
 * options, so the calls of a `sheet run` parse them once; a call that finds them kept costs one
 * `stat` per named file (an import edited alone is not seen until a named file changes).
 * @throws EngineError `file-unreadable` naming the proto line when a file or an import is
 *   missing; `bad-proto` with the proto's file and line when it does not parse.
 */
export async function loadProtos(sources: ProtoSource[], options: Options, baseDir: string): Promise<PackageDefinition> {
  const { files, key, hit } = keptLookup(sources, options, baseDir);
  if (hit) return hit;
  for (const f of files) {
    try {
      fs.accessSync(f.abs, fs.constants.R_OK);
    } catch {
      throw new EngineError('file-unreadable', `proto file ${f.abs} cannot be read`, { line: f.line, hint: 'Check the path; a relative path starts at the directory of this file.', details: { path: f.abs } });
    }
  }
  const loader = await import('@grpc/proto-loader');
  try {
    const def = await loader.load(files.map((f) => f.abs), options);
    if (cache.size >= KEPT_MAX) cache.clear();
    cache.set(key, def);
    return def;
  } catch (e) {
    const msg = (e as Error).message;
    const first = files[0]!;
    if (/ENOENT|no such file/i.test(msg)) {
      throw new EngineError('file-unreadable', `proto ${first.file}: an import cannot be found: ${msg}`, { line: first.line, hint: 'Add the directory that holds it with includeDirs: ["./dir"] below the proto line, or # @grpc-import-path ./dir.' });
    }
    // protobufjs says `illegal token 'x', ';' expected (line 7)`, without the file when
    // proto-loader hands it the text: the file named is the one that does not parse alone.
    const pb = await import('protobufjs');
    const bad = files.find((f) => {
      try {
        pb.parse(fs.readFileSync(f.abs, 'utf8'), { keepCase: true });
        return false;
      } catch {
        return true;
      }
    }) ?? first;
    const at = /\(line (\d+)\)$/.exec(msg);
    const where = at ? `${bad.abs}, line ${at[1]}` : bad.abs;
    throw new EngineError('bad-proto', `proto ${bad.file} does not parse (${where}): ${msg.replace(/ \(line \d+\)$/, '')}`, { line: bad.line, hint: 'Fix the .proto file at the file and line named (proto3 syntax).', details: { path: bad.abs, ...(at ? { protoLine: Number(at[1]) } : {}) } });
  }
}
