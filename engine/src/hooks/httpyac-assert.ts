/**
 * httpyac's assertion lines in `.http` files (httpyac's guide, "Assert";
 * src/plugins/assert/assertHttpRegionParser.ts): `?? FIELD [VALUE] PREDICATE [EXPECTED]`, e.g.
 *
 * ```
 * ?? status == 200
 * ?? header content-type includes json
 * ?? body == {"id": 1}            ?? body user.name == Ada      (a property path into the JSON body)
 * ?? duration < 500               (ms)
 * ?? js response.parsedBody.items.length > 0
 * ```
 *
 * The fields are httpyac's: `status`, `header NAME`, `body [PATH]`, `duration`, `js EXPRESSION`
 * (JavaScript with `response` in scope: `statusCode`, `statusMessage`, `headers` by lower-case
 * name, `body` (text), `parsedBody` (JSON), `timings.total`). The predicates are httpyac's 19,
 * with its conversion of the expected text to the field's type. `xpath` (httpyac's XML plugin)
 * is not supported: {@link checkHttpyacAssert} names it, so `sheet run` refuses the file rather
 * than pass without it (issue 36 item 1: a suite never passes because an assertion was not seen).
 * A `?? body PATH` that is not a plain property path (`a.b[0]["c"]`), and every `?? js`, is
 * JavaScript: run in `node:vm` with a time limit ({@link JS_TIMEOUT_MS}), and `sheet run
 * --untrusted` refuses it (`isHttpyacCode`).
 */
import vm from 'node:vm';
import { createHash } from 'node:crypto';
import type { HookNode } from '../sheet/ast.js';
import { headerValue } from '../model.js';
import type { Assertion, ExpectContext } from './results.js';

/** The hook name a `?? ...` line gets in the AST (its args: the line after `??`). */
export const HTTPYAC_ASSERT = '??';

/** How long a `?? js` expression may run, in ms. */
export const JS_TIMEOUT_MS = 1000;

type Predicate = { ids: string[]; noConvert?: boolean; match: (value: unknown, expected: unknown) => boolean };

const num = (v: unknown): number | undefined => {
  if (typeof v === 'number') return v;
  const s = str(v);
  if (s === undefined) return undefined;
  const n = Number.parseFloat(s.trim());
  return Number.isNaN(n) ? undefined : n;
};
function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (v) {
    try {
      return JSON.stringify(v);
    } catch {
      return String(v);
    }
  }
  return undefined;
}
const compare = (f: (a: number, b: number) => boolean) => (v: unknown, e: unknown) => {
  const a = num(v);
  const b = num(e);
  return a !== undefined && b !== undefined && f(a, b);
};
const hash = (algo: string) => (v: unknown, e: unknown) => {
  const s = str(v);
  return s !== undefined && createHash(algo).update(s).digest('base64') === e;
};

/** httpyac's predicates (src/plugins/assert/predicates/), longest spelling first within each. */
const PREDICATES: Predicate[] = [
  { ids: ['endsWith'], match: (v, e) => !!str(v) && !!str(e) && str(v)!.endsWith(str(e)!) },
  { ids: ['===', '==', 'equals'], match: (v, e) => (typeof v === 'object' && v !== null ? str(v) === str(e) : v === e) },
  { ids: ['exists', 'isTrue'], match: (v) => !!v },
  { ids: ['>='], match: compare((a, b) => a >= b) },
  { ids: ['>'], match: compare((a, b) => a > b) },
  {
    ids: ['includes', 'contains'],
    match: (v, e) => {
      const a = str(v);
      const b = str(e);
      if (a && b) return a.includes(b);
      return Array.isArray(v) && v.includes(e);
    },
  },
  { ids: ['isArray'], match: (v) => Array.isArray(v) },
  { ids: ['isBoolean'], match: (v) => typeof v === 'boolean' },
  { ids: ['isNumber'], match: (v) => typeof v === 'number' },
  { ids: ['isString'], match: (v) => typeof v === 'string' },
  { ids: ['<='], match: compare((a, b) => a <= b) },
  { ids: ['<'], match: compare((a, b) => a < b) },
  { ids: ['matches'], noConvert: true, match: (v, e) => !!str(v) && !!str(e) && new RegExp(str(e)!, 'u').test(str(v)!) },
  { ids: ['!==', '!=', 'not equals'], match: (v, e) => v !== e },
  { ids: ['startsWith'], match: (v, e) => !!str(v) && !!str(e) && str(v)!.startsWith(str(e)!) },
  { ids: ['sha256'], noConvert: true, match: hash('sha256') },
  { ids: ['md5'], noConvert: true, match: hash('md5') },
  { ids: ['sha512'], noConvert: true, match: hash('sha512') },
  { ids: ['isFalse'], match: (v) => !v },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const IDS = PREDICATES.flatMap((p) => p.ids).sort((a, b) => b.length - a.length);
// httpyac's own pattern: the last predicate word on the line splits value from expected.
const LINE = new RegExp(`^\\s*(?<type>\\S+)(?:\\s+(?<value>.*))?\\s+(?<predicate>${IDS.map(escape).join('|')})\\s*(?<expected>.*?)\\s*$`, 'iu');

/** The fields httpyac reads (`xpath` is its XML plugin's, not supported here). */
const FIELDS = ['status', 'header', 'body', 'duration', 'js'];

/** A `?? ...` line's parts. */
export interface HttpyacAssertForm {
  field: string;
  value?: string;
  predicate: Predicate;
  /** The predicate as written. */
  op: string;
  expected?: string;
}

/** `status == 200` (the text after `??`) -> its parts, or what is wrong with it. */
export function parseHttpyacAssert(args: string): HttpyacAssertForm | string {
  const m = LINE.exec(args);
  if (!m?.groups) return `?? ${args}: not an assertion httpyac reads: write ?? FIELD [VALUE] PREDICATE [EXPECTED], e.g. ?? status == 200`;
  const field = m.groups.type!.toLowerCase();
  if (!FIELDS.includes(field)) {
    return `?? ${args}: the field ${m.groups.type} is not supported (supported: ${FIELDS.join(', ')})`;
  }
  const op = m.groups.predicate!;
  const predicate = PREDICATES.find((p) => p.ids.some((id) => id.toLowerCase() === op.toLowerCase()))!;
  const value = m.groups.value?.trim() || undefined;
  if ((field === 'header' || field === 'js') && !value) return `?? ${args}: ${field} needs ${field === 'header' ? 'a header name: ?? header content-type includes json' : 'an expression: ?? js response.parsedBody.id == 1'}`;
  return { field, ...(value ? { value } : {}), predicate, op, ...(m.groups.expected?.trim() ? { expected: m.groups.expected.trim() } : {}) };
}

/** A plain property path (`user.name`, `items[0].id`, `a["b-c"]`): read without JavaScript. */
const PLAIN_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["[^"\\]*"\]|\['[^'\\]*'\])*$/;

/** Whether a `?? ...` line runs JavaScript (`?? js`, `?? body` with a path that is no plain property path). */
export function isHttpyacCode(args: string): boolean {
  const f = parseHttpyacAssert(args);
  if (typeof f === 'string') return false;
  return f.field === 'js' || (f.field === 'body' && !!f.value && !PLAIN_PATH.test(f.value));
}

/** What is wrong with a `?? ...` hook before anything is sent, or undefined. */
export function checkHttpyacAssert(hook: HookNode): string | undefined {
  const f = parseHttpyacAssert(hook.args);
  if (typeof f === 'string') return f;
  if (f.op === 'matches' && f.expected) {
    try {
      new RegExp(f.expected, 'u');
    } catch (e) {
      return `?? ${hook.args}: ${(e as Error).message}`;
    }
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function walk(root: unknown, path: string): unknown {
  let v: unknown = root;
  for (const m of path.matchAll(/([A-Za-z_$][\w$]*)|\[(\d+)\]|\["([^"]*)"\]|\['([^']*)'\]/g)) {
    if (v === null || v === undefined) return undefined;
    v = (v as Record<string, unknown>)[m[1] ?? m[2] ?? m[3] ?? m[4]!];
  }
  return v;
}

/** httpyac's `response` object, as `?? js` sees it. */
function responseObject(ctx: ExpectContext) {
  const headers: Record<string, string> = {};
  for (const [n, v] of ctx.headers) {
    const k = n.toLowerCase();
    headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
  }
  return { statusCode: ctx.status, statusMessage: ctx.statusText, headers, body: ctx.bodyText, parsedBody: parseJson(ctx.bodyText), timings: { total: ctx.durationMs } };
}

function fieldValue(f: HttpyacAssertForm, ctx: ExpectContext): unknown {
  switch (f.field) {
    case 'status':
      return ctx.status;
    case 'header':
      return headerValue(ctx.headers, f.value!);
    case 'duration':
      return ctx.durationMs;
    case 'body': {
      const parsed = parseJson(ctx.bodyText);
      if (!f.value) return parsed !== undefined && typeof parsed === 'object' ? parsed : ctx.bodyText;
      if (PLAIN_PATH.test(f.value)) return walk(parsed ?? ctx.bodyText, f.value);
      return vm.runInNewContext(`(response.parsedBody || response.body).${f.value}`, { response: responseObject(ctx) }, { timeout: JS_TIMEOUT_MS });
    }
    default:
      return vm.runInNewContext(f.value!, { response: responseObject(ctx) }, { timeout: JS_TIMEOUT_MS });
  }
}

/** httpyac's conversion of the expected text to the type of the field's value (convertToType). */
function convert(target: unknown, e: string | undefined): unknown {
  if (e === undefined) return e;
  if (typeof target === 'number') return num(e);
  if (typeof target === 'boolean') return /^true$/i.test(e.trim()) ? true : /^false$/i.test(e.trim()) ? false : !!e;
  if (typeof target === 'string') return e;
  if (target === null && e === 'null') return null;
  if (target === undefined && e === 'undefined') return undefined;
  if (typeof target === 'object') return parseJson(e) ?? e;
  return e;
}

/**
 * Evaluate one `?? ...` hook against a response.
 * @returns the assertion with `passed` and a `line N: ?? ...: ok (...)` / `failed, got ...`
 *   message; a malformed line, a JavaScript error or time-out is a failed assertion saying so.
 *   Never throws.
 */
export function evaluateHttpyacAssert(hook: HookNode, ctx: ExpectContext): Assertion {
  const at = `line ${hook.line}: ?? ${hook.args}`.trimEnd();
  const base = { line: hook.line, name: hook.name, args: hook.args };
  const f = parseHttpyacAssert(hook.args);
  if (typeof f === 'string') return { ...base, passed: false, message: `line ${hook.line}: ${f}` };
  let value: unknown;
  try {
    value = fieldValue(f, ctx);
  } catch (e) {
    return { ...base, passed: false, message: `${at}: failed: ${(e as Error)?.message ?? String(e)}` };
  }
  let passed: boolean;
  try {
    passed = f.predicate.match(value, f.predicate.noConvert ? f.expected : convert(value, f.expected));
  } catch (e) {
    return { ...base, passed: false, message: `${at}: failed: ${(e as Error).message}` };
  }
  let shown = value === undefined ? 'undefined' : (str(value) ?? String(value));
  if (shown.length > 200) shown = shown.slice(0, 200) + '…';
  const got = `${f.value ?? f.field} ${shown}`;
  return { ...base, passed, message: passed ? `${at}: ok (${got})` : `${at}: failed, got ${got}` };
}
