/**
 * Postman scripts (`pm.*`, and the legacy `tests[...]` / `responseCode`) -> JetBrains HTTP
 * Client handler JavaScript, for the mechanical subset only (issue 42 item 2):
 *
 * | Postman | JetBrains (docs/http-files.md, "Response handlers") |
 * |---|---|
 * | `pm.environment.set(n, v)`, `pm.collectionVariables.set`, `pm.globals.set`, `pm.variables.set` | `client.global.set(n, v)` |
 * | `pm.environment.unset(n)` (and the others' `unset`) | `client.global.clear(n)` |
 * | `pm.test(name, function () {` | `client.test(name, function () {` |
 * | `pm.expect(a).to.equal(b)`, `.to.eql(b)`, `.to.be.equal(b)` | `client.assert(a === b, ...)` (`eql`: by `JSON.stringify`) |
 * | `pm.response.to.have.status(n)` | `client.assert(response.status === n, ...)` |
 * | `pm.response.to.be.ok`, `.to.be.success` | `client.assert(response.status >= 200 && response.status < 300, ...)` |
 * | `pm.response.json()`, `pm.response.code`, `responseCode.code` | `response.body`, `response.status` |
 * | `tests["name"] = expr;` | `client.test("name", function () { client.assert(expr, "name"); });` |
 *
 * A script with anything else (`pm.sendRequest`, `pm.request`, `pm.variables.get`, chai chains
 * other than those, `postman.setNextRequest`, ...) is not converted at all: running half of it
 * could send wrong requests. It is kept as comment lines, with a warning naming its first
 * line that did not convert.
 */

export interface ScriptConversion {
  /** The JetBrains handler text, when every line converted. */
  js?: string;
  /** Otherwise: the first line (1-based in the script) that did not, and its text. */
  failed?: { line: number; text: string };
}

const SET = /\bpm\.(?:environment|collectionVariables|globals|variables)\.set\(/g;
const UNSET = /\bpm\.(?:environment|collectionVariables|globals|variables)\.unset\(/g;

/** `pm.expect(A).to.equal(B);` with balanced parentheses: [A, op, B] or undefined. */
function expectParts(line: string): { a: string; op: 'equal' | 'eql'; b: string; indent: string } | undefined {
  const m = /^(\s*)pm\.expect\(/.exec(line);
  if (!m) return undefined;
  let depth = 1;
  let i = m[0].length;
  let quote = '';
  for (; i < line.length && depth; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  if (depth) return undefined;
  const a = line.slice(m[0].length, i - 1);
  const rest = /^\.to\.(?:be\.)?(equal|eql|eq|equals)\((.*)\);?\s*$/.exec(line.slice(i));
  if (!rest) return undefined;
  return { a, op: rest[1] === 'eql' ? 'eql' : 'equal', b: rest[2]!, indent: m[1]! };
}

const jsString = (s: string) => JSON.stringify(s);

/** One line converted, or undefined when it holds something outside the subset. */
function convertLine(line: string): string | undefined {
  const e = expectParts(line);
  if (e) {
    const a = convertExpr(e.a);
    const b = convertExpr(e.b);
    if (a === undefined || b === undefined) return undefined;
    const cond = e.op === 'eql' ? `JSON.stringify(${a}) === JSON.stringify(${b})` : `${a} === ${b}`;
    return `${e.indent}client.assert(${cond}, ${jsString(`expected ${e.a} to ${e.op} ${e.b}`)});`;
  }
  const status = /^(\s*)pm\.response\.to\.(?:have\.status|be\.status)\((\d{3})\);?\s*$/.exec(line);
  if (status) return `${status[1]}client.assert(response.status === ${status[2]}, ${jsString(`expected status ${status[2]}`)});`;
  const ok = /^(\s*)pm\.response\.to\.be\.(ok|success)\b;?\s*$/.exec(line);
  if (ok) return `${ok[1]}client.assert(response.status >= 200 && response.status < 300, "expected a 2xx status");`;
  const legacy = /^(\s*)tests\[(["'])(.*?)\2\]\s*=\s*(.*?);?\s*$/.exec(line);
  if (legacy) {
    const expr = convertExpr(legacy[4]!);
    if (expr === undefined) return undefined;
    return `${legacy[1]}client.test(${jsString(legacy[3]!)}, function () { client.assert(${expr}, ${jsString(legacy[3]!)}); });`;
  }
  return convertExpr(line);
}

/** An expression or statement with the mapped names replaced; undefined when `pm.` remains. */
function convertExpr(s: string): string | undefined {
  const out = s
    .replace(SET, 'client.global.set(')
    .replace(UNSET, 'client.global.clear(')
    .replace(/\bpm\.test\(/g, 'client.test(')
    .replace(/\bpm\.response\.json\(\)/g, 'response.body')
    .replace(/\bpm\.response\.(?:code|status)\b(?!\()/g, 'response.status')
    .replace(/\bresponseCode\.code\b/g, 'response.status');
  const code = out.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
  if (/\b(pm|postman|responseBody|responseHeaders|responseTime|request|environment|globals|iteration|cheerio|xml2Json|tv4|CryptoJS|require)\b\s*[.([]/.test(code.replace(/client\.global|response\.(body|status)/g, ''))) return undefined;
  if (/\bpm\b|\bpostman\b/.test(code)) return undefined;
  return out;
}

/**
 * The lines of a Postman script (`exec`, joined) as a JetBrains handler or pre-request script.
 * Blank lines and `//` comments pass; every other line must convert.
 */
export function convertScript(lines: string[]): ScriptConversion {
  const out: string[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\s+$/, '');
    if (!line.trim() || /^\s*\/\//.test(line) || /^\s*\}\);?\s*$/.test(line)) {
      out.push(line);
      continue;
    }
    const c = convertLine(line);
    if (c === undefined) return { failed: { line: i + 1, text: line.trim() } };
    out.push(c);
  }
  return { js: out.join('\n') };
}
