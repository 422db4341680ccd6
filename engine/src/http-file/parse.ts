/**
 * `.http` text (VS Code REST Client / JetBrains HTTP Client syntax) -> the same {@link Sheet}
 * AST as engine/src/sheet/. Pure: no I/O, never throws; problems become located diagnostics.
 * Every construct and whether it is supported: docs/http-files.md.
 *
 * - `###` (optional name after it) separates requests; `#` and `//` lines are comments;
 * - `@name = value` declares a file variable (before a request line);
 * - `# @name login`, `# @no-redirect`, `# @no-cookie-jar`, `# @prompt name` are directives, and
 *   the connection directives of ../sheet/connection-tags.ts (`# @proxy URL`, ...);
 * - request line `[METHOD] URL [HTTP/1.1]` (method GET when absent); lines starting with `?`,
 *   `&` or `/`, and indented lines, continue the URL; `Name: value` headers; a blank line; the body up to the next
 *   `###` (trailing blank lines dropped); `< path` / `<@ path` bodies and multipart parts;
 * - `?? status == 200` assertion lines (httpyac) anywhere in a request's block: hooks `??`;
 * - `> {% script %}` and `> ./handler.js` response handlers after the body; `< {% script %}` and
 *   `< ./script.js` pre-request scripts above the request line (JetBrains).
 */
import type { Block, BodyNode, BodyPart, Diagnostic, Directive, HeaderItem, HookNode, RequestNode, ResponseHandler, SaveResponse, Sheet, VarDecl } from '../sheet/ast.js';
import { HTTP_VERSION, METHODS, splitLines } from '../sheet/parse.js';
import { bodyNode, textBodyNode } from '../sheet/body-parts.js';
import { CONNECTION_TAGS, connectionDirective } from '../sheet/connection-tags.js';
import { emptyGrpc, GRPC_DIRECTIVES, GRPC_METHOD, grpcNode, grpcUrl, readProtoLine } from '../sheet/grpc-lines.js';
import { isWebSocketMethod, websocketUrl, WEBSOCKET_METHODS } from '../sheet/websocket-line.js';
import { ASSERT_LINE, BLANK, COMMENT, DIRECTIVE, FILE_VAR, HEADER, KULALA_COMMAND, PRE_SCRIPT_FILE, queryGoesOn, RECORDED_RESPONSE, requestLine, SEPARATOR, TOKEN, urlContinues } from './line-forms.js';

/**
 * The methods a `.http` request line may start with: RFC 9110's and PATCH (RFC 5789), then
 * WebDAV's (RFC 4918), DeltaV's (RFC 3253), ACL (RFC 3744), MKCALENDAR (RFC 4791) and SEARCH
 * (RFC 5323): the union of VS Code REST Client's list (src/utils/httpRequestParser.ts) and
 * httpyac's (requestHttpRegionParser.ts). A method outside it is a located `unknown-method`.
 */
export const HTTP_FILE_METHODS: readonly string[] = [
  ...METHODS, 'CONNECT',
  'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK',
  'CHECKOUT', 'CHECKIN', 'REPORT', 'MERGE', 'MKACTIVITY', 'MKWORKSPACE', 'VERSION-CONTROL', 'BASELINE-CONTROL',
  'ACL', 'MKCALENDAR', 'SEARCH',
];
const METHOD_SET = new Set<string>(HTTP_FILE_METHODS);
/**
 * Directives we act on; others are kept and reported as unsupported (docs/http-files.md). The
 * connection directives (`# @proxy`, `# @cacert`, ...) are ../sheet/connection-tags.ts's.
 */
export const KNOWN_DIRECTIVES = new Set(['name', 'no-redirect', 'no-cookie-jar', 'prompt', 'note', 'no-auto-encoding', 'http2', 'retry', 'injectVariables', ...GRPC_DIRECTIVES, ...Object.keys(CONNECTION_TAGS)]);

/**
 * JetBrains' `GRAPHQL URL` request line (HTTP Client reference, "GraphQL"; httpyac and kulala
 * read it too): sent as `POST` with the body as a GraphQL query (resolve/http-graphql.ts).
 */
const GRAPHQL_METHOD = 'GRAPHQL';

/**
 * httpyac's `SSE URL` / `EVENTSOURCE URL` request lines (its guide, "Server-Sent Events"): sent
 * as `GET` with `Accept: text/event-stream`, the body read as SSE events whatever its
 * Content-Type (session/stream.ts; issue 40).
 */
const SSE_METHODS = ['SSE', 'EVENTSOURCE'];

/**
 * Every word a `.http` request line may start with: {@link HTTP_FILE_METHODS}, `GRAPHQL` and
 * the WebSocket words (`WEBSOCKET`, `WS`, `WSS`: ../sheet/websocket-line.ts).
 * What `sheet/completions` offers in a `.http` file; sheet-mode's `sheet-request-methods`
 * (elisp/sheet-font-lock.el) lists the same words, checked against this file by
 * test/elisp/sheet-mode-methods-test.el.
 */
export const HTTP_FILE_REQUEST_METHODS: readonly string[] = [...HTTP_FILE_METHODS, GRAPHQL_METHOD, GRPC_METHOD, ...WEBSOCKET_METHODS];

/** A request line that starts a new request after a blank line (httpyac): an upper-case method, a blank, a target. */
const NEW_REQUEST = new RegExp(`^(?:${[...METHOD_SET, GRAPHQL_METHOD, GRPC_METHOD, ...SSE_METHODS, ...WEBSOCKET_METHODS].join('|')})[ \\t]+\\S`);

/**
 * The line ranges of the requests: split at `###` lines (VS Code REST Client, JetBrains), and,
 * as httpyac does, at a request line (`GET http://h/b`) after a blank line (and the comment,
 * `# @name` and `@name = value` lines just above it, which go with it) once the range has had
 * its own request line, so requests separated by blank lines only are separate requests, not
 * one request whose body is the next. Lines inside a `{% ... %}` script never split.
 */
function splitRequests(lines: string[], n: number): { start: number; end: number; name?: string }[] {
  let start = 1;
  let blockName: string | undefined;
  let hasRequest = false;
  let inScript = false;
  // Pre-request scripts (`< {% ... %}`): the line that closes each -> the line that opens it.
  const preScripts = new Map<number, number>();
  let scriptStart = 0;
  const ranges: { start: number; end: number; name?: string }[] = [];
  // httpyac's `proto < file` and its option lines are no request line.
  let afterProto = false;
  for (let i = 1; i <= n; i++) {
    const sl = lines[i - 1]!;
    if (inScript) {
      inScript = !sl.includes('%}');
      if (!inScript && scriptStart) preScripts.set(i, scriptStart);
      continue;
    }
    if (sl.charCodeAt(0) === 35 /* # */ && sl.startsWith('###')) {
      if (i > start || ranges.length || blockName !== undefined) ranges.push({ start, end: i - 1, name: blockName });
      blockName = SEPARATOR.exec(sl)![1]!.trim() || undefined;
      start = i + 1;
      hasRequest = false;
      afterProto = false;
      continue;
    }
    if (/^[<>][ \t]*\{%/.test(sl)) {
      inScript = !sl.slice(sl.indexOf('{%') + 2).includes('%}');
      scriptStart = sl.startsWith('<') ? i : 0;
      if (!inScript && scriptStart) preScripts.set(i, i);
      continue;
    }
    if (!hasRequest) {
      const proto = readProtoLine(sl, i, emptyGrpc(), afterProto);
      afterProto = !!proto || (afterProto && BLANK.test(sl));
      if (proto) continue;
      // A `< ./script.js` line before the request line is a pre-request script (JetBrains),
      // and a kulala `run`/`import` line is none either: a blank line may follow them.
      hasRequest = !BLANK.test(sl) && !COMMENT.test(sl) && !/^[ \t]*@/.test(sl) && !PRE_SCRIPT_FILE.test(sl) && !KULALA_COMMAND.test(sl) && !ASSERT_LINE.test(sl);
      continue;
    }
    if (!NEW_REQUEST.test(sl)) continue;
    // Comment, directive, `@name = value` and pre-request script lines just above the request
    // line belong to it.
    let k = i - 1;
    while (k > start) {
      if (preScripts.has(k)) k = preScripts.get(k)! - 1;
      else if (COMMENT.test(lines[k - 1]!) || FILE_VAR.test(lines[k - 1]!)) k--;
      else break;
    }
    if (k >= start && BLANK.test(lines[k - 1]!)) {
      ranges.push({ start, end: k, name: blockName });
      blockName = undefined;
      start = k + 1;
    }
  }
  ranges.push({ start, end: n, name: blockName });
  return ranges;
}

/** Parse a whole `.http` file. Never throws. */
export function parseHttpFile(text: string): Sheet {
  const lines = splitLines(text);
  const n = lines.length === 1 && lines[0] === '' ? 0 : lines.length;
  const vars: VarDecl[] = [];
  const requests: RequestNode[] = [];
  const blocks: Block[] = [];
  const diagnostics: Diagnostic[] = [];
  const unsupported = (line: number, what: string, hint: string) =>
    diagnostics.push({ code: 'unsupported-construct', severity: 'error', line, message: `${what} is not supported`, hint });

  const ranges = splitRequests(lines, n);
  // Proto lines and gRPC directives of a block without a request line: for the gRPC requests below.
  let fileGrpc = emptyGrpc();

  for (const r of ranges) {
    const block: Block = { startLine: r.start, endLine: r.end };
    blocks.push(block);
    const directives: Directive[] = [];
    const preScripts: ResponseHandler[] = [];
    const asserts: HookNode[] = [];
    const assertAt = (l: string, line: number): boolean => {
      const a = ASSERT_LINE.exec(l);
      if (a) asserts.push({ name: '??', args: a[1] ?? '', line, endLine: line });
      return !!a;
    };
    let i = r.start;
    const ownGrpc = emptyGrpc();
    let afterProto = false;
    // Preamble: blank lines, comments, directives, file variables, pre-request scripts, proto lines.
    for (; i <= r.end; i++) {
      const l = lines[i - 1]!;
      if (BLANK.test(l) || assertAt(l, i)) continue;
      if (readProtoLine(l, i, ownGrpc, afterProto)) {
        afterProto = true;
        continue;
      }
      afterProto = false;
      const pre = /^<[ \t]*\{%(.*)$/.exec(l);
      if (pre) {
        const sc = readScript(lines, i, r.end, pre[1]!);
        if (!sc.closed) {
          diagnostics.push({ code: 'unterminated-hook-form', severity: 'error', line: i, message: 'pre-request script < {% has no closing %}', hint: 'Close the script with %} before the request line.' });
          block.error = diagnostics[diagnostics.length - 1];
        }
        preScripts.push({ kind: 'inline', source: sc.source, line: i, endLine: sc.end });
        i = sc.end;
        continue;
      }
      const preFile = PRE_SCRIPT_FILE.exec(l);
      if (preFile) {
        preScripts.push({ kind: 'file', path: preFile[1]!, line: i, endLine: i });
        continue;
      }
      const k = KULALA_COMMAND.exec(l);
      if (k) {
        diagnostics.push({ code: 'unsupported-construct', severity: 'warning', line: i, message: `kulala.nvim's ${k[1]} line is not supported: what it names is not ${k[1] === 'run' ? 'run' : 'imported'} here`, hint: 'Send the requests it names where they are written (sheet run FILE runs a whole file).' });
        continue;
      }
      const d = DIRECTIVE.exec(l);
      if (d) {
        // A connection directive under its canonical name (`# @noRejectUnauthorized` is `insecure`).
        directives.push(connectionDirective(d[1]!, d[2] ?? '', i) ?? { name: d[1]!, value: d[2] ?? '', line: i });
        continue;
      }
      if (COMMENT.test(l)) continue;
      const v = FILE_VAR.exec(l);
      if (v) {
        vars.push({ name: v[1]!, kind: 'literal', multiline: false, value: v[2]!, line: i, endLine: i });
        continue;
      }
      if (/^[ \t]*@/.test(l)) {
        diagnostics.push({ code: 'bad-header', severity: 'error', line: i, message: `not a file variable: ${JSON.stringify(l.trim())}`, hint: 'Write a file variable as @name = value.' });
        continue;
      }
      break;
    }
    if (i > r.end && !block.error) {
      fileGrpc = grpcNode(ownGrpc, fileGrpc, directives);
      // Directives and scripts with no request line below them apply to nothing: say so (an
      // unknown `# @x` there is read as the comment it may be, e.g. a commented-out `# @id=`).
      const lost = [...directives.filter((d) => KNOWN_DIRECTIVES.has(d.name) && !(GRPC_DIRECTIVES as readonly string[]).includes(d.name)).map((d) => ({ line: d.line, what: `# @${d.name}` })), ...preScripts.map((p) => ({ line: p.line, what: 'the pre-request script' }))].sort((a, b) => a.line - b.line)[0];
      if (lost) diagnostics.push({ code: 'unsupported-construct', severity: 'warning', line: lost.line, message: `${lost.what} has no request line below it (before the next ###) and applies to nothing`, hint: 'Put it right above a request line, or remove it.' });
    }
    if (i > r.end && asserts.length) {
      // An assertion that checks nothing must not let the run pass without it (issue 36).
      diagnostics.push({ code: 'unsupported-construct', severity: 'error', line: asserts[0]!.line, message: `the assertion ?? ${asserts[0]!.args} has no request line above it (after the last ###) and checks nothing`, hint: 'Put ?? lines below the request line they check.' });
    }
    if (i > r.end || block.error) continue;
    // Request line.
    const reqLine = i;
    const raw = lines[i - 1]!;
    const m = requestLine(raw);
    let method = m[1] ? m[1] : 'GET';
    let url = m[2]!;
    if (m[1] && !/^[A-Z]+(?:-[A-Z]+)*$/.test(m[1])) {
      // `localhost:3000/x`-like lines have no method; a lower-case word followed by a URL is a wrong method.
      const upper = m[1].toUpperCase();
      if (/^[a-z]+(?:-[a-z]+)*$/.test(m[1]) && (METHOD_SET.has(upper) || upper === GRAPHQL_METHOD || SSE_METHODS.includes(upper) || isWebSocketMethod(upper))) method = upper;
      else {
        method = 'GET';
        url = `${m[1]} ${m[2]}`;
      }
    }
    const graphql = method === GRAPHQL_METHOD;
    if (graphql) method = 'POST';
    const sse = SSE_METHODS.includes(method);
    if (sse) method = 'GET';
    // A WebSocket request (issue 40): its handshake is a GET (../sheet/websocket-line.ts).
    const websocket = isWebSocketMethod(method);
    if (websocket) {
      url = websocketUrl(method, url.trim());
      method = 'GET';
    }
    if (m[1] === GRPC_METHOD) {
      method = GRPC_METHOD;
      url = grpcUrl(url, false);
    }
    const grpc = method === GRPC_METHOD;
    if (!METHOD_SET.has(method) && !grpc) {
      const e: Diagnostic = { code: 'unknown-method', severity: 'error', line: i, message: `unknown method ${method}`, hint: `Use one of ${[...METHOD_SET].join(', ')}.` };
      diagnostics.push(e);
      block.error = e;
      continue;
    }
    if (method === 'CONNECT') {
      unsupported(i, 'the CONNECT method', 'Send CONNECT requests with curl (--proxytunnel).');
      block.error = diagnostics[diagnostics.length - 1];
      continue;
    }
    i++;
    for (; i <= r.end && (urlContinues(lines[i - 1]!) || queryGoesOn(url, lines[i - 1]!)); i++) url += lines[i - 1]!.trim();
    const lastVersion = m[3] ? undefined : HTTP_VERSION.exec(url);
    if (lastVersion) url = url.slice(0, lastVersion.index);
    // Headers.
    const headers: HeaderItem[] = [];
    for (; i <= r.end; i++) {
      const l = lines[i - 1]!;
      if (BLANK.test(l)) {
        i++;
        break;
      }
      if (COMMENT.test(l) || assertAt(l, i)) continue;
      const h = HEADER.exec(l);
      // The body starts without a blank line at a line that is no header: a header name is an
      // RFC 9110 token, so `{"a": 1}` starts a JSON body (as httpyac reads it).
      if (!h || !TOKEN.test(h[1]!) || l.startsWith('<') || l.startsWith('>')) break;
      headers.push({ kind: 'header', name: h[1]!, value: h[2]!, line: i });
    }
    // Body and response handlers.
    const bodyLines: { text: string; line: number }[] = [];
    const handlers: ResponseHandler[] = [];
    const saves: SaveResponse[] = [];
    for (; i <= r.end; i++) {
      const l = lines[i - 1]!;
      const c0 = l.charCodeAt(0);
      if (assertAt(l, i)) continue;
      if (c0 === 72 /* H */ && RECORDED_RESPONSE.test(l)) {
        // httpyac's recorded response: not the body; its own `??` lines still count.
        for (i++; i <= r.end; i++) assertAt(lines[i - 1]!, i);
        break;
      }
      // Only lines starting with `>` or `<` can be handlers or unsupported markers.
      if (c0 !== 62 /* > */ && c0 !== 60 /* < */ && !handlers.length) {
        bodyLines.push({ text: l, line: i });
        continue;
      }
      const inline = /^>[ \t]*\{%(.*)$/.exec(l);
      if (inline) {
        const sc = readScript(lines, i, r.end, inline[1]!);
        if (!sc.closed) {
          diagnostics.push({ code: 'unterminated-hook-form', severity: 'error', line: i, message: 'response handler > {% has no closing %}', hint: 'Close the script with %} before the next ###.' });
          block.error = diagnostics[diagnostics.length - 1];
        }
        handlers.push({ kind: 'inline', source: sc.source, line: i, endLine: sc.end });
        i = sc.end;
        continue;
      }
      const fileHandler = /^>[ \t]+(\S.*?)[ \t]*$/.exec(l);
      if (fileHandler) {
        handlers.push({ kind: 'file', path: fileHandler[1]!, line: i, endLine: i });
        continue;
      }
      const save = /^>>(!?)[ \t]+(\S.*?)[ \t]*$/.exec(l);
      if (save) {
        // JetBrains' response redirection: the body is saved after the exchange (session/save-response.ts).
        saves.push({ path: save[2]!, overwrite: save[1] === '!', line: i });
        continue;
      }
      if (/^>>!?[ \t]*$/.test(l)) {
        diagnostics.push({ code: 'bad-argument', severity: 'error', line: i, message: `${l.trim()} needs the file to save the response to`, hint: 'Write >> ./out/response.json (a new file each time) or >>! ./out/response.json (overwritten), relative to this file.' });
        block.error ??= diagnostics[diagnostics.length - 1];
        continue;
      }
      if (/^<>[ \t]/.test(l)) {
        diagnostics.push({ code: 'unsupported-construct', severity: 'warning', line: i, message: 'a response reference (<> previous-response) is not supported and is ignored', hint: 'Remove the line; it only documents a past response.' });
        continue;
      }
      if (handlers.length && !BLANK.test(l) && !COMMENT.test(l)) {
        diagnostics.push({ code: 'ignored-lines', severity: 'warning', line: i, message: 'text after a response handler is ignored', hint: 'Move body text above the handler, or start a new request with ###.' });
        continue;
      }
      if (handlers.length) continue;
      bodyLines.push({ text: l, line: i });
    }
    while (bodyLines.length && BLANK.test(bodyLines[bodyLines.length - 1]!.text)) bodyLines.pop();
    const req: RequestNode = { method, url: url.trim(), line: reqLine, startLine: r.start, endLine: r.end, headers, hooks: asserts };
    if (m[3] ?? lastVersion?.[1]) req.httpVersion = m[3] ?? lastVersion![1];
    if (graphql) req.graphql = true;
    if (grpc) req.grpc = grpcNode(ownGrpc, fileGrpc, directives);
    if (sse) req.stream = 'sse';
    if (websocket) req.websocket = true;
    // A WebSocket request's body is its messages: a `< path` line is a message of its own (stream-messages.ts).
    let body = websocket ? textBodyNode(bodyLines) : bodyNode(bodyLines);
    // httpyac's `# @injectVariables`: a `< file` body gets the `{{...}}` pass, as `<@ file`.
    if (body && directives.some((d) => d.name === 'injectVariables')) {
      if (body.kind === 'file') body = { ...body, substitute: true };
      else if (body.kind === 'parts') body = { ...body, parts: body.parts.map((p) => (p.kind === 'file' ? { ...p, substitute: true } : p)) };
    }
    if (body) req.body = body;
    const nameDir = [...directives].reverse().find((d) => d.name === 'name');
    const name = nameDir?.value || r.name;
    if (name) {
      req.name = name.split(/\s+/)[0];
      if (req.name !== name) req.title = name;
    }
    if (directives.length) req.directives = directives;
    if (handlers.length) req.handlers = handlers;
    if (saves.length) req.saveResponse = saves;
    if (preScripts.length) req.preScripts = preScripts;
    for (const d of directives) {
      if (d.name === 'retry' && d.value !== '' && !/^\d+$/.test(d.value)) {
        diagnostics.push({ code: 'bad-argument', severity: 'error', line: d.line, message: `# @retry ${d.value}: the value must be a number of retries`, hint: 'Write # @retry (the --retry count) or # @retry 3.' });
      }
      if (!KNOWN_DIRECTIVES.has(d.name)) {
        diagnostics.push({ code: 'unsupported-construct', severity: 'warning', line: d.line, message: `directive @${d.name} is not supported and has no effect`, hint: 'See docs/http-files.md for the supported # @ directives.' });
      }
    }
    if (!block.error) {
      block.request = req;
      requests.push(req);
    }
  }
  return { syntax: 'http', vars, requests, blocks, diagnostics, lineCount: n };
}

/**
 * The script of a `{% ... %}` block that starts on line `at` (1-based) with `first` after its
 * `{%`: its text up to `%}`, the line holding `%}` (or `end` when it is missing) and whether it
 * was closed.
 */
function readScript(lines: string[], at: number, end: number, first: string): { source: string; end: number; closed: boolean } {
  let src = first;
  let i = at;
  for (;;) {
    const k = src.indexOf('%}');
    if (k >= 0) return { source: src.slice(0, k), end: i, closed: true };
    if (i >= end) return { source: src, end: i, closed: false };
    i++;
    src += '\n' + lines[i - 1]!;
  }
}

