/**
 * Sheet text -> {@link Sheet}. Pure: no I/O, never throws on any input; problems become
 * diagnostics with a line. The syntax is restclient.el's (see docs/sheet-format.md):
 *
 * - a line starting with `#` is a comment and ends the previous request, body included;
 * - `METHOD URL` starts a request; `Name: value` lines follow; `-> hook args` lines too;
 *   a line `:name` among them inserts the headers held in that variable;
 * - the body starts after an empty line (or at the first line that is none of the above) and
 *   runs to the next `#` line; the newline before that line is not part of the body;
 * - a body made of one line `< path` is the file's content; a multipart body (a literal
 *   `Content-Type: multipart/...` header) may mix text with `< path` lines, as `.http` files do;
 * - `# @no-auto-encoding` among the comment lines above a request sends its URL as written;
 *   `# @http2` and the connection directives there (`# @proxy URL`, connection-tags.ts) too;
 * - `:name = value`, `:name := form`, and `:name = <<` / `:name := <<` ... closed by a `#` line
 *   declare variables (only above a request line, outside requests).
 */
import { AS_WRITTEN_TAG } from '../url/as-written.js';
import { bodyNode, isMultipart } from './body-parts.js';
import { connectionDirective } from './connection-tags.js';
import { emptyGrpc, GRPC_DIRECTIVES, GRPC_METHOD, grpcNode, grpcUrl, readProtoLine } from './grpc-lines.js';
import type { Block, BodyNode, Diagnostic, Directive, HeaderItem, HookNode, RequestNode, Sheet, VarDecl } from './ast.js';
import { EngineError } from '../errors.js';
import { isWebSocketMethod, websocketUrl } from './websocket-line.js';
import { lispFormEnd, splitLines, withoutBom } from './text.js';

export { lispFormEnd, splitLines, withoutBom };

/** Methods a request line may use (RFC 9110 section 9 plus PATCH, RFC 5789). */
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE'] as const;
const METHOD_SET = new Set<string>(METHODS);

const REQUEST_LINE = /^([A-Z]+)[ \t]+(\S.*)$/;
const METHOD_ONLY = /^([A-Z]+)[ \t]*$/;
/** A word followed by something URL-like: a request line with a method we do not know. */
const METHODISH_LINE = /^([A-Za-z]+)[ \t]+(https?:\/\/\S*|:[^\s:=]+\S*|\/\S*)/;
// restclient-var-regexp: name without `:`, `=` or blanks; `=` or `:=`; a value not starting with `<`, or `<<`.
const VAR_LINE = /^(:[^:=\s]+)[ \t]*(:?)=[ \t]*(.*)$/;
const MULTILINE_START = /^<<[ \t]*$/;
// restclient-header-regexp
const HEADER_LINE = /^([^\](),/:;@[\\{}= \t]+):[ \t]+(.*)$|^([^\](),/:;@[\\{}= \t]+):$/;
const USE_VAR_LINE = /^(:[^:\s]+)[ \t]*$/;
const HOOK_LINE = /^->[ \t]+(\S+)[ \t]*(.*)$/;
const FILE_BODY = /^<[ \t]*([^<>\n\r]+?)[ \t]*$/;
const BLANK = /^[ \t]*$/;
/** A trailing ` HTTP/1.1` on a request line (RFC 9112 request-line). */
export const HTTP_VERSION = /[ \t]+(HTTP\/\d+(?:\.\d+)?)$/;

const isComment = (l: string) => l.startsWith('#');
/**
 * `# @graphql` above a request: send its body as a GraphQL query (`{"query", ...}` JSON,
 * ../resolve/http-graphql.ts). Issue 37 item 4: a sheet's `Content-Type: application/graphql`
 * alone is sent as written, as restclient.el sends it; this tag (or `X-Request-Type: GraphQL`)
 * asks for the conversion.
 */
export const GRAPHQL_TAG = 'graphql';
/**
 * `# @auth ID` above a request of a sheet (issue 39 item 5; docs/sheet-format.md, "Token
 * auth"): send it with `Authorization: Bearer TOKEN`, the token of the `Security.Auth` entry ID
 * of the JetBrains environment files found above the sheet (session/auth.ts `sheetToken`).
 */
export const AUTH_TAG = 'auth';

/** A `# @name value` comment line: the tag style of `# @no-auto-encoding`. */
const TAG_LINE = /^#[ \t]*@([A-Za-z][\w-]*)(?:[ \t]+(.*?))?[ \t]*$/;

/**
 * The tags a sheet reads among the comment lines just above the block at `start` (0-based), in
 * text order: `# @no-auto-encoding` (the JetBrains HTTP Client's tag; ../url/as-written.ts),
 * `# @http2` (httpyac's; `HTTP/2` on the request line says the same), `# @graphql` (send the
 * body as a GraphQL query, ../resolve/http-graphql.ts), kulala's `# @accept chunked` (a chunked
 * body shown piece by piece as it arrives, ../session/stream.ts), `# @auth ID` (a token,
 * {@link AUTH_TAG}) and the connection directives (connection-tags.ts: `# @proxy URL`,
 * `# @cacert FILE`, ...). Any other `# @...` line stays a
 * comment, as in restclient.el.
 */
export function tagsAbove(lines: string[], start: number): Directive[] {
  const out: Directive[] = [];
  for (let k = start - 1; k >= 0 && isComment(lines[k]!); k--) {
    const m = TAG_LINE.exec(lines[k]!);
    if (!m) continue;
    const value = m[2] ?? '';
    const flag = ((m[1] === AS_WRITTEN_TAG || m[1] === 'http2' || m[1] === GRAPHQL_TAG) && value === '') || (m[1] === 'accept' && value === 'chunked');
    const tag = flag ? { name: m[1]!, value, line: k + 1 } : m[1] === AUTH_TAG ? { name: AUTH_TAG, value, line: k + 1 } : (GRPC_DIRECTIVES as readonly string[]).includes(m[1]!) ? { name: m[1]!, value, line: k + 1 } : connectionDirective(m[1]!, value, k + 1);
    if (tag) out.unshift(tag);
  }
  return out;
}

/** Parse a whole sheet. Never throws. */
export function parseSheet(text: string): Sheet {
  const lines = splitLines(text);
  const n = lines.length;
  const vars: VarDecl[] = [];
  const requests: RequestNode[] = [];
  const blocks: Block[] = [];
  const diagnostics: Diagnostic[] = [];

  let i = 0; // 0-based index of the current line
  while (i < n) {
    // Skip comment lines between blocks.
    if (isComment(lines[i]!)) {
      i++;
      continue;
    }
    // A block runs from i to the line before the next comment line.
    const start = i;
    let end = i;
    while (end + 1 < n && !isComment(lines[end + 1]!)) end++;
    const block: Block = { startLine: start + 1, endLine: end + 1 };
    blocks.push(block);

    let j = start;
    // A line that looks like a request line but is not one (unknown method, no URL) is
    // reported only when no real request line follows in the block: restclient.el searches
    // the block for the first request line and ignores other text above it.
    let candidate: Diagnostic | undefined;
    const ownGrpc = emptyGrpc();
    let afterProto = false;
    // Pre-request part: variable declarations, blank or other lines, until a request line.
    while (j <= end && !block.request && !block.error) {
      const line = lines[j]!;
      const proto = readProtoLine(line, j + 1, ownGrpc, afterProto);
      afterProto = !!proto || (afterProto && BLANK.test(line));
      if (proto) {
        j++;
        continue;
      }
      const v = VAR_LINE.exec(line);
      if (v && (MULTILINE_START.test(v[3]!) || !v[3]!.startsWith('<')) && v[3] !== '') {
        const kind = v[2] === ':' ? 'lisp' : 'literal';
        if (MULTILINE_START.test(v[3]!)) {
          // The value runs to the next line starting with `#`, which also ends this block.
          let k = j + 1;
          while (k < n && !isComment(lines[k]!)) k++;
          if (k >= n) {
            const d: Diagnostic = {
              code: 'unterminated-multiline',
              severity: 'error',
              message: `unterminated multi-line variable ${v[1]}`,
              line: j + 1,
              hint: `Close the value of ${v[1]} with a line starting with # (e.g. a line holding only #).`,
            };
            diagnostics.push(d);
            block.error = d;
            block.endLine = n;
            end = n - 1;
            break;
          }
          vars.push({ name: v[1]!, kind, multiline: true, value: lines.slice(j + 1, k).join('\n'), line: j + 1, endLine: k + 1 });
          // The closing `#` line ends this block; the next block starts after it.
          block.endLine = k; // 1-based: the last value line
          end = k - 1;
          j = k;
          break;
        }
        vars.push({ name: v[1]!, kind, multiline: false, value: v[3]!.replace(/[ \t]+$/, ''), line: j + 1, endLine: j + 1 });
        j++;
        continue;
      }
      const r = REQUEST_LINE.exec(line);
      if (r && (METHOD_SET.has(r[1]!) || r[1] === GRPC_METHOD || isWebSocketMethod(r[1]!))) {
        const req = parseRequest(lines, j, end, block, diagnostics);
        if (req) {
          const tags = tagsAbove(lines, start);
          if (tags.length) req.directives = tags;
          if (req.method === GRPC_METHOD) {
            req.url = grpcUrl(req.url, true);
            // A sheet's proto lines are its block's (or `# @grpc-proto` tags above it): each block
            // parses alone (incremental.ts re-parses only the blocks an edit touched).
            req.grpc = grpcNode(ownGrpc, emptyGrpc(), tags);
          }
          block.request = req;
          requests.push(req);
        }
        break;
      }
      if (!candidate) {
        const only = METHOD_ONLY.exec(line);
        const m = METHODISH_LINE.exec(line);
        if (only && METHOD_SET.has(only[1]!)) {
          candidate = {
            code: 'missing-url',
            severity: 'error',
            message: `request line without URL: ${JSON.stringify(line.trim())}`,
            line: j + 1,
            hint: `Write the URL after the method: ${only[1]} http://host/path`,
          };
        } else if (m && !METHOD_SET.has(m[1]!)) {
          const upper = m[1]!.toUpperCase();
          candidate = {
            code: 'unknown-method',
            severity: 'error',
            message: `unknown method ${m[1]}`,
            line: j + 1,
            hint: METHOD_SET.has(upper) ? `Methods are written in upper case: ${upper}.` : `Use one of ${METHODS.join(', ')}.`,
          };
        }
      }
      j++;
    }
    if (candidate && !block.request && !block.error) {
      diagnostics.push(candidate);
      block.error = candidate;
    }
    i = end + 1;
  }
  return { vars, requests, blocks, diagnostics, lineCount: n };
}

/** Parse the request whose request line is at index `at`, in the block ending at index `end`. */
function parseRequest(lines: string[], at: number, end: number, block: Block, diagnostics: Diagnostic[]): RequestNode | undefined {
  const r = REQUEST_LINE.exec(lines[at]!)!;
  const headers: HeaderItem[] = [];
  const hooks: HookNode[] = [];
  let j = at + 1;
  while (j <= end) {
    const line = lines[j]!;
    const h = HOOK_LINE.exec(line);
    if (h) {
      const name = h[1]!;
      let args = h[2]!.trim();
      let last = j;
      if (name === 'run-hook' && args) {
        // The form may continue over several lines, until its parens balance: scan the rest
        // of the block once (not line by line, which is quadratic on a long open form).
        const rest = lispFormEnd(args) >= 0 ? args : [args, ...lines.slice(j + 1, end + 1)].join('\n');
        const formEnd = lispFormEnd(rest);
        if (formEnd >= 0) {
          for (let k = rest.indexOf('\n'); k >= 0 && k < formEnd; k = rest.indexOf('\n', k + 1)) last++;
        }
        const text = [args, ...lines.slice(j + 1, last + 1)].join('\n');
        if (formEnd < 0) {
          const d: Diagnostic = {
            code: 'unterminated-hook-form',
            severity: 'error',
            message: 'unbalanced parentheses in the run-hook form',
            line: j + 1,
            hint: 'Close every ( of the form before the next # line.',
          };
          diagnostics.push(d);
          block.error = d;
          return undefined;
        }
        args = text.trim();
      }
      hooks.push({ name, args, line: j + 1, endLine: last + 1 });
      j = last + 1;
      continue;
    }
    if (!BLANK.test(line)) {
      const hd = HEADER_LINE.exec(line);
      if (hd) {
        headers.push({ kind: 'header', name: hd[1] ?? hd[3]!, value: hd[2] ?? '', line: j + 1 });
        j++;
        continue;
      }
      const u = USE_VAR_LINE.exec(line);
      if (u) {
        headers.push({ kind: 'use-var', name: u[1]!, line: j + 1 });
        j++;
        continue;
      }
    }
    break;
  }
  if (j <= end && BLANK.test(lines[j]!)) j++;
  let body: BodyNode | undefined;
  if (j <= end) {
    const bodyLines = lines.slice(j, end + 1);
    // restclient.el: a body whose first line is `< path` is that file's content.
    const file = FILE_BODY.exec(bodyLines[0]!);
    const multipart = headers.some((h) => h.kind === 'header' && /^content-type$/i.test(h.name) && isMultipart(h.value));
    if (multipart && bodyLines.length > 1) {
      // A multipart body may mix text with `< path` lines, as in .http files (body-parts.ts).
      body = bodyNode(bodyLines.map((text, k) => ({ text, line: j + 1 + k })));
    } else if (file) {
      body = { kind: 'file', path: file[1]!, line: j + 1 };
      const extra = bodyLines.findIndex((l, k) => k > 0 && !BLANK.test(l));
      if (extra > 0) {
        diagnostics.push({
          code: 'ignored-lines',
          severity: 'warning',
          message: `lines after the file body "< ${file[1]}" are ignored`,
          line: j + 1 + extra,
          hint: 'A file body is the whole body: remove these lines or start a new request with a # line.',
        });
      }
    } else {
      const text = bodyLines.join('\n');
      if (text !== '') body = { kind: 'text', text, line: j + 1, endLine: end + 1 };
    }
    if (body?.kind !== 'file') sentAsBody(bodyLines, j, r[1]!, diagnostics);
  }
  // `GET http://h/a HTTP/1.1` (the .http request line) is accepted here too: the version
  // never becomes part of the URL's path.
  const url = r[2]!.trim();
  const version = HTTP_VERSION.exec(url);
  // `WEBSOCKET ws://h/chat` (issue 40): a GET handshake, the body its messages (websocket-line.ts).
  const websocket = isWebSocketMethod(r[1]!);
  const target = version ? url.slice(0, version.index) : url;
  return {
    method: websocket ? 'GET' : r[1]!,
    url: websocket ? websocketUrl(r[1]!, target) : target,
    ...(websocket ? { websocket: true } : {}),
    ...(version ? { httpVersion: version[1] } : {}),
    line: at + 1,
    startLine: block.startLine,
    endLine: block.endLine,
    headers,
    hooks,
    body,
  };
}

/**
 * Body lines that read like a hook (`-> expect-status 200`) or a request line (`GET
 * http://...`): restclient.el sends them as body text, so a suite's assertions would go unseen
 * and two requests with only a blank line between them would be one (issue 36 item 1). Each
 * is a `sent-as-body` warning on its line; the body is left as restclient.el sends it.
 * @param from 0-based index of the first body line; `method`, the request's (messages name no
 *   line of another, so an edit above shifts them as they are: sheet/incremental.ts).
 */
function sentAsBody(bodyLines: string[], from: number, method: string, diagnostics: Diagnostic[]): void {
  for (let k = 0; k < bodyLines.length; k++) {
    const line = bodyLines[k]!;
    const c = line.charCodeAt(0);
    // Only lines starting with `-` or an upper-case letter can be either.
    if (c !== 45 && !(c >= 65 && c <= 90)) continue;
    const h = HOOK_LINE.exec(line);
    const m = h ? undefined : METHODISH_LINE.exec(line);
    if (!h && !(m && METHOD_SET.has(m[1]!))) continue;
    diagnostics.push({
      code: 'sent-as-body',
      severity: 'warning',
      line: from + k + 1,
      message: h
        ? `"${line.trim()}" is inside the body of the ${method} request above and is sent as body text, not run as a hook`
        : `"${line.trim()}" is inside the body of the ${method} request above and is sent as body text, not as a request of its own`,
      hint: h
        ? 'Put -> lines right below the request line and headers, before the blank line and the body (docs/sheet-format.md).'
        : 'Start each request after a line beginning with # (e.g. ###); a blank line does not separate requests in a sheet.',
    });
  }
}

/**
 * The block that a 1-based `line` belongs to. On a comment line, the block below it (as
 * restclient.el does).
 */
export function blockAt(sheet: Sheet, line: number): Block | undefined {
  const bs = sheet.blocks;
  let lo = 0;
  let hi = bs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (bs[mid]!.startLine <= line) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found >= 0 && bs[found]!.endLine >= line) return bs[found];
  // On a comment line (or before the first block): the next block.
  return bs[found + 1];
}

/**
 * The request at a 1-based `line`. Past the end of the text (point at the end of a buffer that
 * ends with a newline, after `M->`), the block that runs to the end, as restclient.el sends the
 * request between the last `#` line above point and point; after a trailing comment line there
 * is none, as there.
 * @throws EngineError `no-request-at-point`, or the block's own error (e.g. `unknown-method`).
 */
export function requestAt(sheet: Sheet, line: number): RequestNode {
  const last = sheet.blocks[sheet.blocks.length - 1];
  const b = blockAt(sheet, line) ?? (line > sheet.lineCount && last?.endLine === sheet.lineCount ? last : undefined);
  if (b?.error) {
    throw new EngineError(b.error.code, b.error.message, { line: b.error.line, hint: b.error.hint });
  }
  if (!b?.request) {
    throw new EngineError('no-request-at-point', `no request at line ${line}`, {
      hint: 'Put point on a request (a line like GET http://host/path, or its headers or body).',
    });
  }
  return b.request;
}

/** The variable declarations that apply to `req`: those above its request line, in order. */
export function varsBefore(sheet: Sheet, req: RequestNode): VarDecl[] {
  const out: VarDecl[] = [];
  for (const v of sheet.vars) {
    if (v.line >= req.line) break;
    out.push(v);
  }
  return out;
}
