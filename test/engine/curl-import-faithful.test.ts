// Issue 27, item 1: what curl sends that the import used to change without a word. A table of
// conversions (the sheet text and each warning, with whether it says the request differs), and
// the same commands on the wire: real curl and `sheet import-curl` + `sheet run` against one raw
// capture server (./curl-wire.ts), which must send the same request when no warning says
// otherwise, and something else when one does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { appendQuery, uploadUrl } from '../../engine/src/curl/rules.js';
import { cutShellTail } from '../../engine/src/curl/shell-tail.js';
import { expandGlob, targetDifference } from '../../engine/src/curl/url-check.js';
import { parseSheet } from '../../engine/src/sheet/parse.js';
import { wireBench } from './curl-wire.js';

const sheet = (...lines: string[]) => lines.join('\n') + '\n';
/** A warning as expected: [pattern, differs]. */
type W = [RegExp, boolean];

describe('curl globs: one sheet request per request curl sends', () => {
  it.each<[string, string, string[]]>([
    ['a range', 'curl http://h/f[1-3].txt', ['GET http://h/f1.txt', 'GET http://h/f2.txt', 'GET http://h/f3.txt']],
    ['a set, and a placeholder sent without braces', "curl 'http://h/{a,b}/{KEY}'", ['GET http://h/a/KEY', 'GET http://h/b/KEY']],
    ['a zero-padded range with a step', "curl 'http://h/p[08-12:2]'", ['GET http://h/p08', 'GET http://h/p10', 'GET http://h/p12']],
    ['escaped brackets are sent as written', "curl 'http://h/a\\[1\\]'", ['GET http://h/a[1]']],
    ['-T with a set: one upload each, the name appended', 'curl -T "{file1,file2}" http://h/', ['PUT http://h/file1\n\n< file1', 'PUT http://h/file2\n\n< file2']],
    ['two URLs', 'curl http://h/a http://h/b', ['GET http://h/a', 'GET http://h/b']],
  ])('%s', (_, command, requests) => {
    const out = curlToSheet(command);
    expect(out.requests).toEqual(requests.map((r) => r + '\n'));
    expect(out.text).toBe(out.requests.join('#\n'));
    expect(parseSheet(out.text).requests).toHaveLength(requests.length);
    expect(out.warnings.filter((w) => w.differs)).toEqual([]);
  });
});

describe('curlToSheet: nothing changes silently', () => {
  it.each<[string, string, string, W[]]>([
    ['-T FILE is a PUT of the file', 'curl -T /tmp/up.txt http://h/r1', sheet('PUT http://h/r1', '', '< /tmp/up.txt'), [[/Expect: 100-continue/, false]]],
    ['-T with -X POST, to a URL ending in / (the file name is appended)', 'curl -X POST --upload-file "/d/my file.txt" http://h/up/', sheet('POST http://h/up/my%20file.txt', '', '< /d/my file.txt'), [[/Expect/, false]]],
    ['-T with a relative path', 'curl -T up.txt http://h', sheet('PUT http://h/up.txt', '', '< up.txt'), [[/relative to the sheet file's directory/, false], [/Expect/, false]]],
    ['credentials in the URL are Basic auth', 'curl http://admin:p%40ss@h/r2', sheet('GET http://h/r2', 'Authorization: Basic YWRtaW46cEBzcw=='), []],
    ['-u beats the URL\'s credentials', 'curl -u ada:x http://admin:pw@h/r2', sheet('GET http://h/r2', 'Authorization: Basic YWRhOng='), []],
    ['-G after an empty ? adds no &', `curl -G 'http://h/r3?' --data-urlencode 'q=a b'`, sheet('GET http://h/r3?q=a+b'), []],
    ['an empty ? is sent as written (# @no-auto-encoding)', `curl 'http://h/r6?' -d x=1`, sheet('# @no-auto-encoding', 'POST http://h/r6?', 'Content-Type: application/x-www-form-urlencoded', '', 'x=1'), []],
    ['bytes a sheet URL percent-encodes are sent as written (-g)', `curl -g 'http://h/a/{KEY}?m={a="b"}&x=<y>'`, sheet('# @no-auto-encoding', 'GET http://h/a/{KEY}?m={a="b"}&x=<y>'), []],
    ['a blank in the URL cannot be sent as written: said', `curl -g 'http://h/a?q=a b'`, sheet('GET http://h/a?q=a b'), [[/a space, which cannot be sent as written: curl sends \/a\?q=a b, the sheet sends \/a\?q=a%20b/, true]]],
    ['--compressed sends curl\'s Accept-Encoding', 'curl --compressed http://h/c', sheet('GET http://h/c', 'Accept-Encoding: deflate, gzip, br, zstd'), [[/--compressed: written as curl 7.88 sends it/, false]]],
    ['--compressed with an Accept-Encoding of its own', `curl -H 'Accept-Encoding: gzip' --compressed http://h/c`, sheet('GET http://h/c', 'Accept-Encoding: gzip'), []],
    ['an unquoted & ends the command, as in bash: said', 'curl http://h/e?q=test&n=0 -H X:1', sheet('GET http://h/e?q=test'), [[/^http:\/\/h\/e\?q=test&n=0: an unquoted & ends the command in bash.*without "&n=0 -H X:1".*'http:\/\/h\/e\?q=test&n=0'/, false]]],
    ['a quoted & is not', `curl 'http://h/e?q=test&n=0'`, sheet('GET http://h/e?q=test&n=0'), []],
    ['$VAR in -u: Basic built from the environment, readable', 'curl -u "ada:$PASS" http://h/', sheet(`:basic-auth := (base64-encode-string (encode-coding-string (concat "ada:" (or (getenv "PASS") "")) 'utf-8) t)`, 'GET http://h/', 'Authorization: Basic :basic-auth'), [[/^\$PASS: read from the environment when the request is sent/, false]]],
    ['$(cmd) in the URL\'s credentials is said', 'curl "http://ada:$(pass show x)@h/"', sheet('GET http://h/', 'Authorization: Basic YWRhOiQocGFzcyBzaG93IHgp'), [[/^\$\(pass\.\.\.\): bash would expand this/, true], [/\$\(\.\.\.\) is expanded by the shell/, true]]],
    ['-g and --globoff agree', 'curl -g http://h/a', sheet('GET http://h/a'), []],
    ['--globoff', 'curl --globoff http://h/a', sheet('GET http://h/a'), []],
    ['an IPv6 host is no glob', 'curl http://[::1]:8080/x', sheet('GET http://[::1]:8080/x'), []],
    ['a variable in a header is read from the environment', `curl -H "Authorization: Bearer $TOKEN" "\${BASE}/x"`, sheet(':TOKEN := (or (getenv "TOKEN") "")', ':BASE := (or (getenv "BASE") "")', 'GET :BASE/x', 'Authorization: Bearer :TOKEN'), [[/^\$TOKEN: read from the environment/, false], [/^\$\{BASE\}: read from the environment/, false]]],
    ['${NAME%word}, ${NAME:-word}, $(printenv NAME) are read from the environment', `curl "\${U%/}/x" -H "A: \${P:-d}" -H "B: $(printenv K)"`, sheet(
      ':U-without-suffix := (let ((v (or (getenv "U") ""))) (if (string-suffix-p "/" v) (substring v 0 (- (length v) 1)) v))',
      ':P-or-default := (let ((v (or (getenv "P") ""))) (if (equal v "") "d" v))',
      ':K := (replace-regexp-in-string "\\n+\\\\\'" "" (or (getenv "K") ""))',
      'GET :U-without-suffix/x', 'A: :P-or-default', 'B: :K'), [[/^\$\{U%\/\}: read from the environment/, false], [/^\$\{P:-d\}: read/, false], [/^\$\(printenv\.\.\.\): read/, false]]],
    ['a command or a pattern is said, kept as written', `curl "http://h/\${P%*/}" -H "A: $(date)"`, sheet('# @no-auto-encoding', 'GET http://h/${P%*/}', 'A: $(date)'), [[/^\$\{P%\*\/\}: bash would expand this/, true], [/^\$\(date\.\.\.\): bash would expand this/, true]]],
    ['a variable in single quotes is sent as written', `curl -H 'A: $P' http://h/`, sheet('GET http://h/', 'A: $P'), []],
    ['-H "Host:" is said: the engine always sends Host', `curl -H 'Host:' http://h/`, sheet('GET http://h/'), [[/curl sends no Host header/, true]]],
  ])('%s', (_, command, expected, warnings) => {
    const out = curlToSheet(command);
    expect(out.text).toBe(expected);
    expect(out.warnings).toEqual(warnings.map(([m, differs]) => ({ message: expect.stringMatching(m), differs })));
    expect(parseSheet(out.text).diagnostics).toEqual([]);
  });

  it.each([
    ['a bad range, which curl refuses too', "curl 'http://h/q?r=x[5m]'", /curl refuses it \(exit 3: bad range \[5m\]\) and sends no request/],
    ['an unmatched brace, which curl refuses too', "curl 'http://h/q?r={a'", /exit 3: unmatched brace/],
    ['an empty set, which curl refuses too', "curl 'http://h/q{}'", /exit 3: an empty value/],
    ['more than 100 requests', "curl 'http://h/[1-11]/[1-10]'", /more than 100 URLs/],
    ['-T from standard input', 'curl -T - http://h/', /standard input/],
    ['-T with data', 'curl -T a.txt -d x http://h/', /one body/],
    ['-T with two URLs', 'curl -T a.txt http://h/a http://h/b', /curl uploads to the first URL only/],
  ])('%s is refused (exit 2), naming it', (_, command, message) => {
    let err: { code?: string; message?: string; hint?: string } = {};
    try {
      curlToSheet(command);
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.code).toBe('bad-argument');
    expect(err.message).toMatch(message);
    expect(err.hint).toBeTruthy();
  });

  it('the rules behind them', () => {
    expect(appendQuery('http://h/r?', 'a=1')).toBe('http://h/r?a=1');
    expect(appendQuery('http://h/r?x=1', 'a=1')).toBe('http://h/r?x=1&a=1');
    expect(uploadUrl('http://h/up/?x=1', 'd/a(1).txt')).toBe('http://h/up/a%281%29.txt?x=1');
    expect(uploadUrl('http://h/up', 'a.txt')).toBe('http://h/up');
    expect(expandGlob('http://h/a\\[1-2\\]')).toEqual(['http://h/a[1-2]']);
    expect(expandGlob('${BASE}/a')).toEqual(['${BASE}/a']);
    expect(expandGlob('http://[::1]:8/{a,b}')).toEqual(['http://[::1]:8/a', 'http://[::1]:8/b']);
    expect(targetDifference('http://h/a/b?c=d')).toBeUndefined();
    expect(cutShellTail(`curl 'http://h/?a|b' -d "x>y" 2>&1 | jq .`)).toEqual({ command: `curl 'http://h/?a|b' -d "x>y" `, dropped: '2>&1 | jq .', bareAmpersands: [], expansions: [] });
    expect(cutShellTail(`curl -H "Authorization: Bearer $TOKEN" '$NOT' \`id\` "\${A}" $1 http://h/`).expansions).toEqual(['$TOKEN', '`id`', '${A}', '$1']);
  });
});

describe('on the wire: curl and the import send the same, unless a warning says otherwise', () => {
  let bench: Awaited<ReturnType<typeof wireBench>>;
  beforeAll(async () => {
    bench = await wireBench({ 'up.txt': 'line 1\nline 2\n' });
  });
  afterAll(() => bench.close());

  it.each([
    ['-T', 'curl -T up.txt http://example.org/r1'],
    ['-T to a directory URL with -X POST', 'curl -X POST -T up.txt http://example.org/dir/'],
    ['credentials in the URL', 'curl http://admin:pw@example.org/r2'],
    ['-G after an empty ?', `curl -G 'http://example.org/r3?' --data-urlencode 'q=a b'`],
    ['--compressed', 'curl --compressed http://example.org/c'],
    ['a pipe to jq', `curl -s 'http://example.org/e?q=1' | jq .`],
    ['an empty ? with data', `curl 'http://example.org/r6?' -d x=1`],
    ['braces and quotes kept by -g', `curl -g 'http://example.org/a/{KEY}?m={a="b"}&x=<y>'`],
    ['non-ASCII and a lone % in the query', `curl 'http://example.org/q?n=like.%张三%'`],
    ['shell variables, read from the same environment', `curl -s "\${ES_URL%/}/_cluster/health" -u "$U:" -H "Authorization: ApiKey $(printenv ES_API_KEY)" -H "X-D: \${UNSET:-dflt}" | jq .`],
  ])('%s: identical', async (_, command) => {
    const r = await bench.run(command, { ES_URL: `${bench.base}/`, ES_API_KEY: 'k3y', U: 'ada' });
    expect(r.runExit).toBe(0);
    expect(r.differences).toEqual([]);
    expect(r.curl).toBeDefined();
  });
});
