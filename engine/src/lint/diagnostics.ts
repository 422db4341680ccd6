/**
 * The diagnostics an editor shows while the user types (issue 25 item 4; Emacs's Flymake
 * backend asks `sheet/diagnostics`): the parser's own (unterminated multi-line variables,
 * unknown methods, ...) and the checks below, each with its exact line and column (1-based;
 * columns count code points, as Emacs characters: docs/protocol.md). Pure: the names that
 * count as defined from outside the text (the session's overrides, a `.http` environment) are
 * given by the caller.
 *
 * - undefined variables: in a sheet, a `:name` in a URL, header, body or connection directive value that no declaration
 *   above the request, no override and no `jq-set-var` above defines (restclient.el sends it as
 *   written: a warning); in a `.http` file, a `{{name}}` that no file variable, environment,
 *   override, `# @prompt`, named request or handler `client.global.set` defines (the request
 *   fails with `unknown-variable`: an error);
 * - malformed assertions (`-> expect-*`): the rule `sheet run` refuses a file with
 *   (`../hooks/expect.ts`, `checkExpect`), an error;
 * - unknown hooks: a hook name that is not one of `../hooks/run.ts`'s `HOOK_TYPES` (ignored when
 *   sent: a warning);
 * - a JSON body that does not parse when the Content-Type says JSON (`application/json`,
 *   `+json`), at the position of the JSON error (jsonc-parser, no comments, no trailing comma),
 *   variables standing as values counted as values: an error;
 * - duplicate request names in `.http` files (`# @name x` twice: `{{x.response...}}` reads
 *   the last one sent): a warning on each later one;
 * - connection directives (`# @proxy`, `# @cacert`, ...) the session would refuse: connection.ts.
 */
import { parse as parseJsonc, type ParseError } from 'jsonc-parser/lib/esm/main.js'; // the ESM build, as http-file/environment.ts
import { checkExpect, isExpectHook } from '../hooks/expect.js';
import { HOOK_TYPES } from '../hooks/run.js';
import type { ErrorCode } from '../errors.js';
import { linesOf } from '../sheet/lines.js';
import { splitStreamMessages } from '../sheet/stream-messages.js';
import type { RequestNode, Sheet } from '../sheet/ast.js';
import { codePointColumn, jsonErrorText, lineColumn, templateLines } from './positions.js';
import { connectionLines, connectionProblems, type FileCheck } from './connection.js';

/** One diagnostic: 1-based line and column (code points); `endColumn` exclusive. */
export interface LintDiagnostic {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  code: ErrorCode;
  severity: 'error' | 'warning';
  message: string;
  hint?: string;
}

/** Names defined outside the text, by the caller. */
export interface LintNames {
  /** The session's overrides (sheet-set-var, jq-set-var), names with their colon. */
  overrides?: Iterable<string>;
  /** `.http`: the chosen environment's names. */
  environment?: Iterable<string>;
  /** Whether the files connection directives name can be read (connection.ts); absent: not checked. */
  fileCheck?: FileCheck;
}

const HOOK_NAMES = new Set(HOOK_TYPES.map((h) => h.name));
/** A sheet reference as it reads (restclient.el's names have no colon, `=` or blank). */
const SHEET_REF = /:[A-Za-z_][^\s:=/?&#,;"'(){}[\]<>\\]*/g;
/** What may stand before a sheet reference: not a letter or digit (`host:8080`, `a:b`), not a quote (JSON `"a":true`). */
const NOT_BEFORE = /[\p{L}\p{N}_.\-:"'\\$]/u;

/** A cheap first look: a colon that may start a reference (most lines have none: `Name: value`). */
const MAY_REF = /(?:^|[^A-Za-z0-9_.\-:"'\\$]):[A-Za-z_]/;

/** The `:name` references of a line of sheet text: where each starts, and the text matched. */
function sheetRefs(text: string): { index: number; ref: string }[] {
  if (!MAY_REF.test(text)) return [];
  const out: { index: number; ref: string }[] = [];
  SHEET_REF.lastIndex = 0;
  for (let m = SHEET_REF.exec(text); m; m = SHEET_REF.exec(text)) {
    if (m.index > 0 && NOT_BEFORE.test(text[m.index - 1]!)) continue;
    out.push({ index: m.index, ref: m[0] });
  }
  return out;
}
const HTTP_REF = /\{\{\s*(.*?)\s*\}\}/g;
const JSON_TYPE = /^[ \t]*application\/(?:[\w.+-]+\+)?json[ \t]*(?:;|$)/i;

/** The lines of the text (as the parsers split it), and a diagnostic at a column span of one. */
function at(lines: string[], line: number, from: number, to: number, d: Omit<LintDiagnostic, 'line' | 'column' | 'endLine' | 'endColumn'>): LintDiagnostic {
  const text = lines[line - 1] ?? '';
  // Built field by field: an object spread per diagnostic was most of the time of 5,000.
  const out: LintDiagnostic = { line, column: codePointColumn(text, from), endLine: line, endColumn: codePointColumn(text, Math.max(to, from + 1)), code: d.code, severity: d.severity, message: d.message };
  if (d.hint !== undefined) out.hint = d.hint;
  return out;
}

/** `d` moved down by `lines` lines (up when negative); built field by field, as {@link at}. */
function movedBy(d: LintDiagnostic, lines: number): LintDiagnostic {
  const out: LintDiagnostic = { line: d.line + lines, column: d.column, endLine: d.endLine + lines, endColumn: d.endColumn, code: d.code, severity: d.severity, message: d.message };
  if (d.hint !== undefined) out.hint = d.hint;
  return out;
}

/** A parser diagnostic (a line only): from the first non-blank character to the line's end. */
function wholeLine(lines: string[], d: Sheet['diagnostics'][number]): LintDiagnostic {
  const text = lines[d.line - 1] ?? '';
  const start = text.length - text.trimStart().length;
  return at(lines, d.line, start, Math.max(text.length, start + 1), { code: d.code, severity: d.severity, message: d.message, ...(d.hint ? { hint: d.hint } : {}) });
}

/** What a request's own lines give, whatever stands around them (cached by their text). */
interface Local {
  /** Diagnostics with lines relative to the request's first line. */
  diags: LintDiagnostic[];
  /** Sheet references: line relative to the first, start, the reference, the text up to a blank. */
  refs: { rel: number; index: number; ref: string; word: string }[];
}

/**
 * Every diagnostic of `sheet` (parsed from `text`), in line and column order: as
 * {@link Linter.lint} with no cache.
 * @param names the names defined outside the text (see {@link LintNames}).
 */
export function lintSheet(text: string, sheet: Sheet, names: LintNames = {}): LintDiagnostic[] {
  return new Linter().lint(text, sheet, names);
}

/**
 * {@link lintSheet} for an editor: what each request's own lines give is kept by their text, so
 * after an edit only the edited request is checked again (the rest is a look-up and a shift).
 * Memory: entries for a few times the requests of the text linted.
 */
export class Linter {
  /** By request node: an editor's re-parse keeps the nodes of the requests it did not touch. */
  private byNode = new WeakMap<RequestNode, Local>();
  /** By text, for requests that only moved. */
  private cache = new Map<string, Local>();

  /** The diagnostics of `sheet` (parsed from `text`), in line and column order. */
  lint(text: string, sheet: Sheet, names: LintNames = {}): LintDiagnostic[] {
    const lines = linesOf(text);
    const out: LintDiagnostic[] = sheet.diagnostics.map((d) => wholeLine(lines, d));
    const http = sheet.syntax === 'http';
    const defined = http ? httpDefined(sheet, names) : undefined;
    // Sheets: the names defined above the request at hand, grown request by request.
    const above = new Set<string>(names.overrides ?? []);
    let nextVar = 0;
    const seenNames = new Map<string, number>();
    // Bounded: a few times the requests of the text (edits leave old texts behind).
    if (this.cache.size > 4 * sheet.requests.length + 1000) this.cache.clear();
    for (const req of sheet.requests) {
      for (; nextVar < sheet.vars.length && sheet.vars[nextVar]!.line < req.line; nextVar++) above.add(sheet.vars[nextVar]!.name);
      const first = req.startLine;
      let local = this.byNode.get(req);
      if (!local) {
        const key = (http ? 'h\n' : 's\n') + lines.slice(first - 1, req.endLine).join('\n');
        local = this.cache.get(key) ?? localOf(lines, req, http);
        this.cache.set(key, local);
        this.byNode.set(req, local);
      }
      for (const d of local.diags) out.push(movedBy(d, first));
      // The directives stand above the block (sheets): checked outside the cache of its lines.
      connectionProblems(req, names.fileCheck, (line, severity, code, message, hint) => {
        const text = lines[line - 1] ?? '';
        out.push(at(lines, line, text.indexOf('@'), text.length, { code, severity, message, hint }));
      }, http ? (v) => v.includes('{{') : (v) => [...above].some((n) => v.includes(n)));
      // References in connection directive values count as a header's (outside the cache too).
      if (http) undefinedHttp(lines, [...templateLines(req), ...connectionLines(req)], defined!, out);
      else undefinedSheet(lines, first, [...local.refs, ...refsOf(lines, connectionLines(req), first)], above, out);
      if (http && req.name) {
        const seen = seenNames.get(req.name);
        if (seen !== undefined) {
          const d = req.directives?.find((x) => x.name === 'name');
          const line = d?.line ?? req.line;
          const col = Math.max(0, (lines[line - 1] ?? '').indexOf(req.name));
          out.push(at(lines, line, col, col + req.name.length, { code: 'bad-argument', severity: 'warning', message: `duplicate request name ${req.name} (also line ${seen})`, hint: `{{${req.name}.response...}} reads the last one sent; give each request its own name.` }));
        } else seenNames.set(req.name, req.line);
      }
      for (const h of req.hooks) {
        if (h.name === 'jq-set-var') above.add(h.args.split(/\s+/)[0] ?? '');
        if (h.name === 'run-hook') for (const m of h.args.matchAll(/:[^\s:="')]+/g)) above.add(m[0]);
      }
    }
    return out.sort((a, b) => a.line - b.line || a.column - b.column);
  }
}

/** The checks of a request's own lines: hooks, the JSON body, and its sheet references. */
function localOf(lines: string[], req: RequestNode, http: boolean): Local {
  const diags: LintDiagnostic[] = [];
  for (const h of req.hooks) hookProblems(lines, h, diags);
  jsonBody(lines, req, http, diags);
  const first = req.startLine;
  return { diags: diags.map((d) => movedBy(d, -first)), refs: http ? [] : refsOf(lines, templateLines(req), first) };
}

/** Sheets: the `:name` references of lines `ns`, relative to line `first`. */
function refsOf(lines: string[], ns: number[], first: number): Local['refs'] {
  const refs: Local['refs'] = [];
  for (const n of ns) {
    const text = lines[n - 1] ?? '';
    for (const { index, ref } of sheetRefs(text)) refs.push({ rel: n - first, index, ref, word: /^\S*/.exec(text.slice(index, index + 512))![0] });
  }
  return refs;
}

/** Sheets: `:name` references no defined name matches at their position (restclient.el's plain-text match). */
function undefinedSheet(lines: string[], first: number, refs: Local['refs'], names: ReadonlySet<string>, out: LintDiagnostic[]): void {
  for (const { rel, index: i, ref, word } of refs) {
    // Any defined name that starts here (`:base` of `:base-url` too): the text up to a blank.
    let known = names.has(ref);
    for (let k = word.length; k >= 2 && !known; k--) known = names.has(word.slice(0, k));
    if (known) continue;
    out.push(at(lines, first + rel, i, i + ref.length, { code: 'unknown-variable', severity: 'warning', message: `${ref} is not a declared variable; it is sent as written`, hint: `Declare it above the request (${ref} = value), or set it with a hook (-> jq-set-var ${ref} .field) in a request above.` }));
  }
}

/** `.http`: the names `{{name}}` may use without an error. */
function httpDefined(sheet: Sheet, names: LintNames): Set<string> {
  const out = new Set<string>([...sheet.vars.map((v) => v.name), ...(names.environment ?? []), ...[...(names.overrides ?? [])].map((n) => n.replace(/^:/, ''))]);
  for (const r of sheet.requests) {
    if (r.name) out.add(r.name);
    for (const d of r.directives ?? []) if (d.name === 'prompt') out.add(d.value.split(/\s+/)[0] ?? '');
    for (const h of [...(r.handlers ?? []), ...(r.preScripts ?? [])]) {
      // A script sets names at run time: client.global.set("x", ...), request.variables.set("x", ...).
      if (h.kind === 'inline') for (const m of h.source.matchAll(/\.set\(\s*["'`]([^"'`]+)["'`]/g)) out.add(m[1]!);
      else return new Set(['*']); // a handler file may set anything: no undefined-variable check
    }
  }
  return out;
}

/** `.http`: `{{name}}` references that nothing defines. */
function undefinedHttp(lines: string[], lineNumbers: number[], defined: Set<string>, out: LintDiagnostic[]): void {
  if (defined.has('*')) return;
  for (const n of lineNumbers) {
    const text = lines[n - 1] ?? '';
    if (!text.includes('{{')) continue;
    for (const m of text.matchAll(HTTP_REF)) {
      const expr = m[1]!;
      const name = expr.split(/[.\s]/)[0]!;
      if (expr.startsWith('$') || defined.has(expr) || defined.has(name)) continue;
      out.push(at(lines, n, m.index!, m.index! + m[0].length, { code: 'unknown-variable', severity: 'error', message: `{{${expr}}} is not defined`, hint: `Declare it (@${name} = value), put it in the chosen environment (http-client.env.json or rest-client.environmentVariables), or name a request # @name ${name}.` }));
    }
  }
}

/** Malformed assertions (`checkExpect`, the rule of `sheet run`) and unknown hooks. */
function hookProblems(lines: string[], h: RequestNode['hooks'][number], out: LintDiagnostic[]): void {
  const text = lines[h.line - 1] ?? '';
  const nameAt = text.indexOf(h.name);
  if (!HOOK_NAMES.has(h.name) && !isExpectHook(h.name)) {
    out.push(at(lines, h.line, nameAt, nameAt + h.name.length, { code: 'unknown-hook', severity: 'warning', message: `unknown hook ${h.name}; it is ignored`, hint: `Use one of ${[...HOOK_NAMES].join(', ')}.` }));
    return;
  }
  if (!isExpectHook(h.name)) return;
  const problem = checkExpect(h);
  if (!problem) return;
  const argsAt = h.args ? text.indexOf(h.args.split('\n')[0]!, nameAt + h.name.length) : -1;
  const [from, to] = argsAt >= 0 && (HOOK_NAMES.has(h.name) || h.name === '??') ? [argsAt, text.length] : [nameAt, nameAt + h.name.length];
  out.push(at(lines, h.line, from, to, { code: 'bad-argument', severity: 'error', message: problem, hint: 'Fix the assertion (docs/sheet-format.md, "Assertions"); sheet run refuses the file until then.' }));
}

/**
 * A JSON body (by its Content-Type) that does not parse: the first error, where it is. A
 * WebSocket or gRPC body is several messages between JetBrains' `===` lines
 * (sheet/stream-messages.ts): each message is checked alone, the first error of each reported.
 */
function jsonBody(lines: string[], req: RequestNode, http: boolean, out: LintDiagnostic[]): void {
  const body = req.body;
  if (body?.kind !== 'text') return;
  const type = req.headers.find((h) => h.kind === 'header' && /^content-type$/i.test(h.name));
  if (!type || type.kind !== 'header' || !JSON_TYPE.test(type.value)) return;
  if (req.headers.some((h) => h.kind === 'header' && /^x-request-type$/i.test(h.name) && /graphql/i.test(h.value))) return;
  const messages = req.websocket || req.grpc ? splitStreamMessages(body.text, body.line) : [{ kind: 'send' as const, text: body.text, line: body.line }];
  for (const m of messages) if (m.kind === 'send') jsonText(lines, m.text, m.line, http, type.value, out);
}

/** {@link jsonBody} for one JSON text whose first line is the file's line `first` (1-based). */
function jsonText(lines: string[], source: string, first: number, http: boolean, contentType: string, out: LintDiagnostic[]): void {
  // A reference stands for a value: blank it to a same-length `0`, so positions stay.
  const blank = (s: string) => '0' + ' '.repeat(Math.max(0, s.length - 1));
  const text = http
    ? source.replace(HTTP_REF, blank)
    : !MAY_REF.test(source)
      ? source
      : source
          .split('\n')
          .map((l) => {
            let o = l;
            for (const { index, ref } of sheetRefs(l)) o = o.slice(0, index) + blank(ref) + o.slice(index + ref.length);
            return o;
          })
          .join('\n');
  try {
    JSON.parse(text); // the native parser first: almost every body parses
    return;
  } catch {
    // find where with jsonc-parser, which reports the position
  }
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const e = errors[0];
  if (!e) return;
  const { line, column } = lineColumn(text, e.offset);
  const n = first + line - 1;
  const from = [...(lines[n - 1] ?? '')].slice(0, column - 1).join('').length;
  out.push(at(lines, n, from, from + Math.max(1, e.length), { code: 'bad-argument', severity: 'error', message: `the JSON body does not parse: ${jsonErrorText(e.error)}`, hint: `The Content-Type says JSON (${contentType.trim()}); fix the body, or change the Content-Type.` }));
}
