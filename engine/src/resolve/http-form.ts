/**
 * `application/x-www-form-urlencoded` bodies of `.http` files as people write them: broken over
 * lines (`&scope=openid` on the next line), with blanks around `=` and `&`
 * (`grant_type = password`), and with characters a URL cannot hold (`openid profile`).
 * The bytes follow httpyac (`transformMultilineFormUrlEncoded`, then `encodeRequestBody`) and
 * VS Code REST Client (its default `formParamEncodingStrategy` "automatic"), which both encode
 * with the `encodeurl` package.
 */

/**
 * The form body to send for `text` (after the `{{...}}` pass): each line's parts around `=` and
 * `&` trimmed, the lines joined without separator, then {@link encodeUrl}.
 */
export function formBody(text: string): string {
  const lines = text.split(/\r?\n/).map((l) => ['=', '&'].reduce((t, c) => t.split(c).map((p) => p.trim()).join(c), l));
  return encodeUrl(lines.join(''));
}

/** Characters `encodeurl` 2.x leaves alone, runs of others, and a `%` not starting `%XX`. */
const ENCODE = /(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]+|%+(?![0-9A-Fa-f]{2}))/g;
const SURROGATE = /([\uD800-\uDBFF][\uDC00-\uDFFF])|[\uD800-\uDFFF]/g;

/**
 * Percent-encode (UTF-8) what may not stand in a URL, keeping what is already encoded (`%20`
 * stays, `%zz` becomes `%25zz`) and the delimiters `& = + ? /`: the rule of the `encodeurl`
 * package (pillarjs) that httpyac and REST Client call. A lone surrogate becomes U+FFFD.
 */
export function encodeUrl(s: string): string {
  return s.replace(SURROGATE, (_, pair: string | undefined) => pair ?? '\uFFFD').replace(ENCODE, encodeURI);
}
