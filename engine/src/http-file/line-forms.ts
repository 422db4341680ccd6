/**
 * The line forms of a `.http` file, one test each, read by the parser (parse.ts): the `###`
 * separator, comments, directives, file variables, headers, URL continuation lines (VS Code REST
 * Client's `?`/`&` lines, httpyac's `/`, JetBrains' indented lines and multi-line queries),
 * httpyac's `??` assertions and recorded responses, kulala's `run`/`import` lines, a pre-request
 * script file, and the request line split into method, URL and version. Pure.
 */
import { HTTP_VERSION } from '../sheet/parse.js';

export const SEPARATOR = /^###(.*)$/;
export const COMMENT = /^[ \t]*(#|\/\/)/;
export const DIRECTIVE = /^[ \t]*(?:#|\/\/)[ \t]*@([A-Za-z][\w-]*)(?:[ \t]*=?[ \t]*(.*?))?[ \t]*$/;
export const FILE_VAR = /^[ \t]*@([A-Za-z_][\w.-]*)[ \t]*=[ \t]*(.*?)[ \t]*$/;
export const HEADER = /^[ \t]*([^\s:]+)[ \t]*:[ \t]*(.*?)[ \t]*$/;
/** An RFC 9110 token (section 5.6.2), what a header name is made of, or a `{{name}}` reference. */
export const TOKEN = /^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]|\{\{[^{}]*\}\})+$/;
export const URL_PART = /^[ \t]*(?:\?(?!\?)|&|\/(?!\/))/;
/**
 * httpyac's assertion line `?? status == 200` (its guide, "Assert"), anywhere in a request's
 * block: a hook named `??` (../hooks/httpyac-assert.ts), never the body or the URL.
 */
export const ASSERT_LINE = /^[ \t]*\?\?(?:[ \t]+(.*?))?[ \t]*$/;

/**
 * Whether a line right after the request line (or after another such line) continues its URL:
 * a line starting with `?` or `&` (VS Code REST Client's query lines), with `/` (httpyac), or
 * any indented line that is not a header (JetBrains: "break long request lines into multiple
 * lines by indenting all lines except the first one"). Joined to the URL trimmed, without blanks.
 */
export function urlContinues(l: string): boolean {
  if (URL_PART.test(l)) return true;
  return /^[ \t]+\S/.test(l) && !COMMENT.test(l) && !HEADER.test(l);
}
export const BLANK = /^[ \t]*$/;
/**
 * Whether line `l` goes on with a query string that ends in `&` or `?` (`?page=0&` then
 * `size=10`, indented or not: JetBrains' multi-line query, httpyac reads it so): a line that is
 * no blank, comment, header (an RFC 9110 token before `:`) or body start (`{`, `[`, `<`).
 */
export function queryGoesOn(url: string, l: string): boolean {
  if (!/[?&][ \t]*$/.test(url) || BLANK.test(l) || COMMENT.test(l) || /^[ \t]*[{[<>]/.test(l)) return false;
  const h = HEADER.exec(l);
  return !(h && TOKEN.test(h[1]!));
}
/**
 * A response that httpyac records below its request (`HTTP/2.0 200 - - - OK`, headers, body):
 * it ends the request's body, and the lines down to the next `###` are passed over.
 */
export const RECORDED_RESPONSE = /^HTTP\/\d(?:\.\d)?[ \t]+\d{3}\b/;
/**
 * kulala.nvim's `run #Name`, `run ./other.http`, `import ./other.http` lines before a request
 * line: not a request line (`run` is no method), so they are named and passed over.
 */
export const KULALA_COMMAND = /^(run|import)[ \t]+(?:#|\.{0,2}\/|\S+\.(?:http|rest)\b)/;
/** `< ./script.js` above the request line: a JetBrains pre-request script file. */
export const PRE_SCRIPT_FILE = /^<[ \t]+(\S.*?)[ \t]*$/;

/**
 * `[METHOD] URL [HTTP/x.y]` split into [all, method?, url, version?] (a regex with a lazy URL
 * group backtracks on every character; this does not).
 */
export function requestLine(raw: string): [string, string | undefined, string, string | undefined] {
  const t = raw.trim();
  let rest = t;
  let version: string | undefined;
  const v = HTTP_VERSION.exec(rest);
  if (v) {
    version = v[1];
    rest = rest.slice(0, v.index);
  }
  const w = /^([A-Za-z]+(?:-[A-Za-z]+)*)[ \t]+/.exec(rest);
  if (w && rest.length > w[0].length) return [t, w[1], rest.slice(w[0].length), version];
  return [t, undefined, rest, version];
}
