/**
 * curl's rules for writing a request as curl options, in one place for every converter: the
 * pasteable command ({@link toCurl}, C-c C-u and the shell's --dry-run), the argument vector of
 * a real curl run ({@link curlArgv}) and, read backwards, the import ({@link curlToSheet}).
 * Source: curl's manual (https://curl.se/docs/manpage.html), options -I, -X, -H and -d.
 */
import type { Header } from '../model.js';
import type { DataPart } from './options.js';

/**
 * The words that give curl the method: `-I` for HEAD (curl's -X HEAD would wait for a body);
 * none when curl picks the method itself (GET without a body, POST with one) unless `always`;
 * else `-X METHOD`.
 */
export function methodWords(method: string, hasBody: boolean, always = false): string[] {
  if (method === 'HEAD') return ['-I'];
  if (!always && impliedMethod(hasBody) === method) return [];
  return ['-X', method];
}

/** The method curl sends when no -X, -I or -G says otherwise: POST with data, else GET. */
export function impliedMethod(hasBody: boolean): 'GET' | 'POST' {
  return hasBody ? 'POST' : 'GET';
}

/**
 * The `-H` argument for one header: `Name: value`, or `Name;` for an empty value (curl's
 * `Name:` would remove the header instead of sending it empty).
 */
export function headerWord([name, value]: Header): string {
  return value === '' ? `${name};` : `${name}: ${value}`;
}

/** The `-H` argument that stops curl sending a header of its own (`Name:` with no value). */
export function removeHeaderWord(name: string): string {
  return `${name}:`;
}

/**
 * Words to add after a `-d`/`--data-binary` body: curl adds `Content-Type:
 * application/x-www-form-urlencoded` to data, so a request whose headers have no Content-Type
 * gets `-H "Content-Type:"` (none sent).
 */
export function bodyContentTypeWords(headers: Header[]): string[] {
  return hasHeader(headers, 'content-type') ? [] : ['-H', removeHeaderWord('Content-Type')];
}

/** The Content-Type curl adds to a body given with -d/--data-* (`--json`: application/json). */
export function dataContentType(json: boolean): string {
  return json ? 'application/json' : 'application/x-www-form-urlencoded';
}

/** Whether `headers` hold `name` (case-insensitive, RFC 9110 section 5.1). */
export function hasHeader(headers: Header[], name: string): boolean {
  const lower = name.toLowerCase();
  return headers.some(([n]) => n.toLowerCase() === lower);
}

/** curl -u user[:password] as the Authorization header it sends (Basic, RFC 7617, UTF-8). */
export function basicAuthHeader(user: string): Header {
  const pair = user.includes(':') ? user : `${user}:`;
  return ['Authorization', `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`];
}

/**
 * Credentials in a URL (`http://user:password@host/path`) as curl reads them (curl's manual,
 * URL syntax; RFC 3986 3.2.1): taken out of the URL, so the request line and the Host header
 * never carry them, and given back percent-decoded as `user:password` (a missing password is
 * empty: `http://u@host` sends `u:`), for {@link basicAuthHeader}. curl's -u and an explicit
 * Authorization header win over them (the caller checks). The userinfo ends at the last `@`
 * before the path, as WHATWG URL parsing reads it.
 * @returns the URL as written without its userinfo, and `user` when it had one.
 */
export function urlCredentials(url: string): { url: string; user?: string } {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i.exec(url);
  if (!m) return { url };
  const decode = (t: string) => {
    try {
      return decodeURIComponent(t);
    } catch {
      return t;
    }
  };
  const info = m[2]!;
  const colon = info.indexOf(':');
  const user = colon < 0 ? `${decode(info)}:` : `${decode(info.slice(0, colon))}:${decode(info.slice(colon + 1))}`;
  return { url: m[1]! + url.slice(m[0].length), user };
}

/**
 * curl -b name=value (several) as a Cookie header, joined by "; " as RFC 6265 section 5.4 asks
 * of user agents (curl 7.88 joins several -b with ";" alone; servers read both the same).
 */
export function cookieHeader(cookies: string[]): Header {
  return ['Cookie', cookies.join('; ')];
}

/**
 * Percent-encoding of --data-urlencode as curl does it: every byte of the UTF-8 text but the
 * unreserved `A-Z a-z 0-9 - . _ ~` as %XX, and a space as `+` (checked against real curl in
 * test/engine/curl-import.test.ts).
 */
export function urlencodeText(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}

/**
 * One --data-urlencode argument as curl sends it, for the forms without a file: `content`,
 * `=content` (content encoded) and `name=content` (content encoded, name as written). Returns
 * undefined for the file forms `@file` and `name@file`, which need the file's bytes.
 */
export function urlencodeData(v: string): string | undefined {
  const eq = v.indexOf('=');
  const at = v.indexOf('@');
  if (eq === 0) return urlencodeText(v.slice(1));
  if (eq > 0 && (at < 0 || eq < at)) return `${v.slice(0, eq)}=${urlencodeText(v.slice(eq + 1))}`;
  if (at >= 0) return undefined;
  return urlencodeText(v);
}

/**
 * The file a data option reads (`-d @file`, `--data-binary @file`, `--json @file`,
 * `--data-urlencode @file` or `name@file`), or undefined when its value is the data itself
 * (`--data-raw` never reads a file: curl's manual, --data-raw). `-` is standard input.
 */
export function dataFile(part: DataPart): string | undefined {
  const v = part.value;
  if (part.kind === 'raw') return undefined;
  if (part.kind === 'urlencode') return urlencodeData(v) === undefined ? v.slice(v.indexOf('@') + 1) : undefined;
  return v.startsWith('@') ? v.slice(1) : undefined;
}

/**
 * The bytes curl sends for a data option that reads the file `bytes` ({@link dataFile}), by
 * curl's manual: `-d`/`--data-ascii @file` drop carriage returns and newlines; `--data-binary`
 * and `--json` send the file as it is; `--data-urlencode @file` the content URL-encoded,
 * `name@file` as `name=` and the encoded content.
 */
export function fileDataBytes(part: DataPart, bytes: Uint8Array): Uint8Array {
  if (part.kind === 'data' || part.kind === 'ascii') return bytes.filter((b) => b !== 0x0d && b !== 0x0a);
  if (part.kind === 'urlencode') {
    const at = part.value.indexOf('@');
    const encoded = urlencodeText(new TextDecoder().decode(bytes));
    return new TextEncoder().encode(at === 0 ? encoded : `${part.value.slice(0, at)}=${encoded}`);
  }
  return bytes;
}

/**
 * Whether options the engine hands to the real curl (`CurlOptions.unknown`) give the request a
 * body of their own: `-F`/`--form`, `--form-string` (multipart) and `--expand-data`. With one
 * of them, or -d, --data-*, --json or -T, the shell verbs do not take standard input as the body
 * (curl never reads stdin unless told: a verb in a `while read` loop or under cron leaves it).
 */
export function otherOptionsGiveBody(unknown: string[]): boolean {
  return unknown.some((w) => w === '--form' || w === '--form-string' || w === '--expand-data' || /^-F/.test(w));
}

/**
 * The data of -G as curl puts it into the query string: every percent escape's hex digits in
 * lower case (`%C3%A9` -> `%c3%a9`, those --data-urlencode wrote and those given as data alike;
 * the URL's own query is left as written). That is what curl 7.88.1 (Debian 12) sends, checked
 * against it in test/shell/curl-habits.bats; curl 8.20 upper-cases them instead (curl issue
 * 21524). A body keeps curl_easy_escape's upper case ({@link urlencodeText}).
 */
export function getQueryData(data: string): string {
  return data.replace(/%[0-9A-Fa-f]{2}/g, (e) => e.toLowerCase());
}

/**
 * Append data to a URL's query string (curl's -G): after `?`, or `&` when the URL has a query
 * already; a `#fragment` is dropped, as curl does not send it.
 */
export function appendQuery(url: string, query: string): string {
  if (query === '') return url;
  const hash = url.indexOf('#');
  const head = hash >= 0 ? url.slice(0, hash) : url;
  // An empty query (`/r?`) is no query to curl: the data follows the `?` with no `&`.
  return head + (head.endsWith('?') ? '' : head.includes('?') ? '&' : '?') + query;
}

/**
 * The Accept-Encoding curl's --compressed sends: every encoding its build decodes, in its order
 * (`curl -v --compressed` of curl 7.88.1 with zlib, brotli and zstd, as Debian 12 builds it).
 */
export const COMPRESSED_ACCEPT_ENCODING = 'deflate, gzip, br, zstd';

/**
 * The URL curl's -T FILE uploads to: when the URL has no file part (its path is empty or ends with
 * `/`), curl appends the file's base name (curl's manual, -T/--upload-file).
 */
export function uploadUrl(url: string, file: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(.*)$/is.exec(url);
  if (!m) return url;
  const path = m[2]!;
  if (path !== '' && !path.endsWith('/')) return url;
  const base = file.split(/[\\/]/).pop()!;
  // curl_easy_escape: every byte but A-Z a-z 0-9 - . _ ~ as %XX.
  const escaped = encodeURIComponent(base).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `${m[1]}${path === '' ? '/' : path}${escaped}${m[3]}`;
}
