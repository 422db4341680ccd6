/**
 * `.sheet` <-> `.http` conversion (for `sheet convert`). Pure: text in, text and problems out.
 * Whatever has no equivalent in the target syntax is never dropped silently: it is named in
 * `problems` with its line in the source (and, where a comment can hold it, kept as a comment
 * in the output). Callers show every problem. The table of what converts: docs/http-files.md
 * "Converting".
 */
import { GRPC_DIRECTIVES } from '../sheet/grpc-lines.js';
import { AS_WRITTEN_TAG } from '../url/as-written.js';
import { parseHttpyacAssert } from '../hooks/httpyac-assert.js';
import { CONNECTION_TAGS, connectionTagName } from '../sheet/connection-tags.js';
import { isMultipart } from '../sheet/body-parts.js';
import type { RequestNode, Sheet } from '../sheet/ast.js';
import { AUTH_TAG, GRAPHQL_TAG, parseSheet, splitLines } from '../sheet/parse.js';
import { parseHttpFile } from '../http-file/parse.js';

export interface ConvertProblem {
  /** 1-based line in the source text. */
  line: number;
  /** The construct, as written in the source syntax (e.g. `:token := (...)`, `{{$guid}}`). */
  construct: string;
  message: string;
}

export interface ConvertResult {
  text: string;
  problems: ConvertProblem[];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Diagnostics of the source as problems (a request that did not parse is not converted). */
function parseProblems(sheet: Sheet): ConvertProblem[] {
  return sheet.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ line: d.line, construct: d.code, message: `not converted: ${d.message}` }));
}

/**
 * A restclient sheet as a `.http` file: `:name = value` -> `@name = value`, `:name` references
 * -> `{{name}}`, one `###` before each request, comments kept.
 * Not convertible (named in `problems`): `:=` Lisp variables, multi-line `<<` variables, `:name`
 * header-block lines, `->` hooks.
 */
export function sheetToHttp(text: string): ConvertResult {
  const sheet = parseSheet(text);
  const lines = splitLines(text);
  const problems = parseProblems(sheet);
  const names = [...new Set(sheet.vars.map((v) => v.name))].sort((a, b) => b.length - a.length);
  const re = names.length ? new RegExp(names.map(escapeRe).join('|'), 'g') : undefined;
  const refs = (t: string) => (re ? t.replace(re, (m) => `{{${m.slice(1)}}}`) : t);
  const out: string[] = [];
  // Comment lines wait for the next `###`: after a request they would be read as its body.
  let pending: string[] = [];
  const inRequest = new Set<number>();
  for (const r of sheet.requests) for (let l = r.line; l <= Math.max(r.line, r.body && 'endLine' in r.body ? r.body.endLine : r.body?.line ?? r.line, ...r.headers.map((h) => h.line), ...r.hooks.map((h) => h.endLine)); l++) inRequest.add(l);
  const declLines = new Map(sheet.vars.map((v) => [v.line, v]));
  const reqAt = new Map(sheet.requests.map((r) => [r.line, r]));
  // `# @graphql` and `# @auth ID` become headers of the request (requestToHttp).
  const graphqlTags = new Set(sheet.requests.flatMap((r) => (r.directives ?? []).filter((d) => d.name === GRAPHQL_TAG || d.name === AUTH_TAG).map((d) => d.line)));
  for (let i = 1; i <= lines.length; i++) {
    const v = declLines.get(i);
    if (v) {
      if (v.kind === 'lisp') problems.push({ line: v.line, construct: `${v.name} := ${v.value.split('\n')[0]}`, message: '.http files have no Lisp variables; give the variable a literal value or put it in an environment' });
      else if (v.multiline) problems.push({ line: v.line, construct: `${v.name} = <<`, message: '.http file variables hold one line; multi-line values are not converted' });
      else pending.push(`@${v.name.slice(1)} = ${refs(v.value)}`);
      if (v.kind === 'lisp' || v.multiline) pending.push(`# not converted (line ${v.line}): ${lines[v.line - 1]}`);
      i = v.endLine;
      continue;
    }
    const r = reqAt.get(i);
    if (r) {
      out.push('###', ...pending, ...requestToHttp(r, refs, problems));
      pending = [];
      continue;
    }
    if (inRequest.has(i) || graphqlTags.has(i)) continue;
    // A line holding only `#` separates sheet requests; `###` does that in .http.
    if (/^#[ \t]*$/.test(lines[i - 1]!)) continue;
    // A connection directive's value is substituted as a header's (sheet/connection-tags.ts): `:name` -> `{{name}}`.
    const tag = /^(?:#|\/\/)\s*@([\w-]+)/.exec(lines[i - 1]!);
    pending.push(tag && connectionTagName(tag[1]!) ? refs(lines[i - 1]!) : lines[i - 1]!);
  }
  if (pending.length) out.push('###', ...pending);
  return { text: out.join('\n') + '\n', problems };
}

function requestToHttp(r: RequestNode, refs: (t: string) => string, problems: ConvertProblem[]): string[] {
  // `HTTP/2` on the line (curl's --http2) is JetBrains' form too; other versions are dropped.
  // A WebSocket request keeps its line's word (websocket-line.ts): its method is the handshake's GET.
  const out = [`${r.websocket ? 'WEBSOCKET' : r.method} ${refs(r.url)}${r.httpVersion === 'HTTP/2' ? ' HTTP/2' : ''}`];
  for (const h of r.headers) {
    if (h.kind === 'header') out.push(`${h.name}: ${refs(h.value)}`);
    else {
      problems.push({ line: h.line, construct: h.name, message: 'a header block held in a variable has no .http equivalent; write its headers out' });
      out.push(`# not converted (line ${h.line}): ${h.name}`);
    }
  }
  // A sheet's `# @graphql`: VS Code REST Client's and httpyac's GraphQL mark.
  if (r.directives?.some((d) => d.name === GRAPHQL_TAG)) out.push('X-REQUEST-TYPE: GraphQL');
  // A sheet's `# @auth ID` is what `{{$auth.token("ID")}}` is in a .http file (docs/sheet-format.md,
  // "Token auth"); as when sent, a request that writes its own Authorization keeps it.
  const auth = r.directives?.find((d) => d.name === AUTH_TAG);
  if (auth && !r.headers.some((h) => h.kind === 'header' && /^authorization$/i.test(h.name))) out.push(`Authorization: Bearer {{$auth.token("${auth.value}")}}`);
  for (const h of r.hooks) {
    problems.push({ line: h.line, construct: `-> ${h.name} ${h.args}`.trim(), message: 'hooks have no .http equivalent here; rewrite it as a response handler (> {% ... %})' });
    out.push(`# not converted (line ${h.line}): -> ${h.name} ${h.args}`.trimEnd());
  }
  if (r.body?.kind === 'text') out.push('', refs(r.body.text));
  else if (r.body?.kind === 'file') out.push('', `< ${r.body.path}`);
  out.push('');
  return out;
}

/** A regular expression matching `s` literally. */
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An httpyac `??` assertion (its text after `??`) as a sheet assertion line, when one says the
 * same: `status == N`, `header NAME exists|includes V|== V`, `body includes V`, `duration < N`
 * (and `<=`, `>`, `>=`); undefined for the others.
 */
function expectFor(args: string): string | undefined {
  const f = parseHttpyacAssert(args);
  if (typeof f === 'string') return undefined;
  const op = f.op.toLowerCase();
  if (f.field === 'status' && ['==', '===', 'equals'].includes(op) && /^\d{3}$/.test(f.expected ?? '')) return `-> expect-status ${f.expected}`;
  if (f.field === 'header' && ['exists', 'istrue'].includes(op)) return `-> expect-header ${f.value}`;
  if (f.field === 'header' && ['includes', 'contains'].includes(op) && f.expected) return `-> expect-header ${f.value} ${literal(f.expected)}`;
  if (f.field === 'header' && ['==', '===', 'equals'].includes(op) && f.expected) return `-> expect-header ${f.value} ^${literal(f.expected)}$`;
  if (f.field === 'body' && !f.value && ['includes', 'contains'].includes(op) && f.expected) return `-> expect-body ${literal(f.expected)}`;
  if (f.field === 'duration' && !f.value && ['<', '<=', '>', '>='].includes(op) && /^\d+$/.test(f.expected ?? '')) return `-> expect-time ${op} ${f.expected}`;
  return undefined;
}

/** A `.http` header value that is a sheet's `# @auth ID`: `Bearer {{$auth.token("ID")}}` (one word ID). */
const BEARER_TOKEN = /^Bearer[ \t]+\{\{\s*\$auth\.token\(\s*"([^"\s]+)"\s*\)\s*\}\}[ \t]*$/;

/**
 * A `.http` file as a restclient sheet: `@name = value` -> `:name = value`, `{{name}}` ->
 * `:name`, `# @name` kept as a comment.
 * Not convertible (named in `problems`): system variables (`{{$guid}}`...), request variables
 * (`{{login.response...}}`), names defined by no file variable (environment variables),
 * `# @no-redirect` / `# @no-cookie-jar` / `# @prompt`, response handlers, pre-request scripts, `<@` bodies,
 * `< path` parts outside a multipart body, body lines starting with `#` (a comment in a sheet).
 * A multipart body with `< path` parts is converted: sheets read the same form.
 */
export function httpToSheet(text: string): ConvertResult {
  const sheet = parseHttpFile(text);
  const problems = parseProblems(sheet);
  const declared = new Set(sheet.vars.map((v) => v.name));
  const refs = (t: string, line: number) =>
    t.replace(/\{\{\s*(.*?)\s*\}\}/g, (all, name: string) => {
      if (declared.has(name)) return `:${name}`;
      const what = name.startsWith('$') ? 'system variable' : /\.(request|response)\./.test(name) ? 'request variable' : 'environment variable';
      problems.push({ line, construct: all, message: `${what} ${all} has no sheet equivalent; declare :${name.split(/[\s.]/)[0]!.replace(/^\$/, '')} with a value` });
      return all;
    });
  const out: string[] = [];
  for (const v of sheet.vars) out.push(`:${v.name} = ${refs(v.value, v.line)}`);
  if (sheet.vars.length) out.push('');
  for (const r of sheet.requests) {
    if (r.name) out.push(`# @name ${r.name}`);
    for (const d of r.directives ?? []) {
      if (d.name === 'name' || d.name === 'note' || d.name === 'http2') continue; // `# @http2` becomes the sheet's `HTTP/2` at the end of the request line (below)
      if ((GRPC_DIRECTIVES as readonly string[]).includes(d.name)) continue; // in `r.grpc`, written below
      if (d.name === AS_WRITTEN_TAG || Object.hasOwn(CONNECTION_TAGS, d.name)) {
        // Tags a sheet reads too (url/as-written.ts, sheet/connection-tags.ts); a connection value's `{{name}}` is substituted as a header's: `:name`.
        out.push(`# @${d.name} ${refs(d.value, d.line)}`.trimEnd());
        continue;
      }
      problems.push({ line: d.line, construct: `# @${d.name} ${d.value}`.trim(), message: `the directive @${d.name} has no sheet equivalent` });
      out.push(`# not converted (line ${d.line}): @${d.name} ${d.value}`.trimEnd());
    }
    // JetBrains' GRAPHQL method: a sheet marks a GraphQL query with `# @graphql`.
    if (r.graphql) out.push(`# @${GRAPHQL_TAG}`);
    // `Authorization: Bearer {{$auth.token("ID")}}` is a sheet's `# @auth ID` (the header is dropped below).
    const tokenHeader = r.headers.find((h) => h.kind === 'header' && /^authorization$/i.test(h.name) && BEARER_TOKEN.test(h.value));
    if (tokenHeader?.kind === 'header') out.push(`# @${AUTH_TAG} ${BEARER_TOKEN.exec(tokenHeader.value)![1]}`);
    // A gRPC call's protos (the file's too), as a sheet reads them: tags, then the block's lines.
    if (r.grpc) {
      for (const d of r.grpc.importPaths) out.push(`# @grpc-import-path ${d.file}`);
      if (r.grpc.authority) out.push(`# @grpc-authority ${r.grpc.authority}`);
      for (const p of r.grpc.protos) out.push(`proto < ${p.file}`);
      if (r.grpc.protos.length) for (const o of r.grpc.options) out.push(`${o.name}: ${o.value}`);
    }
    const http2 = r.httpVersion === 'HTTP/2' || !!r.directives?.some((d) => d.name === 'http2');
    out.push(`${r.websocket ? 'WEBSOCKET' : r.method} ${refs(r.url, r.line)}${http2 ? ' HTTP/2' : ''}`);
    for (const h of r.headers) if (h.kind === 'header' && h !== tokenHeader) out.push(`${h.name}: ${refs(h.value, h.line)}`);
    // httpyac's `??` assertions: as the sheet's `-> expect-*` where one says the same.
    for (const h of r.hooks) {
      const hook = expectFor(h.args);
      if (hook) out.push(hook);
      else problems.push({ line: h.line, construct: `?? ${h.args}`, message: 'this assertion has no sheet equivalent (-> expect-status, -> expect-header, -> expect-body, -> expect-time, -> expect-jq); rewrite it as one' });
    }
    const b = r.body;
    if (b?.kind === 'text') {
      const bl = b.text.split('\n');
      bl.forEach((l, k) => {
        if (l.startsWith('#')) problems.push({ line: b.line + k, construct: l, message: 'a body line starting with # would end the request in a sheet' });
      });
      out.push('', refs(b.text, b.line));
    } else if (b?.kind === 'file') {
      if (b.substitute) problems.push({ line: b.line, construct: `<@ ${b.path}`, message: 'sheets have no file body with variables substituted; it is converted to < path, sent as is' });
      out.push('', `< ${b.path}`);
    } else if (b?.kind === 'parts') {
      // A sheet reads the same form under a written multipart Content-Type (sheet/body-parts.ts).
      const multipart = r.headers.some((h) => h.kind === 'header' && /^content-type$/i.test(h.name) && isMultipart(h.value));
      if (!multipart) problems.push({ line: b.line, construct: 'body with < path parts', message: 'a sheet mixes text and files only in a multipart body; the body is not converted: build it as one file and use < path' });
      else {
        const lines: string[] = [];
        for (const p of b.parts) {
          if (p.kind === 'file') {
            if (p.substitute) problems.push({ line: p.line, construct: `<@ ${p.path}`, message: 'converted as <@ path: a sheet multipart body substitutes :name variables in it' });
            lines.push(`<${p.substitute ? `@${p.encoding ?? ''}` : ''} ${p.path}`);
          } else {
            p.text.split('\n').forEach((l, k) => {
              if (l.startsWith('#')) problems.push({ line: p.line + k, construct: l, message: 'a body line starting with # would end the request in a sheet' });
            });
            lines.push(refs(p.text, p.line));
          }
        }
        // .http drops the body's trailing blank lines; the sheet's last empty line is curl's closing CRLF.
        out.push('', ...lines, '');
      }
    }
    for (const h of r.handlers ?? []) {
      problems.push({ line: h.line, construct: h.kind === 'inline' ? '> {% ... %}' : `> ${h.path}`, message: 'response handlers have no sheet equivalent; use -> jq-set-var or -> run-hook' });
    }
    for (const v of r.saveResponse ?? []) {
      problems.push({ line: v.line, construct: `${v.overwrite ? '>>!' : '>>'} ${v.path}`, message: 'a sheet cannot save the response to a file; save it from the response buffer (C-x C-w) or keep the .http file' });
    }
    for (const h of r.preScripts ?? []) {
      problems.push({ line: h.line, construct: h.kind === 'inline' ? '< {% ... %}' : `< ${h.path}`, message: 'pre-request scripts have no sheet equivalent; declare the values as :name = value or :name := (lisp)' });
    }
    out.push('#');
  }
  return { text: out.join('\n') + '\n', problems: problems.sort((a, b) => a.line - b.line) };
}
