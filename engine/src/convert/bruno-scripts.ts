/**
 * Bruno scripts, tests, `assert` blocks and `vars:post-response` -> JetBrains HTTP Client
 * handler JavaScript, for the mechanical subset only (issue 42 item 2; docs/import.md, "Bruno").
 *
 * Scripts and tests: Bruno's names are first written as the Postman names they stand for, then
 * converted by the Postman mapping (`postman-scripts.ts`, one home for the `pm.*` subset):
 *
 * | Bruno | as | `.http` handler |
 * |---|---|---|
 * | `bru.setEnvVar(n, v)`, `bru.setVar`, `bru.setGlobalEnvVar` | `pm.environment.set`, ... | `client.global.set(n, v)` |
 * | `bru.deleteVar(n)`, `bru.deleteEnvVar(n)` | `pm.variables.unset`, ... | `client.global.clear(n)` |
 * | `test(name, function () {` | `pm.test(` | `client.test(name, function () {` |
 * | `expect(a).to.equal(b)`, `.to.eql(b)` | `pm.expect(...)` | `client.assert(a === b, ...)` |
 * | `res.status`, `res.getStatus()` | `pm.response.code` | `response.status` |
 * | `res.body`, `res.getBody()` | `pm.response.json()` | `response.body` |
 *
 * A script with anything else (`bru.getVar`, `req.setHeader`, `res.getHeader`, chai chains
 * other than those, `require`, ...) is not converted at all and is kept as comment lines, with
 * a warning naming its first line that did not convert.
 *
 * Assertions (`res.status: eq 200`, `res.body.name: isString`): the left side `res.status`,
 * `res.body...` or `res.headers.NAME`, the operators of Bruno's assert runtime
 * (packages/bruno-js/src/runtime/assert-runtime.js) that have a plain JavaScript form; the value
 * as Bruno reads it (a number, `true`/`false`/`null`/`undefined`, a quoted or bare string).
 */
import { convertScript, type ScriptConversion } from './postman-scripts.js';

/** Bruno script names -> the Postman names of the same meaning (then `convertScript`). */
const TO_POSTMAN: [RegExp, string][] = [
  [/\bbru\.setEnvVar\(/g, 'pm.environment.set('],
  [/\bbru\.setGlobalEnvVar\(/g, 'pm.globals.set('],
  [/\bbru\.setVar\(/g, 'pm.variables.set('],
  [/\bbru\.deleteEnvVar\(/g, 'pm.environment.unset('],
  [/\bbru\.deleteVar\(/g, 'pm.variables.unset('],
  [/\bres\.getStatus\(\)/g, 'pm.response.code'],
  [/\bres\.status\b(?!\()/g, 'pm.response.code'],
  [/\bres\.getBody\(\)/g, 'pm.response.json()'],
  [/\bres\.body\b(?!\()/g, 'pm.response.json()'],
  [/(^|[^.\w$])test\(/g, '$1pm.test('],
  [/(^|[^.\w$])expect\(/g, '$1pm.expect('],
];

/**
 * A Bruno script, test block or post-response script (its text) as handler JavaScript, or the
 * first line (1-based) that is outside the subset.
 */
export function convertBrunoScript(text: string): ScriptConversion {
  const lines = text.split(/\r?\n/);
  const translated: string[] = [];
  for (const [i, line] of lines.entries()) {
    let t = line;
    for (const [re, to] of TO_POSTMAN) t = t.replace(re, to);
    // What Bruno's names leave after the mapping (bru.getVar, req.*, res.getHeader...) is not carried.
    const code = t.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
    if (!/^\s*\/\//.test(t) && /\b(bru|req|res)\b\s*[.([]/.test(code)) return { failed: { line: i + 1, text: line.trim() } };
    translated.push(t);
  }
  const c = convertScript(translated);
  if (c.failed) return { failed: { line: c.failed.line, text: lines[c.failed.line - 1]!.trim() } };
  // Only the assertions' messages still hold Postman names (the code is converted): Bruno's again.
  return { js: c.js!.replace(/\bpm\.response\.code\b/g, 'res.status').replace(/\bpm\.response\.json\(\)/g, 'res.body') };
}

/** `res.status`, `res.body.a.b[0]`, `res.headers.name` -> the handler's expression, or undefined. */
export function responseExpr(lhs: string): string | undefined {
  const s = lhs.trim();
  if (/^res\.(status|getStatus\(\))$/.test(s)) return 'response.status';
  const body = /^res\.(?:body|getBody\(\))((?:\.[A-Za-z_$][\w$]*(?:\(\))?|\[(?:\d+|"[^"]*"|'[^']*')\])*)$/.exec(s);
  if (body) return `response.body${body[1]}`;
  const header = /^res\.headers(?:\.([A-Za-z0-9_-]+)|\[["']([^"']+)["']\])$/.exec(s);
  if (header) return `response.headers.valueOf(${JSON.stringify((header[1] ?? header[2])!)})`;
  return undefined;
}

/**
 * An assertion's value as Bruno's assert runtime reads it, as a JavaScript literal: bruno-js's
 * `evaluateJsTemplateLiteral` (src/utils.js): `true`, `false`, `null`, `undefined`; a quoted
 * string; then whatever `Number()` reads (`9.876e-12`, `-1.5`, `0x10`) is that number unless it
 * is past `Number.MAX_SAFE_INTEGER` (then the text, as Bruno keeps it); else the text.
 */
function literal(raw: string): string {
  const v = raw.trim();
  if (v === '') return '""';
  if (/^(true|false|null|undefined)$/.test(v)) return v;
  const q = /^(["'])(.*)\1$/s.exec(v);
  if (q) return JSON.stringify(q[2]!);
  const n = Number(v);
  if (!Number.isNaN(n) && !(n > Number.MAX_SAFE_INTEGER)) return String(n);
  return JSON.stringify(v);
}

/** Operators with a plain JavaScript form: `a` the left side, `b` the value's literal. */
const OPERATORS: Record<string, (a: string, b: string) => string> = {
  eq: (a, b) => `${a} === ${b}`,
  neq: (a, b) => `${a} !== ${b}`,
  gt: (a, b) => `${a} > ${b}`,
  gte: (a, b) => `${a} >= ${b}`,
  lt: (a, b) => `${a} < ${b}`,
  lte: (a, b) => `${a} <= ${b}`,
  contains: (a, b) => `String(typeof ${a} === "object" ? JSON.stringify(${a}) : ${a}).includes(${b})`,
  notContains: (a, b) => `!String(typeof ${a} === "object" ? JSON.stringify(${a}) : ${a}).includes(${b})`,
  startsWith: (a, b) => `String(${a}).startsWith(${b})`,
  endsWith: (a, b) => `String(${a}).endsWith(${b})`,
  length: (a, b) => `${a} != null && ${a}.length === ${b}`,
  isString: (a) => `typeof ${a} === "string"`,
  isNumber: (a) => `typeof ${a} === "number"`,
  isBoolean: (a) => `typeof ${a} === "boolean"`,
  isNull: (a) => `${a} === null`,
  isUndefined: (a) => `${a} === undefined`,
  isDefined: (a) => `${a} !== undefined`,
  isTruthy: (a) => `!!${a}`,
  isFalsy: (a) => `!${a}`,
  isJson: (a) => `typeof ${a} === "object" && ${a} !== null`,
  isArray: (a) => `Array.isArray(${a})`,
  isEmpty: (a) => `(${a} == null || ${a}.length === 0 || (typeof ${a} === "object" && Object.keys(${a}).length === 0))`,
  isNotEmpty: (a) => `!(${a} == null || ${a}.length === 0 || (typeof ${a} === "object" && Object.keys(${a}).length === 0))`,
};
/** Bruno's other operators: no one-line JavaScript form here (a warning instead). */
const UNCARRIED = new Set(['in', 'notIn', 'matches', 'notMatches', 'between']);
const NO_VALUE = new Set(['isString', 'isNumber', 'isBoolean', 'isNull', 'isUndefined', 'isDefined', 'isTruthy', 'isFalsy', 'isJson', 'isArray', 'isEmpty', 'isNotEmpty']);

/**
 * One `assert` line (`res.status: eq 200`; without an operator Bruno reads `eq`) as a
 * `client.test` of the handler, or undefined when its left side or operator has no form here
 * (`res.responseTime`, `matches`, `between`, `in`, ...).
 */
export function convertAssertion(name: string, value: string): string | undefined {
  const a = responseExpr(name);
  if (!a) return undefined;
  const m = /^(\w+)(?:\s+(.*))?$/s.exec(value.trim());
  let op = m?.[1] ?? '';
  let rhs = m?.[2] ?? '';
  if (!OPERATORS[op]) {
    // `res.status: 200`: Bruno's default operator is eq with the whole value.
    if (UNCARRIED.has(op)) return undefined;
    op = 'eq';
    rhs = value;
  }
  if (!NO_VALUE.has(op) && !rhs.trim()) return undefined;
  const label = `${name}: ${value}`;
  return `client.test(${JSON.stringify(label)}, function () { client.assert(${OPERATORS[op]!(a, literal(rhs))}, ${JSON.stringify(`assert ${label}`)}); });`;
}
