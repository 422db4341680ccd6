/**
 * A curl command line -> a sheet request (docs/sheet-format.md): what people paste from a
 * browser's "Copy as cURL" or from API docs. The words are split by the shell-style splitter
 * (words.ts: quotes, `$'...'`, line continuations), the options read by the curl option table
 * (options.ts), and curl's defaults (implied method, the data Content-Type, -u, -b) come from
 * rules.ts, the same rules toCurl writes with, so sheet -> curl -> sheet gives the request back.
 * What a sheet cannot say (--max-time, -o, ...) is named in a note or a warning, never
 * dropped silently; what the sheet format cannot write is an error. See docs/sheet-format.md,
 * "Importing curl command lines".
 */
import { EngineError } from '../errors.js';
import type { Header } from '../model.js';
import { METHODS } from '../sheet/parse.js';
import { sheetBodyLines } from '../sheet/write.js';
import { splitCurlArgs, type CurlArg } from './command-line.js';
import { emptyOptions, parseCurlOptions, type CurlOptions } from './options.js';
import { appendQuery, getQueryData, basicAuthHeader, COMPRESSED_ACCEPT_ENCODING, cookieHeader, dataContentType, hasHeader, impliedMethod, uploadUrl, urlCredentials } from './rules.js';
import { cutShellTail } from './shell-tail.js';
import { shorthandFromCurl } from './auth-shorthand.js';
import { dropUnsendable } from './unsendable.js';
import { expandGlob, MAX_GLOB_REQUESTS, targetDifference } from './url-check.js';
import { splitShellWords } from './words.js';
import { formBoundary, formLines, parseFormArg } from './form.js';
import { isMultipart } from '../sheet/body-parts.js';
import { cookiesOfFile, dataBody, type CurlImportIo } from './import-files.js';
import { basicAuthDeclaration, envDeclaration, isCarried, sheetVariables, withSheetVariables, type SheetVariable } from './shell-vars.js';
import { AS_WRITTEN_TAG, unsendableTarget } from '../url/as-written.js';
import { CONNECTION_TAGS } from '../sheet/connection-tags.js';

export type { CurlFileReader, CurlImportIo } from './import-files.js';

/** A warning of the import: something of the command the sheet request does not carry. */
export interface CurlImportWarning {
  message: string;
  /**
   * The sheet request sends something else than curl would (a header, the target, the body);
   * false for a note that leaves the request as curl sends it (an option about output or TLS).
   */
  differs: boolean;
}

/** The sheet text of the request and what was left out. */
export interface CurlImport {
  /**
   * `METHOD URL`, `Name: value` lines, an empty line and the body (or `< file`); ends with a
   * newline. Several requests (URL globs, several URLs) are separated by `#` lines.
   */
  text: string;
  /** Each request's text, for a caller that separates them otherwise (a `.http` file's `###`). */
  requests: string[];
  warnings: CurlImportWarning[];
}

/** Options that only change what curl prints, or that the engine does by default (-L). */
const NO_EFFECT = new Set(['silent', 'show-error', 'verbose', 'include', 'location', 'progress-bar', 'no-progress-meter', 'basic']);
/** Options the engine performs in the shell but a sheet request cannot say. */
const NO_SHEET_EQUIVALENT = new Set(['max-time', 'connect-timeout', 'max-redirs', 'output', 'cookie-jar', 'junk-session-cookies']);
/**
 * Options that leave the request as curl sends it (curl's manual: they change where the
 * response goes, what is printed, TLS checks, timeouts, retries, the IP family): a note, not a
 * difference. Any option not named here, and not converted, counts as a difference.
 */
const SAME_REQUEST = new Set([
  'max-time', 'max-redirs', 'output', 'cookie-jar', 'junk-session-cookies', 'capath', 'no-buffer', 'fail', 'fail-with-body',
  'fail-early', 'write-out', 'dump-header', 'connect-timeout', 'retry', 'retry-delay', 'retry-max-time', 'retry-all-errors',
  'retry-connrefused', 'remote-name', 'remote-header-name', 'remote-name-all', 'create-dirs', 'output-dir', 'http1.1', 'ipv4',
  'ipv6', 'tcp-nodelay', 'tcp-fastopen', 'keepalive-time', 'no-keepalive', 'max-filesize', 'limit-rate', 'trace', 'trace-ascii',
  'trace-time', 'stderr', 'remote-time', 'styled-output', 'no-styled-output', 'disable', 'raw', 'no-sessionid', 'tlsv1',
  'tlsv1.0', 'tlsv1.1', 'tlsv1.2', 'tlsv1.3', 'tls-max', 'ciphers', 'tls13-ciphers', 'cert-status', 'pinnedpubkey', 'ssl-no-revoke',
  'etag-save', 'speed-limit', 'speed-time', 'parallel', 'parallel-max', 'rate', 'xattr', 'libcurl', 'suppress-connect-headers',
]);
/** Connection options a sheet cannot say, and where to give them instead (docs/networks.md). */
const CONNECTION_ELSEWHERE: Record<string, string> = {
  'cert-type': 'the engine reads PEM certificates',
};
/** Options about the authentication scheme of -u: the sheet writes only Basic. */
const AUTH_SCHEMES = new Set(['digest', 'ntlm', 'negotiate', 'anyauth', 'ntlm-wb']);
/** restclient-header-regexp's name (sheet/parse.ts HEADER_LINE). */
const SHEET_HEADER_NAME = /^[^\](),/:;@[\\{}= \t]+$/;

const bad = (message: string, hint: string) => new EngineError('bad-argument', message, { hint });

/**
 * Convert one curl command line into sheet requests (one, or one per request curl sends).
 *
 * Converted: the URL (positional or `--url`; no scheme means `http://`, as curl; a URL curl
 * sends as written but a sheet would percent-encode gets `# @no-auto-encoding`), `-X`, `-I`
 * (HEAD), `-G` (data into the query string), `-H` (`Name;` = empty value, `Name:` = a header
 * curl would add is not sent), `-d`/`--data`/`--data-ascii`/`--data-raw`/`--data-binary`/
 * `--data-urlencode` (joined with `&` as curl does; `@file` read through `io.readFile` as curl
 * reads it, or a `< file` body), `--json` (with curl's Content-Type and Accept), `-F` /
 * `--form-string` (a multipart body, form.ts), `-u user:pass` (Authorization: Basic, RFC 7617),
 * `-b name=value` and `-b FILE` (Cookie; `-j`), `-A` (User-Agent), `-e` (Referer),
 * `--oauth2-bearer` (Authorization: Bearer), `-r` (Range), `-T FILE` (PUT with a `< FILE`
 * body), `--compressed` (curl's Accept-Encoding), the connection options `-x`, `--noproxy`, `-U`,
 * `-n`, `--netrc-file`, `--netrc-optional`, `--unix-socket`, `--cacert`, `--cert`, `--key`,
 * `--pass`, `-k` (the directives `# @proxy URL`, ... above the request line, named as curl's
 * options: ../sheet/connection-tags.ts), credentials in the URL (Basic), shell
 * variables (`$NAME`, `${NAME%word}`, ...: `:=` variables read from the environment, shell-vars.ts). URL globs and several
 * URLs make several requests. Dropped without a word: `-s -S -v -i -L --basic` (output only,
 * or what the engine does anyway). A pasted shell tail (`| jq .`, `> out.json`) and what an
 * unquoted `&` cuts off are dropped with a note. Everything else is a warning naming the
 * option, `differs` when the request sent is not curl's (a proxy, `$(cmd)`), a note when it is
 * (`-o`, `--max-time`).
 *
 * @param commandLine `curl ...` as typed in bash, possibly over several lines joined by `\`.
 * @param io the caller's file reader (the import does no I/O itself).
 * @returns the sheet text, each request's text and the warnings (each said once).
 * @throws EngineError `bad-argument` when the text is not a curl command, has no URL or an
 *   unbalanced quote, holds a URL glob curl refuses or more than 100 requests, or a request
 *   the sheet format cannot write (a body line starting with `#`, a carriage return, a header
 *   name the sheet does not read);
 *   `bad-option` for a method the sheet does not know or an option missing its argument.
 */
export function curlToSheet(commandLine: string, io: CurlImportIo = {}): CurlImport {
  const warnings: CurlImportWarning[] = [];
  // Each said once, however many requests the command makes.
  const say = (message: string, differs: boolean) => {
    if (!warnings.some((w) => w.message === message)) warnings.push({ message, differs });
  };
  const warn = (message: string) => say(message, true);
  const note = (message: string) => say(message, false);
  const tail = cutShellTail(commandLine.trim());
  let words: string[];
  try {
    words = splitShellWords(tail.command.trim());
  } catch (e) {
    if (e instanceof EngineError) throw bad(`the curl command line has an ${e.message.replace(/ in ".*$/s, '')}`, 'Close every quote (\' " or $\') of the command as bash would need.');
    throw e;
  }
  if (words[0] === '$') words.shift();
  if (words.length === 0 || !/(^|[\\/])curl(\.exe)?$/.test(words[0]!)) {
    throw bad(`not a curl command: it starts with ${JSON.stringify(words[0] ?? '')}`, 'Paste a command line that starts with curl, e.g. curl -H "Accept: application/json" https://host/path.');
  }
  const amp = tail.bareAmpersands[0];
  if (amp !== undefined) {
    const quoted = amp.replace(/^(['"]?)(.*)\1$/, '$2');
    note(`${amp}: an unquoted & ends the command in bash (curl runs in the background, without "${tail.dropped}"): imported as bash runs it; quote the whole word ('${quoted}') to send all of it`);
  } else if (tail.dropped) note(`${tail.dropped}: not part of the curl command (the shell's pipe, redirection or list around it); dropped`);
  // $NAME, ${NAME}, ${NAME%/}, ... become sheet variables read from the environment (shell-vars.ts).
  const vars = sheetVariables(words.slice(1));
  // Only what bash expands: the same text in single quotes is sent as written.
  for (const k of [...vars.keys()]) if (!tail.expansions.some((e) => e === k || (e.startsWith('$(') && k.startsWith(e.slice(0, -4))))) vars.delete(k);
  for (const e of tail.expansions) {
    if (isCarried(e, vars)) note(`${e}: read from the environment when the request is sent, as bash expands it (a := variable evaluated by Emacs)`);
    else warn(`${e}: bash would expand this (a command, or an expansion the import does not read) before curl sees it; the sheet request holds the text as written, replace it with the value or a sheet variable`);
  }
  const split = splitCurlArgs(words.slice(1));
  const positional = split.positional.map((w) => withSheetVariables(w, vars));
  // -u keeps the text: its Basic credentials are built from the variables (basicAuthDeclaration).
  const options = split.options.map((o) => (o.arg === undefined || o.name === 'user' ? o : { ...o, arg: withSheetVariables(o.arg, vars) }));

  const urls = [...positional];
  const known: string[] = [];
  const forms: CurlArg[] = [];
  const extraHeaders: Header[] = [];
  let authScheme: string | undefined;
  let globoff = false;
  const cookieFiles: CurlArg[] = [];
  let junkSession = false;
  let http2 = false;
  const tags = new Map<string, string>();
  for (const o of options) {
    if (o.name === 'url') urls.push(o.arg!);
    // --http2: the request line's `HTTP/2`, which the engine sends as curl's --http2 (docs/networks.md).
    else if (o.name === 'http2') http2 = true;
    // -x, --cacert, -k, --cert, --unix-socket, -n, ...: the request's connection directives (sheet/connection-tags.ts).
    else if (Object.hasOwn(CONNECTION_TAGS, o.name)) {
      const what = `${o.written}${o.arg !== undefined ? ` ${o.arg}` : ''}`;
      // `--noproxy ''` (every host through the proxy, over NO_PROXY) is `# @noproxy ""`.
      const value = o.name === 'noproxy' && o.arg === '' ? '""' : o.arg?.trim();
      if (o.arg !== undefined && (value === '' || /[\r\n]/.test(o.arg))) warn(`${what}: not carried over, a # @${o.name} line cannot hold an empty value or a line break`);
      else {
        // A shell variable is a sheet variable here (`-x "$PROXY"`: `# @proxy :PROXY`), substituted as a header's.
        tags.delete(o.name); // the last one wins, as in curl
        tags.set(o.name, `# @${o.name}${value !== undefined ? ` ${value}` : ''}`);
        if (CONNECTION_TAGS[o.name as keyof typeof CONNECTION_TAGS].file && split.options[options.indexOf(o)]?.arg === o.arg && !/^([/~]|[A-Za-z]:[\\/])/.test(o.arg!)) note(`${what}: the sheet reads ${o.arg} relative to the sheet file's directory (curl: the current directory)`);
      }
    } else if (o.name === 'cert-type' && o.arg?.toUpperCase() === 'PEM') continue;
    else if (CONNECTION_ELSEWHERE[o.name]) warn(`${o.written}${o.arg !== undefined ? ` ${o.arg}` : ''}: not carried over, a sheet request has no line for it (${CONNECTION_ELSEWHERE[o.name]})`);
    else if (o.name === 'globoff') globoff = true;
    else if (o.name === 'form' || o.name === 'form-string') forms.push(o);
    else if (o.name === 'oauth2-bearer') extraHeaders.push(['Authorization', `Bearer ${o.arg!}`]);
    // curl's manual, -r: over HTTP the range goes as "Range: bytes=RANGE", as written.
    else if (o.name === 'range') extraHeaders.push(['Range', `bytes=${o.arg!}`]);
    else if (AUTH_SCHEMES.has(o.name)) authScheme = o.written;
    else if (NO_EFFECT.has(o.name)) continue;
    else if (o.name === 'cookie' && !o.arg!.includes('=')) cookieFiles.push(o);
    else if (o.name === 'junk-session-cookies') {
      junkSession = true;
      note(`${o.written}: carried: the session cookies of a -b FILE are not written`);
    } else if (o.known && !NO_SHEET_EQUIVALENT.has(o.name)) known.push(o.written, ...(o.arg !== undefined ? [o.arg] : []));
    else {
      const what = `${o.written}${o.arg !== undefined ? ` ${o.arg}` : ''}`;
      if (SAME_REQUEST.has(o.name)) note(`${what}: not carried over (it changes what curl does with the response or the connection, not the request)`);
      else warn(`${what}: not carried over, a sheet request has no equivalent`);
    }
  }
  if (urls.length === 0) throw bad('the curl command has no URL', 'Add the URL, e.g. curl https://host/path.');

  const opts = parseCurlOptions(known, emptyOptions());
  const upload = opts.uploadFile;
  if (upload !== undefined && urls.length > 1) throw bad(`-T ${upload} with ${urls.length} URLs: curl uploads to the first URL only`, 'Import one URL at a time.');
  // curl's globbing: one request per value, uploads (-T) outer, URLs inner (curl's manual, -g).
  const globbed = (text: string, what: string): string[] => {
    if (globoff) return [text];
    const g = expandGlob(text);
    if (!Array.isArray(g)) throw bad(`${what} ${text}: curl refuses it (exit 3: ${g.error}) and sends no request`, 'Add -g (--globoff) to send brackets and braces as written, as the docs most likely meant, or escape them as \\[ \\].');
    return g;
  };
  const targets = (upload === undefined ? [undefined] : globbed(upload, '-T')).flatMap((file) => urls.flatMap((u) => globbed(u, 'the URL')).map((url) => ({ url, file })));
  if (targets.length > MAX_GLOB_REQUESTS) throw bad(`the command makes ${targets.length} requests; the import writes at most ${MAX_GLOB_REQUESTS}`, 'Import a smaller range.');
  const used = (n: string) => options.some((o) => o.arg?.includes(`:${n}`)) || positional.some((w) => w.includes(`:${n}`));
  const declarations = [...vars.values()].filter((v) => used(v.name)).map(envDeclaration);
  const ctx: RequestContext = { opts, forms, extraHeaders, authScheme, cookieFiles, junkSession, http2, tags: [...tags.values()], io, warn, note, vars, declarations };
  const requests = targets.map((t) => requestText(t.url, t.file, ctx));
  // The variables are declared once, above the first request (the later ones see them too).
  if (ctx.declarations.length) requests[0] = requests[0]!.replace(/^((?:# .*\n)*)/, (tags) => `${tags}${ctx.declarations.join('\n')}\n`);
  if (requests.length > 1) note(`curl sends ${requests.length} requests (${globoff ? 'one per URL' : 'its URL globs expanded'}): written as ${requests.length} sheet requests, run in order by sheet run`);
  return { text: requests.join('#\n'), requests, warnings };
}

/** The options of a command, for each of its requests. */
interface RequestContext {
  opts: CurlOptions;
  forms: CurlArg[];
  extraHeaders: Header[];
  authScheme?: string;
  cookieFiles: CurlArg[];
  junkSession: boolean;
  /** --http2: written as `HTTP/2` at the end of the request line. */
  http2: boolean;
  /** The connection directives of -x, --cacert, -k, ... (`# @proxy URL`), above the request line. */
  tags: string[];
  io: CurlImportIo;
  warn: (m: string) => void;
  note: (m: string) => void;
  /** Plain shell variables of the command (shell-vars.ts), and the sheet declarations written for them. */
  vars: Map<string, SheetVariable>;
  declarations: string[];
}

/** One request of the command: to `rawUrl`, uploading `upload` (-T) when given. */
function requestText(rawUrl: string, upload: string | undefined, ctx: RequestContext): string {
  const { opts, forms, extraHeaders, authScheme, cookieFiles, junkSession, http2, io, warn, note } = ctx;
  const credentials = urlCredentials(sheetUrl(rawUrl));
  let url = credentials.url;
  const sendable = dropUnsendable(opts.headers);
  for (const l of sendable.left) (l.differs ? warn : note)(l.message);
  const headers: Header[] = [...sendable.kept];
  const has = (name: string) => hasHeader(headers, name) || opts.removeHeaders.includes(name);
  if (opts.removeHeaders.includes('host')) warn('-H "Host:": curl sends no Host header; the engine always sends one (HTTP/1.1 requires it, RFC 9112 section 3.2)');
  const data = dataBody(opts.data, warn, note, io.readFile);
  const { body, json } = data;
  let file = data.file;
  let hasBody = body !== undefined || file !== undefined;
  if (upload !== undefined) {
    if (upload === '-' || upload === '.') throw bad(`-T ${upload}: the body is read from standard input, which a sheet cannot`, 'Save the body to a file and write -T file.');
    if (hasBody || forms.length) throw bad(`-T ${upload} with data: curl sends the file and no data; a sheet request has one body`, 'Keep either -T or the data options.');
    if (!/^[^<>\n\r]*[^<>\s]$/.test(upload.trimStart())) throw bad(`-T ${upload}: a sheet file body cannot name this file (it holds < > or a line break, or ends with a blank)`, 'Rename the file.');
    url = uploadUrl(url, upload);
    file = upload;
    hasBody = true;
    if (!/^([/~]|[A-Za-z]:[\\/])/.test(upload)) note(`-T ${upload}: the sheet reads ${upload} relative to the sheet file's directory (curl: the current directory)`);
    note(`-T ${upload}: curl also sends "Expect: 100-continue" and waits for the server's 100 before the body; the sheet sends the same body at once`);
  }
  let formBody: string[] | undefined;
  if (forms.length) {
    if (hasBody) throw bad(`${forms[0]!.written} with data: curl refuses to send both (-F is a multipart POST, -d a form POST)`, 'Keep either -F or the data options.');
    if (opts.get) throw bad(`${forms[0]!.written} with -G: curl refuses to send both`, 'Keep either -F or -G.');
    const parts = forms.map((f) => parseFormArg(f.written, f.arg!, f.name === 'form-string'));
    for (const p of parts) {
      for (const k of p.skipped) note(`${p.written}: ;${k} is skipped, as curl skips an unknown form parameter`);
      if (p.kind !== 'text' && !/^([/~]|[A-Za-z]:[\\/])/.test(p.value)) note(`${p.written}: the sheet reads ${p.value} relative to the sheet file's directory (curl: the current directory)`);
    }
    // curl's Content-Type: multipart/form-data, or the -H one (another multipart type makes its
    // parts "attachment"s), with the boundary appended.
    const given = headers.findIndex(([n]) => n.toLowerCase() === 'content-type');
    const type = given >= 0 ? headers[given]![1] : 'multipart/form-data';
    if (!isMultipart(type) || opts.removeHeaders.includes('content-type')) throw bad(`${forms[0]!.written} with the Content-Type ${given >= 0 ? type : '(removed)'}: curl sends its multipart body under it, which a sheet multipart body cannot`, 'Remove the -H Content-Type option, or give a multipart type.');
    const boundary = formBoundary();
    const contentType: Header = ['Content-Type', `${type}; boundary=${boundary}`];
    if (given >= 0) headers[given] = contentType;
    else headers.push(contentType);
    formBody = formLines(parts, boundary, /^\s*multipart\/form-data\b/i.test(type) ? 'form-data' : 'attachment');
  }
  if (opts.get && hasBody) {
    if (file !== undefined) throw bad(`-G with @${file}: the data of a file cannot go into the query string of a sheet request`, 'Write the query into the URL.');
    url = appendQuery(url, getQueryData(body!));
    hasBody = false;
  }
  let method = opts.method ?? (opts.head ? 'HEAD' : upload !== undefined ? 'PUT' : opts.get ? 'GET' : forms.length ? 'POST' : impliedMethod(hasBody));
  if (!(METHODS as readonly string[]).includes(method)) {
    if ((METHODS as readonly string[]).includes(method.toUpperCase())) {
      warn(`-X ${method}: written as ${method.toUpperCase()} (sheet methods are upper case)`);
      method = method.toUpperCase();
    } else {
      throw new EngineError('bad-option', `-X ${method}: a sheet request cannot use this method`, { hint: `Use one of ${METHODS.join(', ')}.` });
    }
  }
  // -u beats credentials in the URL (curl's manual, -u); the URL never sends them.
  const user = opts.user ?? credentials.user;
  const userSource = opts.user !== undefined ? `-u ${opts.user}` : `the URL's user ${credentials.user}`;
  // --digest / --aws-sigv4 with -u: VS Code REST Client's Authorization lines (auth-shorthand.ts).
  const scheme = opts.awsSigv4 !== undefined ? 'aws-sigv4' : authScheme === '--digest' ? 'digest' : undefined;
  if (opts.awsSigv4 !== undefined && user === undefined) warn(`--aws-sigv4 ${opts.awsSigv4}: no -u KEY:SECRET, nothing to sign with; no Authorization header was written`);
  if (user !== undefined && !has('authorization') && scheme) {
    const line = shorthandFromCurl(scheme, user, opts.awsSigv4);
    if ('value' in line) headers.push(['Authorization', line.value]);
    else warn(`--${scheme} ${userSource}: ${line.reason}; no Authorization header was written`);
  } else if (user !== undefined && !has('authorization')) {
    if (authScheme) warn(`${authScheme} ${userSource}: only Basic authentication can be written as a header; no Authorization header was written`);
    else {
      if (opts.user !== undefined && !opts.user.includes(':')) warn(`-u ${opts.user}: no password given (curl would ask for it); written with an empty password`);
      const fromEnv = basicAuthDeclaration('basic-auth', user, ctx.vars);
      const variable = /\$(\{?[A-Za-z_][A-Za-z0-9_]*\}?|\()/.exec([...ctx.vars.keys()].reduce((u, k) => u.split(k).join(''), user));
      if (variable) warn(`${userSource}: ${variable[0]}${variable[0].endsWith('(') ? '...)' : ''} is expanded by the shell, not by the import: the Authorization header below encodes the text "${user}" as written; put the value in its place`);
      if (fromEnv && !variable) {
        if (!ctx.declarations.includes(fromEnv)) ctx.declarations.push(fromEnv);
        headers.push(['Authorization', 'Basic :basic-auth']);
      } else headers.push(basicAuthHeader(user));
    }
  }
  if (opts.compressed && !has('accept-encoding')) {
    headers.push(['Accept-Encoding', COMPRESSED_ACCEPT_ENCODING]);
    note(`--compressed: written as curl 7.88 sends it (Accept-Encoding: ${COMPRESSED_ACCEPT_ENCODING}); the engine decodes gzip, deflate and br, a zstd response is shown as received`);
  }
  for (const h of extraHeaders) if (!has(h[0].toLowerCase())) headers.push(h);
  if (hasBody && upload === undefined && !has('content-type')) headers.push(['Content-Type', dataContentType(json)]);
  if (json && !has('accept')) headers.push(['Accept', 'application/json']);
  const fileCookies = cookieFiles.flatMap((o) => cookiesOfFile(o, url, junkSession, io.readFile, warn, note));
  if ((opts.cookieStrings.length || fileCookies.length) && !has('cookie')) headers.push(cookieHeader([...opts.cookieStrings, ...fileCookies]));

  // curl sends the target as written; a sheet request says so with its tag (url/as-written.ts).
  const target = targetDifference(url);
  const unsendable = target && unsendableTarget(target.curl);
  if (unsendable) warn(`${unsendable}: curl sends ${target.curl}, the sheet sends ${target.sheet} (percent-encoded as WHATWG URLs are)`);
  const lines = [...ctx.tags, ...(target && !unsendable ? [`# @${AS_WRITTEN_TAG}`] : []), `${method} ${url}${http2 ? ' HTTP/2' : ''}`];
  for (const [n, v] of headers) {
    if (!SHEET_HEADER_NAME.test(n)) throw bad(`header name ${JSON.stringify(n)}: a sheet header name cannot hold blanks or ( ) , / : ; @ [ \\ ] { } =`, 'Rename the header or send this request with curl.');
    if (/[\r\n]/.test(v)) throw bad(`header ${n}: its value holds a line break, which a sheet header cannot`, 'Remove the line break from the value.');
    lines.push(v === '' ? `${n}:` : `${n}: ${v.replace(/^[ \t]+/, '')}`);
  }
  if (formBody) lines.push('', ...formBody);
  else if (hasBody && file !== undefined) lines.push('', `< ${file}`);
  else if (hasBody && body !== '') lines.push('', ...sheetBodyLines(body!, 'Save the body to a file and write --data-binary @file.'));
  return lines.join('\n') + '\n';
}

/** curl's URL: without a scheme curl uses http://; the sheet needs an absolute http(s) URL. */
function sheetUrl(raw: string): string {
  if (/[\r\n]/.test(raw)) throw bad('the URL holds a line break', 'Remove the line break from the URL.');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(raw);
  // A URL from a shell variable (`:LOKI_URL/push`) has its scheme in the variable's value.
  if (!scheme) return raw.startsWith(':') ? raw : `http://${raw}`;
  if (!/^https?$/i.test(scheme[1]!)) throw bad(`the URL ${raw} is not http or https; a sheet request sends HTTP`, 'Use an http:// or https:// URL.');
  return raw;
}
