// curlToSheet (engine/src/curl/from-curl.ts): curl command lines as people paste them, into sheet
// requests; the round trip sheet -> toCurl -> curlToSheet -> sheet keeps method, URL, headers and
// body (a table and a fast-check property); and on the wire, through real bash, real curl and the
// example API's /echo route, a curl command and the sheet request imported from it send the same.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { toCurl } from '../../engine/src/curl/to-curl.js';
import { splitShellWords } from '../../engine/src/curl/words.js';
import { bodyBytes, type Request } from '../../engine/src/model.js';
import { METHODS, parseSheet } from '../../engine/src/sheet/parse.js';
import { resolveRequest } from '../../engine/src/resolve/resolve.js';
import { spawnEngine, startApi, tempDir, type Api, type EngineProcess } from './helpers.js';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';

const execFileP = promisify(execFile);
const sheet = (...lines: string[]) => lines.join('\n');

/** The one request of a sheet text, resolved as the engine would send it. */
async function resolveOnly(text: string): Promise<Request> {
  const s = parseSheet(text);
  expect(s.requests).toHaveLength(1);
  expect(s.diagnostics).toEqual([]);
  return (await resolveRequest(s, s.requests[0]!, {})).request;
}

/** What the round trip must keep. */
const shape = (r: Request) => ({
  method: r.method,
  url: r.url,
  headers: r.headers,
  body: r.body ? Buffer.from(bodyBytes(r.body)!).toString('base64') : undefined,
});

async function failure(f: () => unknown): Promise<{ code: string; message: string; hint?: string }> {
  try {
    await f();
  } catch (e) {
    return e as { code: string; message: string; hint?: string };
  }
  throw new Error('expected a failure');
}

describe('curlToSheet: what people paste', () => {
  it.each([
    ['a bare URL', `curl https://api.example.org/users`, sheet('GET https://api.example.org/users'), []],
    ['no scheme means http://, as curl', `curl localhost:8080/x`, sheet('GET http://localhost:8080/x'), []],
    [
      "Chrome's Copy as cURL (bash), over several lines",
      `curl 'https://api.example.org/v1/users?page=2' \\\n  -H 'accept: application/json' \\\n  -H 'content-type: application/json' \\\n  -b 'sid=abc; theme=dark' \\\n  --data-raw '{"name":"Ada"}' \\\n  --compressed`,
      sheet('POST https://api.example.org/v1/users?page=2', 'accept: application/json', 'content-type: application/json', 'Accept-Encoding: deflate, gzip, br, zstd', 'Cookie: sid=abc; theme=dark', '', '{"name":"Ada"}'),
      [/^--compressed: written as curl 7\.88 sends it/],
    ],
    ['-X and a bundled -sSL', `curl -sSL -X DELETE http://h/users/1`, sheet('DELETE http://h/users/1'), []],
    ['-XPUT attached, --data-binary @file as a file body', `curl -XPUT --data-binary @body.json -H 'Content-Type: application/json' http://h/p`, sheet('PUT http://h/p', 'Content-Type: application/json', '', '< body.json'), [/relative to the sheet file's directory/]],
    ['-d adds the form Content-Type, several -d join with &', `curl -d a=1 -d 'b=two words' http://h/f`, sheet('POST http://h/f', 'Content-Type: application/x-www-form-urlencoded', '', 'a=1&b=two words'), []],
    ['--data-urlencode', `curl --data-urlencode 'q=a b&c' --data-urlencode =x/y http://h/f`, sheet('POST http://h/f', 'Content-Type: application/x-www-form-urlencoded', '', 'q=a+b%26c&x%2Fy'), []],
    ['-G moves the data into the query string', `curl -G -d q=hello --data-urlencode 'name=a b' 'http://h/s?x=1'`, sheet('GET http://h/s?x=1&q=hello&name=a+b'), []],
    ['--json adds Content-Type and Accept', `curl --json '{"x":1}' http://h/j`, sheet('POST http://h/j', 'Content-Type: application/json', 'Accept: application/json', '', '{"x":1}'), []],
    ['-u user:pass is Basic', `curl -u ada:s3cret http://h/me`, sheet('GET http://h/me', 'Authorization: Basic YWRhOnMzY3JldA=='), []],
    ['-u user without a password', `curl -u ada http://h/me`, sheet('GET http://h/me', 'Authorization: Basic YWRhOg=='), [/no password/]],
    ['--oauth2-bearer', `curl --oauth2-bearer tok http://h/me`, sheet('GET http://h/me', 'Authorization: Bearer tok'), []],
    ['-b twice, -A and -e', `curl -b a=1 -b b=2 -A 'my agent' -e http://ref/ http://h/c`, sheet('GET http://h/c', 'User-Agent: my agent', 'Referer: http://ref/', 'Cookie: a=1; b=2'), []],
    ['-I is HEAD', `curl -I http://h/`, sheet('HEAD http://h/'), []],
    ['Name; is an empty header, Name: removes one', `curl -H 'X-Empty;' -H 'Content-Type:' --data-binary x http://h/e`, sheet('POST http://h/e', 'X-Empty:', '', 'x'), []],
    ['$\'...\' quoting with newlines and a trailing newline', `curl -H 'Content-Type: text/plain' --data-binary $'line 1\\n\\tline 2\\n' http://h/t`, sheet('POST http://h/t', 'Content-Type: text/plain', '', 'line 1', '\tline 2', ''), []],
    ['a body starting with an empty line', `curl --data-binary $'\\nx' -H 'Content-Type:' http://h/t`, sheet('POST http://h/t', '', '', 'x'), []],
    ['--url and a $ prompt', `$ curl --url http://h/u`, sheet('GET http://h/u'), []],
    ['a lower-case -X method', `curl -X patch -d x http://h/p`, sheet('PATCH http://h/p', 'Content-Type: application/x-www-form-urlencoded', '', 'x'), [/written as PATCH/]],
    ['-k and a proxy are directives, --max-time and unknown flags warnings', `curl -k --max-time 5 -x http://proxy:3128 --http1.1 http://h/w`, sheet('# @insecure', '# @proxy http://proxy:3128', 'GET http://h/w'), [/^--max-time 5: /, /^--http1\.1: /]],
    ['-d @file keeps the file as it is', `curl -d @/tmp/form.txt http://h/f`, sheet('POST http://h/f', 'Content-Type: application/x-www-form-urlencoded', '', '< /tmp/form.txt'), [/drops the file's line breaks/]],
    ['--digest with -u writes the Digest line (VS Code REST Client), no Basic header', `curl --digest -u a:b http://h/d`, sheet('GET http://h/d', 'Authorization: Digest a b'), []],
    ['--ntlm with -u writes no Basic header', `curl --ntlm -u a:b http://h/d`, sheet('GET http://h/d'), [/--ntlm -u .*only Basic/]],
    ['cookies from a file (not read here)', `curl -b cookies.txt -c jar.txt http://h/c`, sheet('GET http://h/c'), [/^-c jar\.txt: /, /^-b cookies\.txt: the cookie file is not read here/]],
  ])('%s', async (_, command, expected, warnings) => {
    const out = curlToSheet(command);
    expect(out.text).toBe(expected + '\n');
    expect(out.warnings.map((w) => w.message)).toEqual(warnings.map((w) => expect.stringMatching(w)));
    // The text is a sheet the engine reads without a diagnostic.
    expect(parseSheet(out.text).requests).toHaveLength(1);
    expect(parseSheet(out.text).diagnostics).toEqual([]);
  });

  it.each([
    ['not a curl command', 'ls -l /', 'bad-argument', /not a curl command: it starts with "ls"/],
    ['empty text', '   ', 'bad-argument', /not a curl command/],
    ['no URL', 'curl -H "Accept: text/plain"', 'bad-argument', /has no URL/],
    ['an unbalanced quote', `curl 'http://h/x`, 'bad-argument', /unterminated single quote/],
    ['a method the sheet does not know', 'curl -X PROPFIND http://h/', 'bad-option', /-X PROPFIND/],
    ['a body line starting with #', `curl -d $'a\\n# b' http://h/`, 'bad-argument', /line 2 starts with #/],
    ['a body the sheet would read as a file', `curl --data-raw '< x.json' http://h/`, 'bad-argument', /starts with "<"/],
    ['a carriage return in the body', `curl -d $'a\\r\\nb' http://h/`, 'bad-argument', /carriage return/],
    ['data from standard input', 'curl --data-binary @- http://h/', 'bad-argument', /standard input/],
    ['a file joined with other data', 'curl -d @a.txt -d b=1 http://h/', 'bad-argument', /one whole file/],
    ['a header name the sheet cannot read', `curl -H 'X(y): 1' http://h/`, 'bad-argument', /header name "X\(y\)"/],
    ['a file name a sheet cannot write', `curl --data-binary @'a<b' http://h/`, 'bad-argument', /cannot name this file/],
    ['an ftp URL', 'curl ftp://h/file', 'bad-argument', /not http or https/],
    ['an option without its argument', 'curl http://h/ -H', 'bad-option', /-H needs an argument/],
  ])('%s is an error with a hint', async (_, command, code, message) => {
    const e = await failure(() => curlToSheet(command));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.hint).toBeTruthy();
  });
});

describe('round trip: sheet -> curl -> sheet', () => {
  it.each([
    ['a GET', sheet('GET http://h/a?x=1&y=two%20words')],
    ['a GET with headers and an empty one', sheet('GET http://h/h', 'Accept: application/json', "X-Dollar: $PATH and 'single' \"double\"", 'X-Empty:')],
    ['a POST with JSON', sheet('POST http://h/p', 'Content-Type: application/json', '', '{"a": "it\'s $HOME `id` \\"q\\""}')],
    ['a POST without Content-Type', sheet('POST http://h/p', '', 'a=1&b=2')],
    ['a PUT with a trailing newline', sheet('PUT http://h/t', 'Content-Type: text/plain', '', 'line 1', '\tline 2', '', '')],
    ['a PATCH with non-ASCII text', sheet('PATCH http://h/u', 'Content-Type: text/plain; charset=utf-8', 'X-Name: Zo\u00eb', '', '\u00e9t\u00e9 \u65e5\u672c \u{1f600}')],
    ['a GET with a body', sheet('GET http://h/g', '', 'q=1')],
    ['a DELETE with a body', sheet('DELETE http://h/d', 'Content-Type: application/json', '', '{"id": 1}')],
    ['a HEAD', sheet('HEAD http://h/')],
    ['OPTIONS and TRACE', sheet('OPTIONS http://h/o')],
    ['a body starting with @', sheet('POST http://h/at', 'Content-Type: text/plain', '', '@not-a-file')],
    ['a URL with brackets and braces', sheet('GET http://h/g?ids[]={1,2}&r=[1-3]')],
    ['a non-ASCII URL', sheet('GET http://h/caf\u00e9?q=\u65e5')],
    ['Authorization and Cookie headers', sheet('GET http://h/me', 'Authorization: Basic YWRhOnMzY3JldA==', 'Cookie: a=1; b=2')],
  ])('%s', async (_, text) => {
    const before = await resolveOnly(text);
    const after = await resolveOnly(curlToSheet(toCurl(before)).text);
    expect(shape(after)).toEqual(shape(before));
  });

  it('holds for any request a sheet can write (property)', async () => {
    const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/).filter((t) => !t.startsWith('#'));
    const value = fc.stringMatching(/^[ -~\u00a0-\u00ff\u4e00-\u4e10]{0,20}$/).map((v) => v.trim());
    const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{0,8}$/);
    const query = fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,5}$/), fc.stringMatching(/^[A-Za-z0-9%]{0,6}$/).map((v) => v.replace(/%/g, '%25'))), { maxLength: 3 });
    const bodyLine = fc.stringMatching(/^[ -~\t\u00e9\u65e5]{0,20}$/).filter((l) => !l.startsWith('#'));
    const body = fc.array(bodyLine, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('\n')).filter((b) => b !== '' && !/^<[ \t]*[^<>\n\r]*$/m.test(b.split('\n')[0]!) && !/^<[ \t]*[^<>\n\r]*[^ \t<>\n\r]/.test(b));
    const request = fc.record({
      method: fc.constantFrom(...METHODS),
      path: fc.array(segment, { maxLength: 3 }),
      query,
      headers: fc.array(fc.tuple(token, value), { maxLength: 4 }),
      body: fc.option(body, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const url = `http://127.0.0.1:8080/${r.path.join('/')}${r.query.length ? '?' + r.query.map(([k, v]) => `${k}=${v}`).join('&') : ''}`;
        const text = [`${r.method} ${url}`, ...r.headers.map(([n, v]) => (v === '' ? `${n}:` : `${n}: ${v}`)), ...(r.body !== undefined ? ['', r.body] : [])].join('\n');
        const before = await resolveOnly(text);
        const command = toCurl(before);
        const after = await resolveOnly(curlToSheet(command).text);
        expect(shape(after)).toEqual(shape(before));
      }),
      { numRuns: 300 },
    );
  });
});

interface Echo {
  method: string;
  rawPath: string;
  rawHeaders: [string, string][];
  bodyBase64: string;
}

describe('on the wire: real curl and the imported sheet send the same request', () => {
  let api: Api;
  let engine: EngineProcess;
  const dir = tempDir();
  beforeAll(async () => {
    api = await startApi();
    engine = spawnEngine();
    await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
  });
  afterAll(async () => {
    await engine.close();
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Run `command` in real bash (real curl) and send the sheet imported from it through the engine. */
  async function both(command: string): Promise<{ fromCurl: Echo; fromSheet: Echo; names: string[] }> {
    const viaCurl = await execFileP('bash', ['-c', `${command} -s --max-time 10`], { cwd: dir, encoding: 'utf8' });
    const fromCurl = JSON.parse(viaCurl.stdout) as Echo;
    const { text } = curlToSheet(command);
    const sent = await engine.conn.sendRequest('sheet/send', { text, line: 1, path: path.join(dir, 'imported.sheet') });
    const fromSheet = JSON.parse(sent.presentation.text) as Echo;
    const names = (sent.request.headers as [string, string][]).map(([n]) => n.toLowerCase());
    return { fromCurl, fromSheet, names };
  }
  // Cookie pairs compared one by one: curl joins several -b with ";", the sheet with "; " (RFC 6265).
  const pick = (e: Echo, names: string[]) =>
    e.rawHeaders.filter(([n]) => names.includes(n.toLowerCase())).map(([n, v]) => [n.toLowerCase(), n.toLowerCase() === 'cookie' ? v.split(/;\s*/) : v]);
  const same = ({ fromCurl, fromSheet, names }: { fromCurl: Echo; fromSheet: Echo; names: string[] }) => {
    expect(fromSheet.method).toBe(fromCurl.method);
    expect(fromSheet.rawPath).toBe(fromCurl.rawPath);
    expect(fromSheet.bodyBase64).toBe(fromCurl.bodyBase64);
    expect(pick(fromSheet, names)).toEqual(pick(fromCurl, names));
    const types = (e: Echo) => e.rawHeaders.filter(([n]) => n.toLowerCase() === 'content-type');
    expect(types(fromSheet)).toEqual(types(fromCurl));
  };

  it.each([
    ['a POST with JSON, quotes and $', sheet('POST :api/echo/p', 'Content-Type: application/json', 'X-Empty:', '', '{"a": "it\'s $HOME `id` \\"q\\""}')],
    ['a PUT without Content-Type, with a trailing newline', sheet('PUT :api/echo/t?x=1', '', 'line 1', '\tline 2', '', '')],
    ['a GET with headers', sheet('GET :api/echo/g?q=caf%C3%A9', 'Accept: application/json', 'Authorization: Bearer a!b')],
  ])('the command sheet/curl prints: %s', async (_, text) => {
    const { command } = await engine.conn.sendRequest('sheet/curl', { text: `:api = ${api.url}\n${text}`, line: 2, path: path.join(dir, 'x.sheet') });
    same(await both(command));
  });

  it.each([
    ['-u, -b, -G with --data-urlencode', (u: string) => `curl -u 'ada:s3cr:et' -b a=1 -b 'b=2' -G -d x=1 --data-urlencode 'q=a b&c' '${u}/echo/g'`],
    ['-d joined with & (form Content-Type)', (u: string) => `curl -d a=1 -d 'b=two words' ${u}/echo/f`],
    ['--json', (u: string) => `curl --json '{"x": [1, 2]}' ${u}/echo/j`],
    ['-X PATCH with a continuation line and $\'...\'', (u: string) => `curl -X PATCH \\\n  -H 'Content-Type: text/plain' \\\n  --data-binary $'a\\tb\\nc\\n' ${u}/echo/x`],
  ])('a hand-written command: %s', async (_, make) => {
    same(await both(make(api.url)));
  });

  it('the splitter reads the commands as bash does', async () => {
    const command = `printf '%s\\n' 'a b' "c \\"d\\" \\$e" $'f\\tg' h\\ i \\\n j`;
    const { stdout } = await execFileP('bash', ['-c', command], { encoding: 'utf8' });
    expect(splitShellWords(command).slice(2)).toEqual(stdout.split('\n').slice(0, -1));
  });

  describe('against httpbin (a server nobody here wrote)', () => {
    let hb: { url: string };
    beforeAll(async () => {
      hb = await sharedHttpbin();
    }, 30_000);

    interface Anything {
      method: string;
      args: Record<string, string>;
      data: string;
      form: Record<string, string>;
      json: unknown;
      headers: Record<string, string>;
    }
    const view = (a: Anything) => ({
      method: a.method,
      args: a.args,
      data: a.data,
      form: a.form,
      json: a.json,
      // Not Accept: curl adds "Accept: */*" of its own, as it adds its User-Agent; a sheet does not.
      headers: Object.fromEntries(['Authorization', 'Content-Type', 'Cookie', 'X-Empty', 'Origin'].map((h) => [h, a.headers[h]?.replace(/;\s*/g, '; ')])),
    });

    it.each([
      ["a browser's Copy as cURL (bash)", (u: string) => `curl '${u}/anything/v1/users?page=2' \\
  -H 'accept: application/json' \\
  -H 'content-type: application/json' \\
  -H 'origin: http://127.0.0.1' \\
  -b 'sid=abc; theme=dark' \\
  --data-raw '{"name":"Ada","tags":["a","b"]}' \\
  --compressed`],
      ['API docs style: -u, -d joined, -X PUT, an empty header', (u: string) => `curl -X PUT -u ada:s3cret -H 'X-Empty;' -d name=Ada --data-urlencode 'note=a b&c' ${u}/anything/u`],
      ['-G with data and -b twice', (u: string) => `curl -G -d q=caf%C3%A9 -d n=2 -b a=1 -b b=2 ${u}/anything/s`],
    ])('%s', async (_, make) => {
      const command = make(hb.url);
      const viaCurl = await execFileP('bash', ['-c', `${command} -s --max-time 10`], { encoding: 'utf8' });
      const { text } = curlToSheet(command);
      const sent = await engine.conn.sendRequest('sheet/send', { text, line: 1, path: path.join(dir, 'imported.sheet') });
      expect(sent.response.status).toBe(200);
      expect(view(JSON.parse(sent.presentation.text) as Anything)).toEqual(view(JSON.parse(viaCurl.stdout) as Anything));
    });

    it('-u user:password passes httpbin\'s Basic check', async () => {
      const { text } = curlToSheet(`curl -u 'ada:s3cr:et' ${hb.url}/basic-auth/ada/s3cr:et`);
      const sent = await engine.conn.sendRequest('sheet/send', { text, line: 1, path: path.join(dir, 'imported.sheet') });
      expect(sent.response.status).toBe(200);
      expect(JSON.parse(sent.presentation.text)).toEqual({ authenticated: true, user: 'ada' });
    });
  });
});
