/**
 * Sheet AST + variables -> a concrete {@link Request}.
 *
 * Variable values come from the declarations above the request (a later declaration wins),
 * then the overrides (set by hooks or by the client) win over those. `:=` forms are evaluated
 * by the client (Emacs) through `evalLisp`, top to bottom; their results may hold references.
 * Substitution applies to the URL, header values, the text body and the values of connection
 * directives (sheet format doc, "Variables", "Connection directives"); a `< path` body is read from disk, binary-safe.
 */
import type { RequestNode, Sheet, VarDecl } from '../sheet/ast.js';
import { varsBefore } from '../sheet/parse.js';
import { EngineError, isEngineError } from '../errors.js';
import { headerValue, type Body, type Header, type Request } from '../model.js';
import { isMultipart, multipartText, partsBody, readBodyFile } from './body-parts.js';
import { DEFAULT_MAX_PASSES, Substitution, type SubstitutionWarning } from './substitute.js';
import { resolveHttpRequest } from './resolve-http.js';
import { graphQlRequest, isGraphQl, isGraphQlWebSocket } from './http-graphql.js';
import { asWrittenTarget, expandPath, normalizeUrl } from './url-path.js';
import type { EvalLisp, LispDecl, ResolvedRequest, ResolveOptions } from './types.js';
import { substitutedDirectives } from '../sheet/connection-tags.js';
import { GRAPHQL_TAG } from '../sheet/parse.js';

// What resolve-http.ts shares with this file lives in url-path.ts and types.ts (no import cycle).
export { asWrittenTarget, expandPath, normalizeUrl };
export type { EvalLisp, LispDecl, ResolvedRequest, ResolveOptions };

/**
 * The values visible so far, each substituted as far as it goes (for {@link LispDecl.vars}, and
 * `sheet/send`'s `vars`: what `sheet-get-var` answers in Emacs). `overrides` win over `values`.
 */
export function visibleVars(values: Map<string, string>, overrides: ReadonlyMap<string, string>, maxPasses: number | undefined): Record<string, string> {
  const visible = new Map(values);
  for (const [k, v] of overrides) visible.set(k, v);
  const sub = new Substitution(visible, maxPasses);
  const out: Record<string, string> = {};
  for (const [k, v] of visible) {
    if (isUnevaluated(v)) continue;
    try {
      out[k] = sub.apply(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}

/**
 * A marker standing for an unevaluated Lisp value on clients without Lisp. It holds NUL, which
 * no sheet text holds, and no colon, so no variable name can match inside it.
 */
const lispMarker = (i: number) => `\u0000lisp${i}\u0000`;

/**
 * The variable values visible to a request: declarations above it, evaluated top to bottom (a
 * later declaration wins), then the overrides, which win over every declaration.
 *
 * Without `evalLisp` (a client without Lisp), a `:=` variable's value is a marker; the
 * request fails with `lisp-unavailable` only if a marker reaches the URL, a header or the body.
 * @throws EngineError `lisp-error` (naming the variable and its line) when the client fails to
 *   evaluate a form.
 */
export async function variableValues(
  decls: VarDecl[],
  opts: ResolveOptions,
): Promise<{ values: Map<string, string>; unevaluated: Map<string, VarDecl> }> {
  const values = new Map<string, string>();
  /** marker -> the declaration it stands for */
  const unevaluated = new Map<string, VarDecl>();
  const overrides = opts.overrides ?? new Map<string, string>();
  for (const d of decls) {
    if (overrides.has(d.name)) continue;
    if (d.kind === 'literal') {
      values.set(d.name, d.value);
    } else if (opts.evalLisp) {
      let v: string;
      try {
        if (opts.signal?.aborted) throw new EngineError('cancelled', `request cancelled while evaluating ${d.name}`, { line: d.line });
        v = await opts.evalLisp(d.value, { name: d.name, line: d.line, vars: visibleVars(values, overrides, opts.maxPasses) }, opts.signal);
      } catch (e) {
        if (isEngineError(e)) throw e;
        const msg = e instanceof Error ? e.message : String(e);
        throw new EngineError('lisp-error', `evaluating ${d.name}: ${msg}`, {
          line: d.line,
          hint: `Fix the Lisp form of ${d.name}; the request was not sent.`,
          details: { variable: d.name },
        });
      }
      values.set(d.name, String(v));
    } else {
      const marker = lispMarker(unevaluated.size);
      values.set(d.name, marker);
      unevaluated.set(marker, d);
    }
  }
  for (const [k, v] of overrides) values.set(k, v);
  return { values, unevaluated };
}

/** Whether a value is (or holds) a Lisp value this client could not evaluate. */
export function isUnevaluated(value: string): boolean {
  return value.includes('\u0000');
}

function checkLisp(text: string, unevaluated: Map<string, VarDecl>): void {
  if (!unevaluated.size || !text.includes('\u0000')) return;
  for (const [marker, d] of unevaluated) {
    if (text.includes(marker)) {
      throw new EngineError('lisp-unavailable', `${d.name} is a Lisp (:=) variable, and this client cannot evaluate Lisp`, {
        line: d.line,
        hint: `Send this request from Emacs (sheet-mode), or declare ${d.name} with = and a literal value.`,
        details: { variable: d.name },
      });
    }
  }
}

/** Parse `Name: value` lines (a variable used as a header block). */
function headerLines(text: string, line: number): Header[] {
  const out: Header[] = [];
  for (const l of text.split(/\r?\n/)) {
    if (!l.trim()) continue;
    const i = l.indexOf(':');
    if (i <= 0) {
      throw new EngineError('bad-header', `not a header line: ${JSON.stringify(l)}`, {
        line,
        hint: 'A variable used as a header block holds lines of the form Name: value.',
      });
    }
    out.push([l.slice(0, i).trim(), l.slice(i + 1).trim()]);
  }
  return out;
}

/**
 * The URL after substitution, validated; when it is invalid and references were left in it,
 * the error says so (a cycle in `:base` makes `:base/x` an invalid URL).
 * @throws EngineError `invalid-url`
 */
function checkedUrl(url: string, line: number, warnings: SubstitutionWarning[], websocket = false): string {
  try {
    return normalizeUrl(url, line, websocket);
  } catch (e) {
    const left = warnings.filter((w) => w.line === line);
    if (!isEngineError(e) || !left.length) throw e;
    throw new EngineError(e.code, `${e.message.replace(/^line \d+: /, '')}; ${left.map((w) => w.message.replace(/^line \d+: /, '')).join('; ')}`, {
      line,
      hint: `Give ${left.flatMap((w) => w.variables).join(', ')} a value without references left (see the sheet format, "Substitution"), or raise the pass limit (sheet-vars-max-passes).`,
      details: { ...e.details, variables: left.flatMap((w) => w.variables) },
    });
  }
}

/**
 * Resolve the request `req` of `sheet` into a concrete request. References still left after
 * the pass limit stay as written and come back in `warnings` (the request is not refused).
 * @throws EngineError: `vars-too-large`, `lisp-error`, `lisp-unavailable`, `invalid-url`,
 *   `file-unreadable`, `bad-header`; each names the line.
 */
export async function resolveRequest(sheet: Sheet, req: RequestNode, opts: ResolveOptions = {}): Promise<ResolvedRequest> {
  if (sheet.syntax === 'http') return resolveHttpRequest(sheet, req, opts, opts.http);
  const { values, unevaluated } = await variableValues(varsBefore(sheet, req), opts);
  const sub = new Substitution(values, opts.maxPasses ?? DEFAULT_MAX_PASSES);
  const warnings: SubstitutionWarning[] = [];
  const apply = (text: string, line: number) => {
    const out = sub.apply(text, line, warnings);
    checkLisp(out, unevaluated);
    return out;
  };

  const written = apply(req.url, req.line).trim();
  // A GraphQL request to a ws:// URL speaks graphql-transport-ws (http-graphql.ts); its headers are read below.
  const graphqlMarked = req.body?.kind === 'text' && req.directives?.some((d) => d.name === GRAPHQL_TAG);
  const graphqlWsUrl = isGraphQlWebSocket(written);
  const url = checkedUrl(written, req.line, warnings, req.websocket || (graphqlWsUrl && (graphqlMarked || req.headers.some((h) => h.kind === 'header' && /^x-request-type$/i.test(h.name)))));
  // Connection directives (`# @proxy :proxy`) as header values: the same pass, the same warnings.
  const directives = substitutedDirectives(req.directives, apply, (t) => sub.references(t));
  const target = asWrittenTarget(req, written, req.line);
  let headers: Header[] = [];
  for (const h of req.headers) {
    if (h.kind === 'header') headers.push([h.name, apply(h.value, h.line)]);
    else {
      if (!values.has(h.name)) {
        throw new EngineError('bad-header', `${h.name} is not a declared variable, so it holds no headers`, {
          line: h.line,
          hint: `Declare ${h.name} above the request (e.g. ${h.name} = <<, then Name: value lines, then #), or remove the line.`,
          details: { variable: h.name },
        });
      }
      headers.push(...headerLines(apply(h.name, h.line), h.line));
    }
  }
  let body: Body | undefined;
  const baseDir = opts.baseDir ?? process.cwd();
  // A multipart body's lines end in CRLF and may hold `< path` parts, as in .http files.
  const multipart = isMultipart(headerValue(headers, 'content-type'));
  const graphqlWs = req.body?.kind === 'text' && (isGraphQl(headers) || !!graphqlMarked) && graphqlWsUrl;
  if (req.body?.kind === 'text' && (isGraphQl(headers) || graphqlMarked)) {
    // A GraphQL query (and its variables block) goes out as JSON: the same rule as `.http`.
    const g = graphQlRequest(headers, apply(req.body.text, req.body.line), req.body.line);
    if (!graphqlWs) headers = g.headers;
    body = { kind: 'text', text: g.body };
  } else if (req.body?.kind === 'text') {
    const text = apply(req.body.text, req.body.line);
    body = { kind: 'text', text: multipart ? multipartText(text) : text };
  } else if (req.body?.kind === 'file') {
    const file = expandPath(apply(req.body.path, req.body.line), baseDir);
    body = { kind: 'bytes', bytes: await readBodyFile(file, req.body.line), path: file };
  } else if (req.body?.kind === 'parts') {
    body = { kind: 'bytes', bytes: await partsBody(req.body.parts, multipart, apply, baseDir) };
  }
  const variables = new Map([...values].filter(([, v]) => !isUnevaluated(v)));
  return { request: { method: graphqlWs ? 'GET' : req.method, url, ...(target !== undefined ? { target } : {}), headers, body, line: req.line, ...(req.websocket || graphqlWs ? { websocket: true } : {}), ...(graphqlWs ? { graphql: true } : {}) }, hooks: req.hooks, variables, warnings, directives };
}
