/**
 * A curl command line -> a sheet request (docs/sheet-format.md): what people paste from a
 * browser's "Copy as cURL" or from API docs. The words are split by the shell-style splitter
 * (words.ts: quotes, `$'...'`, line continuations), the options read by the curl option table
 * (options.ts), and curl's defaults (implied method, the data Content-Type, -u, -b) come from
 * rules.ts, the same rules toCurl writes with, so sheet -> curl -> sheet gives the request back.
 * What a sheet cannot say (multipart -F, -k, --max-time, a proxy, ...) is named in a warning,
 * never dropped silently; what would change the request is an error. See docs/sheet-format.md,
 * "Importing curl command lines".
 */
import { EngineError } from '../errors.js';
import type { Header } from '../model.js';
import { METHODS } from '../sheet/parse.js';
import { emptyOptions, parseCurlOptions, splitCurlArgs, type CurlArg, type DataPart } from './options.js';
import { appendQuery, basicAuthHeader, COMPRESSED_ACCEPT_ENCODING, cookieHeader, dataContentType, hasHeader, impliedMethod, uploadUrl, urlCredentials, urlencodeData } from './rules.js';
import { cutShellTail } from './shell-tail.js';
import { shorthandFromCurl } from './auth-shorthand.js';
import { dropUnsendable } from './unsendable.js';
import { targetDifference, urlGlob } from './url-check.js';
import { splitShellWords } from './words.js';

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
  /** `METHOD URL`, `Name: value` lines, an empty line and the body (or `< file`); ends with a newline. */
  text: string;
  warnings: CurlImportWarning[];
}

/** Options that only change what curl prints, or that the engine does by default (-L). */
const NO_EFFECT = new Set(['silent', 'show-error', 'verbose', 'include', 'location', 'progress-bar', 'no-progress-meter', 'basic']);
/** Options the engine performs in the shell but a sheet request cannot say. */
const NO_SHEET_EQUIVALENT = new Set(['insecure', 'max-time', 'max-redirs', 'output', 'cookie-jar', 'junk-session-cookies', 'proxy', 'noproxy', 'proxy-user', 'cacert']);
/**
 * Options that leave the request as curl sends it (curl's manual: they change where the
 * response goes, what is printed, TLS checks, timeouts, retries, the IP family): a note, not a
 * difference. Any option not named here, and not converted, counts as a difference.
 */
const SAME_REQUEST = new Set([
  'insecure', 'max-time', 'max-redirs', 'output', 'cookie-jar', 'junk-session-cookies', 'cacert', 'capath', 'no-buffer', 'fail', 'fail-with-body',
  'fail-early', 'write-out', 'dump-header', 'connect-timeout', 'retry', 'retry-delay', 'retry-max-time', 'retry-all-errors',
  'retry-connrefused', 'remote-name', 'remote-header-name', 'remote-name-all', 'create-dirs', 'output-dir', 'http1.1', 'ipv4',
  'ipv6', 'tcp-nodelay', 'tcp-fastopen', 'keepalive-time', 'no-keepalive', 'max-filesize', 'limit-rate', 'trace', 'trace-ascii',
  'trace-time', 'stderr', 'remote-time', 'styled-output', 'no-styled-output', 'disable', 'raw', 'no-sessionid', 'tlsv1',
  'tlsv1.0', 'tlsv1.1', 'tlsv1.2', 'tlsv1.3', 'tls-max', 'ciphers', 'tls13-ciphers', 'cert-status', 'pinnedpubkey', 'ssl-no-revoke',
  'etag-save', 'speed-limit', 'speed-time', 'parallel', 'parallel-max', 'rate', 'xattr', 'libcurl', 'suppress-connect-headers',
]);
/** Options about the authentication scheme of -u: the sheet writes only Basic. */
const AUTH_SCHEMES = new Set(['digest', 'ntlm', 'negotiate', 'anyauth', 'ntlm-wb']);
/** restclient-header-regexp's name (sheet/parse.ts HEADER_LINE). */
const SHEET_HEADER_NAME = /^[^\](),/:;@[\\{}= \t]+$/;

const bad = (message: string, hint: string) => new EngineError('bad-argument', message, { hint });

/**
 * Convert one curl command line into a sheet request.
 *
 * Converted: the URL (positional or `--url`; no scheme means `http://`, as curl), `-X`, `-I`
 * (HEAD), `-G` (data into the query string), `-H` (`Name;` = empty value, `Name:` = a header
 * curl would add is not sent), `-d`/`--data`/`--data-ascii`/`--data-raw`/`--data-binary`/
 * `--data-urlencode` (joined with `&` as curl does; `@file` becomes a `< file` body), `--json`
 * (with curl's Content-Type and Accept), `-u user:pass` (Authorization: Basic, RFC 7617),
 * `-b name=value` (Cookie), `-A` (User-Agent), `-e` (Referer), `--oauth2-bearer` (Authorization:
 * Bearer), `-r` (Range), `-T FILE` (PUT with a `< FILE` body), `--compressed` (curl's
 * Accept-Encoding), credentials in the URL (Basic). Dropped without a word: `-s -S -v -i -L
 * --basic` (output only, or what the engine does anyway); `-g`/`--globoff` turns the URL glob
 * check off. A pasted shell tail (`| jq .`, `> out.json`) is dropped with a note. Everything
 * else is a warning naming the option, `differs` when the request sent is not curl's (`-F`: the
 * sheet format has no multipart body, so the request gets no body; a URL the sheet would
 * percent-encode; a shell variable), a note when it is (`-k`, `-o`, `--max-time`). A URL glob
 * (`[1-3]`, `{a,b}`) is an error (curl makes several requests).
 *
 * @param commandLine `curl ...` as typed in bash, possibly over several lines joined by `\`.
 * @returns the sheet text and the warnings.
 * @throws EngineError `bad-argument` when the text is not a curl command, has no URL or an
 *   unbalanced quote, or holds a request the sheet format cannot write (a body line starting
 *   with `#`, a carriage return, a header name the sheet does not read, two URLs);
 *   `bad-option` for a method the sheet does not know or an option missing its argument.
 */
export function curlToSheet(commandLine: string): CurlImport {
  const warnings: CurlImportWarning[] = [];
  const warn = (message: string) => warnings.push({ message, differs: true });
  const note = (message: string) => warnings.push({ message, differs: false });
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
  if (tail.dropped) note(`${tail.dropped}: not part of the curl command (the shell's pipe, redirection or list around it); dropped`);
  for (const e of tail.expansions) {
    warn(`${e}: bash would expand this (a variable or a command) before curl sees it; the sheet request holds the text as written, replace it with the value or a sheet variable`);
  }
  for (const w of tail.bareAmpersands) {
    warn(`${w}: an unquoted & (bash would run curl in the background with this word cut at the first &); imported as the whole word, as if quoted '${w}'`);
  }
  const { options, positional } = splitCurlArgs(words.slice(1));

  const urls = [...positional];
  const known: string[] = [];
  const forms: CurlArg[] = [];
  const extraHeaders: Header[] = [];
  let authScheme: string | undefined;
  let globoff = false;
  for (const o of options) {
    if (o.name === 'url') urls.push(o.arg!);
    else if (o.name === 'globoff') globoff = true;
    else if (o.name === 'form' || o.name === 'form-string') forms.push(o);
    else if (o.name === 'oauth2-bearer') extraHeaders.push(['Authorization', `Bearer ${o.arg!}`]);
    // curl's manual, -r: over HTTP the range goes as "Range: bytes=RANGE", as written.
    else if (o.name === 'range') extraHeaders.push(['Range', `bytes=${o.arg!}`]);
    else if (AUTH_SCHEMES.has(o.name)) authScheme = o.written;
    else if (NO_EFFECT.has(o.name)) continue;
    else if (o.name === 'cookie' && !o.arg!.includes('=')) warn(`${o.written} ${o.arg}: cookies from a file are not carried over; the sheet sends the cookies of its own jar (\`sheet run --cookie-jar ${o.arg}\` reads and writes that file, Netscape format as curl's)`);
    else if (o.name === 'netrc' || o.name === 'netrc-file' || o.name === 'netrc-optional') {
      warn(`${o.written}${o.arg !== undefined ? ` ${o.arg}` : ''}: not carried over, a sheet request has no line for it (in Emacs set sheet-netrc; sheet run --netrc or --netrc-file)`);
    } else if (o.known && !NO_SHEET_EQUIVALENT.has(o.name)) known.push(o.written, ...(o.arg !== undefined ? [o.arg] : []));
    else {
      const what = `${o.written}${o.arg !== undefined ? ` ${o.arg}` : ''}`;
      if (SAME_REQUEST.has(o.name)) note(`${what}: not carried over (it changes what curl does with the response or the connection, not the request)`);
      else warn(`${what}: not carried over, a sheet request has no equivalent`);
    }
  }
  if (urls.length === 0) throw bad('the curl command has no URL', 'Add the URL, e.g. curl https://host/path.');
  if (urls.length > 1) throw bad(`the curl command has ${urls.length} URLs (${urls.join(', ')}); a sheet request has one`, 'Import one URL at a time.');

  const opts = parseCurlOptions(known, emptyOptions());

  const glob = globoff ? undefined : urlGlob(urls[0]!);
  if (glob) {
    throw bad(`the URL holds the glob ${glob}: curl sends one request per value (and {KEY} as KEY, without braces); a sheet request is one request`, 'Write one curl command per URL, or add -g (--globoff) when the brackets or braces are meant as written.');
  }
  const credentials = urlCredentials(sheetUrl(urls[0]!));
  let url = credentials.url;
  const sendable = dropUnsendable(opts.headers);
  for (const l of sendable.left) warnings.push({ message: l.message, differs: l.differs });
  const headers: Header[] = [...sendable.kept];
  const has = (name: string) => hasHeader(headers, name) || opts.removeHeaders.includes(name);
  if (opts.removeHeaders.includes('host')) warn('-H "Host:": curl sends no Host header; the engine always sends one (HTTP/1.1 requires it, RFC 9112 section 3.2)');
  const data = dataBody(opts.data, warn, note);
  const { body, json } = data;
  let file = data.file;
  let hasBody = body !== undefined || file !== undefined;
  const upload = opts.uploadFile;
  if (upload !== undefined) {
    if (upload === '-' || upload === '.') throw bad(`-T ${upload}: the body is read from standard input, which a sheet cannot`, 'Save the body to a file and write -T file.');
    if (hasBody || forms.length) throw bad(`-T ${upload} with data: curl sends the file and no data; a sheet request has one body`, 'Keep either -T or the data options.');
    const glob = /\[[^\]]*\]|\{[^}]*\}/.exec(upload);
    if (glob && !globoff) throw bad(`-T ${upload}: the file name holds the glob ${glob[0]}: curl uploads one file per value; a sheet request has one body`, 'Write one curl command per file, or add -g (--globoff) when the name is meant as written.');
    if (!/^[^<>\n\r]*[^<>\s]$/.test(upload.trimStart())) throw bad(`-T ${upload}: a sheet file body cannot name this file (it holds < > or a line break, or ends with a blank)`, 'Rename the file.');
    url = uploadUrl(url, upload);
    file = upload;
    hasBody = true;
    if (!/^([/~]|[A-Za-z]:[\\/])/.test(upload)) note(`-T ${upload}: the sheet reads ${upload} relative to the sheet file's directory (curl: the current directory)`);
    note(`-T ${upload}: curl also sends "Expect: 100-continue" and waits for the server's 100 before the body; the sheet sends the same body at once`);
  }
  if (forms.length) {
    warn(`${forms.map((f) => `${f.written} ${f.arg}`).join(', ')}: multipart/form-data cannot be written in a sheet (no multipart body); the request has no body`);
  }
  if (opts.get && hasBody) {
    if (file !== undefined) throw bad(`-G with @${file}: the data of a file cannot go into the query string of a sheet request`, 'Write the query into the URL.');
    url = appendQuery(url, body!);
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
      const variable = /\$(\{?[A-Za-z_][A-Za-z0-9_]*\}?|\()/.exec(user);
      if (variable) warn(`${userSource}: ${variable[0]}${variable[0].endsWith('(') ? '...)' : ''} is expanded by the shell, not by the import: the Authorization header below encodes the text "${user}" as written; put the value in its place`);
      headers.push(basicAuthHeader(user));
    }
  }
  if (opts.compressed && !has('accept-encoding')) {
    headers.push(['Accept-Encoding', COMPRESSED_ACCEPT_ENCODING]);
    note(`--compressed: written as curl 7.88 sends it (Accept-Encoding: ${COMPRESSED_ACCEPT_ENCODING}); the engine decodes gzip, deflate and br, a zstd response is shown as received`);
  }
  for (const h of extraHeaders) if (!has(h[0].toLowerCase())) headers.push(h);
  if (hasBody && upload === undefined && !has('content-type')) headers.push(['Content-Type', dataContentType(json)]);
  if (json && !has('accept')) headers.push(['Accept', 'application/json']);
  if (opts.cookieStrings.length && !has('cookie')) headers.push(cookieHeader(opts.cookieStrings));

  const target = targetDifference(url);
  if (target) {
    warn(`the URL: curl sends the request target ${target.curl} as written, the sheet sends ${target.sheet} (a sheet URL is percent-encoded as WHATWG URLs are, and an empty ? is not sent)`);
  }
  const lines = [`${method} ${url}`];
  for (const [n, v] of headers) {
    if (!SHEET_HEADER_NAME.test(n)) throw bad(`header name ${JSON.stringify(n)}: a sheet header name cannot hold blanks or ( ) , / : ; @ [ \\ ] { } =`, 'Rename the header or send this request with curl.');
    if (/[\r\n]/.test(v)) throw bad(`header ${n}: its value holds a line break, which a sheet header cannot`, 'Remove the line break from the value.');
    lines.push(v === '' ? `${n}:` : `${n}: ${v.replace(/^[ \t]+/, '')}`);
  }
  if (hasBody && file !== undefined) lines.push('', `< ${file}`);
  else if (hasBody && body !== '') lines.push('', ...sheetBody(body!));
  return { text: lines.join('\n') + '\n', warnings };
}

/** curl's URL: without a scheme curl uses http://; the sheet needs an absolute http(s) URL. */
function sheetUrl(raw: string): string {
  if (/[\r\n]/.test(raw)) throw bad('the URL holds a line break', 'Remove the line break from the URL.');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(raw);
  if (!scheme) return `http://${raw}`;
  if (!/^https?$/i.test(scheme[1]!)) throw bad(`the URL ${raw} is not http or https; a sheet request sends HTTP`, 'Use an http:// or https:// URL.');
  return raw;
}

/** The data options as curl joins them: text, or one file read as the whole body. */
function dataBody(parts: DataPart[], warn: (m: string) => void, note: (m: string) => void): { body?: string; file?: string; json: boolean } {
  const json = parts.some((p) => p.kind === 'json');
  if (parts.length === 0) return { json };
  const texts: string[] = [];
  const files: string[] = [];
  for (const p of parts) {
    const v = p.value;
    const fromFile = p.kind !== 'raw' && p.kind !== 'urlencode' && v.startsWith('@');
    if (fromFile) {
      if (v === '@-') throw bad(`${optionOf(p)} @-: the body is read from standard input, which a sheet cannot`, 'Save the body to a file and write @file.');
      files.push(v.slice(1));
      if (p.kind === 'data' || p.kind === 'ascii') warn(`${optionOf(p)} ${v}: curl drops the file's line breaks, the sheet's "< file" body sends the file as it is`);
      if (!/^([/~]|[A-Za-z]:[\\/])/.test(v.slice(1))) note(`${optionOf(p)} ${v}: the sheet reads ${v.slice(1)} relative to the sheet file's directory (curl: the current directory)`);
      continue;
    }
    if (p.kind === 'urlencode') {
      const enc = urlencodeData(v);
      if (enc === undefined) throw bad(`--data-urlencode ${v}: the content of a file cannot be url-encoded in a sheet`, 'Encode the file into the text of the option, or the body of the sheet request.');
      texts.push(enc);
    } else texts.push(v);
  }
  if (files.length) {
    if (files.length > 1 || texts.length) throw bad(`the data joins ${files.map((f) => `@${f}`).join(', ')} with other data; a sheet file body is one whole file`, 'Put the whole body into one file and write --data-binary @file.');
    if (!/^[^<>\n\r]*[^<>\s]$/.test(files[0]!.trimStart())) throw bad(`@${files[0]}: a sheet file body cannot name this file (it holds < > or a line break, or ends with a blank)`, 'Rename the file.');
    return { file: files[0]!, json };
  }
  // curl joins data options with '&', except --json ones.
  return { body: texts.join(json ? '' : '&'), json };
}

function optionOf(p: DataPart): string {
  return p.kind === 'data' ? '-d' : p.kind === 'json' ? '--json' : `--data-${p.kind}`;
}

/** The body's sheet lines; the parser drops the last newline, so one more line keeps it. */
function sheetBody(body: string): string[] {
  if (body.includes('\r')) throw bad('the body holds a carriage return, which a sheet body cannot (it reads \\r as a line end)', 'Save the body to a file and write --data-binary @file.');
  const lines = body.split('\n');
  const hash = lines.findIndex((l) => l.startsWith('#'));
  if (hash >= 0) throw bad(`the body's line ${hash + 1} starts with #, which ends a sheet request`, 'Save the body to a file and write --data-binary @file.');
  if (/^<[ \t]*([^<>\n\r]+?)[ \t]*$/.test(lines[0]!)) {
    throw bad('the body starts with "<", which a sheet reads as a file name', 'Save the body to a file and write --data-binary @file.');
  }
  return lines;
}
