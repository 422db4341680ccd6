// Issue 20 item 5: a request's connection directives (engine/src/sheet/connection-tags.ts) as
// tables: how sheets and .http files read them (curl's names, httpyac's and kulala's spellings),
// what is wrong with them (lint, and the session's refusal before sending), what `sheet
// import-curl` writes for curl's connection options, and what C-c C-u (`sheet/curl`) and `sheet
// export --to curl` print back. The wire round trips are in connection-wire.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseForFile } from '../../engine/src/http-file/index.js';
import { parseSheet } from '../../engine/src/sheet/parse.js';
import { IncrementalSheetParser } from '../../engine/src/sheet/incremental.js';
import { connectionOf } from '../../engine/src/sheet/connection-tags.js';
import { lintSheet } from '../../engine/src/lint/diagnostics.js';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { httpToSheet, sheetToHttp } from '../../engine/src/convert/sheet-http.js';
import { Session } from '../../engine/src/session/session.js';
import { spawnEngine, tempDir } from './helpers.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('connection-tags-');
  for (const f of ['ca.pem', 'c.pem', 'k.pem', 'n.netrc']) fs.writeFileSync(path.join(dir, f), 'x\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The directives of the first request, as `name=value@line`. */
const tags = (text: string, file = 'a.sheet') => (parseForFile(text, file).requests[0]?.directives ?? []).map((d) => `${d.name}=${d.value}@${d.line}`);

describe('parsing: curl names, other tools\' spellings, in sheets and .http files', () => {
  const rows: [string, string, string[]][] = [
    ['curl\'s names with values and switches', '# @proxy http://127.0.0.1:3128\n# @noproxy localhost, .internal\n# @cacert ca.pem\n# @insecure\nGET http://h/\n', ['proxy=http://127.0.0.1:3128@1', 'noproxy=localhost, .internal@2', 'cacert=ca.pem@3', 'insecure=@4']],
    ['httpyac: # @no-reject-unauthorized, # @noRejectUnauthorized, # @no-proxy alone (every host direct)', '# @no-reject-unauthorized\n# @noRejectUnauthorized\n# @no-proxy\nGET http://h/\n', ['insecure=@1', 'insecure=@2', 'noproxy=*@3']],
    ['kulala: # @curl-OPTION', '# @curl-insecure\n# @curl-proxy http://p:1\nGET http://h/\n', ['insecure=@1', 'proxy=http://p:1@2']],
    ['tags above variable declarations still belong to the request below them', '# @unix-socket /run/d.sock\n:v = 1\nGET http://localhost/:v\n', ['unix-socket=/run/d.sock@1']],
    ['a request separated by a # line has its own tags only', '# @insecure\nGET http://h/a\n#\nGET http://h/b\n', ['insecure=@1']],
  ];
  for (const [name, text, want] of rows) {
    it(`sheet: ${name}`, () => expect(tags(text)).toEqual(want));
    it(`.http: ${name}`, () => expect(tags(text, 'a.http')).toEqual(want));
  }

  it('sheet: other # @ comments stay comments (restclient.el); # @http2 and # @no-auto-encoding are read', () => {
    expect(tags('# @author Ada\n# @http2\n# @no-auto-encoding\nGET http://h/\n')).toEqual(['http2=@2', 'no-auto-encoding=@3']);
    expect(parseSheet('# @author Ada\nGET http://h/\n').diagnostics).toEqual([]);
  });

  it('the second request of a sheet gets the tags just above it, not the first one\'s', () => {
    const r = parseSheet('# @insecure\nGET http://h/a\n# @proxy http://p:1\nGET http://h/b\n').requests;
    expect(r.map((x) => x.directives?.map((d) => d.name))).toEqual([['insecure'], ['proxy']]);
  });

  it('.http: // comments, and no "unsupported directive" warning for them', () => {
    const s = parseForFile('// @cert c.pem\n# @key k.pem\nGET https://h/\n', 'a.http');
    expect(s.requests[0]!.directives!.map((d) => d.name)).toEqual(['cert', 'key']);
    expect(s.diagnostics).toEqual([]);
  });

  it('the incremental parser reads a tag that an edit put above a request, as parseSheet', () => {
    const p = new IncrementalSheetParser();
    p.parse('GET http://h/a\n#\nGET http://h/b\n');
    const after = p.parse('GET http://h/a\n# @cacert ca.pem\nGET http://h/b\n');
    expect(after.requests.map((r) => r.directives)).toEqual(parseSheet('GET http://h/a\n# @cacert ca.pem\nGET http://h/b\n').requests.map((r) => r.directives));
    expect(after.requests[1]!.directives).toEqual([{ name: 'cacert', value: 'ca.pem', line: 2 }]);
  });

  it('sheet -> .http keeps them above the request', () => {
    const r = sheetToHttp(':h = http://x\n# @proxy http://p:1\n# @insecure\nGET :h/a\n');
    expect(tags(r.text, 'a.http')).toEqual(['proxy=http://p:1@3', 'insecure=@4']);
  });

  it('.http -> sheet keeps them (a sheet reads them too)', () => {
    const r = httpToSheet('# @proxy http://p:1\n# @noRejectUnauthorized\nGET http://h/\n');
    expect(r.text).toContain('# @proxy http://p:1\n# @insecure\nGET http://h/\n');
    expect(r.problems).toEqual([]);
  });
});

describe('what is wrong with them: lint and the refusal before sending', () => {
  const problems = (text: string) => connectionOf(parseSheet(text).requests[0]!.directives).problems.map((p) => `${p.line}: ${p.message}`);
  it.each([
    ['# @proxy\nGET http://h/\n', [/^1: # @proxy needs a value/]],
    ['# @insecure yes\nGET http://h/\n', [/^1: # @insecure takes no value .*"yes"/]],
    ['# @key k.pem\nGET https://h/\n', [/^1: # @key needs # @cert/]],
    ['# @pass s\n# @cert c.pem\nGET https://h/\n', []],
    ['# @proxy ""\nGET http://h/\n', [/^1: # @proxy needs a value \(curl's -x VALUE\); "" \(the empty list\) is for # @noproxy only/]],
  ])('%j', (text, want) => expect(problems(text)).toEqual(want.map((w) => expect.stringMatching(w))));

  it.each(['""', "''"])('# @noproxy %s is curl\'s --noproxy \'\': the empty list, no problem', (q) => {
    const c = connectionOf(parseSheet(`# @noproxy ${q}\nGET http://h/\n`).requests[0]!.directives);
    expect(c).toEqual({ tags: { noproxy: { value: '', line: 1, where: '# @noproxy (line 1)' } }, problems: [] });
  });

  const lint = (text: string) =>
    lintSheet(text, parseForFile(text, path.join(dir, 'a.sheet')), {
      fileCheck: (name) => (fs.existsSync(path.resolve(dir, name)) ? undefined : 'ENOENT'),
    }).map((d) => `${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`);
  it.each([
    ['a malformed proxy URL', '# @proxy http://[::1\nGET http://h/\n', [/^1:3 error bad-proxy # @proxy: not a proxy URL/]],
    ['a SOCKS proxy', '# @proxy socks5://p:1080\nGET http://h/\n', [/^1:3 error bad-proxy .*http:\/\/ and https:\/\/ proxies only/]],
    ['a no-proxy entry with a port', '# @noproxy localhost:8080\nGET http://h/\n', [/^1:3 error bad-proxy # @noproxy: curl matches host names, never ports/]],
    ['a missing CA file, certificate and .netrc', '# @cacert nope.pem\n# @cert gone.pem:pw\n# @key k.pem\n# @netrc-file no.netrc\nGET https://h/\n', [/^1:3 error file-unreadable # @cacert: cannot read nope\.pem \(ENOENT\)/, /^2:3 error file-unreadable .*gone\.pem/, /^4:3 error file-unreadable .*no\.netrc/]],
    ['files that are there', '# @cacert ca.pem\n# @cert c.pem\n# @key k.pem\n# @netrc-file n.netrc\nGET https://h/\n', []],
    ['a socket that is not there yet: a warning', '# @unix-socket d.sock\nGET http://localhost/\n', [/^1:3 warning connection-refused/]],
    ['.http: the same checks', '# @proxy ftp://p\nGET http://h/\n', [/^1:3 error bad-proxy/]],
  ])('%s', (_, text, want) => expect(lint(text)).toEqual(want.map((w) => expect.stringMatching(w))));

  it('sheet/diagnostics (Flymake) reads the files from the sheet\'s directory', async () => {
    const eng = spawnEngine();
    try {
      await eng.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
      const text = '# @cacert ca.pem\n# @key missing.key\n# @cert c.pem\nGET https://h/\n';
      const r = (await eng.conn.sendRequest('sheet/diagnostics', { text, path: path.join(dir, 'a.sheet') })) as { diagnostics: { line: number; column: number; severity: string; code: string; message: string }[] };
      expect(r.diagnostics).toEqual([expect.objectContaining({ line: 2, column: 3, severity: 'error', code: 'file-unreadable', message: expect.stringMatching(/^# @key: cannot read missing\.key \(ENOENT\)/) })]);
    } finally {
      await eng.close();
    }
  });

  it('the session refuses to send, naming the line, and sends nothing', async () => {
    const s = new Session();
    const file = path.join(dir, 'a.sheet');
    const err = (text: string, line = 2) => s.send({ text, line, path: file }).then(() => undefined, (e: { code: string; line?: number; message: string; details?: unknown }) => e);
    // 127.0.0.1:9 (discard) would be refused; these fail before connecting.
    expect(await err('# @cacert nope.pem\nGET https://127.0.0.1:9/\n')).toMatchObject({ code: 'bad-ca-file', line: 1, message: expect.stringMatching(/^line 1: # @cacert: cannot read .*nope\.pem \(ENOENT\); nothing was sent/), details: { curlExit: 77 } });
    expect(await err('# @cert none.pem\nGET https://127.0.0.1:9/\n')).toMatchObject({ code: 'bad-client-cert', line: 1, details: { curlExit: 58 } });
    expect(await err('# @proxy http://[::1\nGET http://127.0.0.1:9/\n')).toMatchObject({ code: 'bad-proxy', line: 1 });
    expect(await err('# @noproxy *.example.com\nGET http://127.0.0.1:9/\n')).toMatchObject({ code: 'bad-proxy', line: 1, message: expect.stringMatching(/# @noproxy/) });
    expect(await err('# @insecure 1\nGET http://127.0.0.1:9/\n')).toMatchObject({ code: 'bad-option', line: 1 });
    // The CA file is there but holds no certificate: trust.ts's check names the directive.
    expect(await err('# @cacert ca.pem\nGET https://127.0.0.1:9/\n')).toMatchObject({ code: 'bad-ca-file', line: 1, message: expect.stringMatching(/^line 1: # @cacert \S*ca\.pem: the CA file holds no PEM certificate/) });
  });
});

describe('import: curl\'s connection options become directives (exit 0: the same request)', () => {
  it('every connection option, in the order written, files kept as written', () => {
    const out = curlToSheet(`curl -x http://u:p@127.0.0.1:3128 --noproxy 'localhost,.internal' -U pu:pp -n --netrc-file /etc/n --netrc-optional --cacert /x/ca.pem -E /x/c.pem:pw --key /x/k.pem --pass secret -k --unix-socket /run/docker.sock http://localhost/v1.43/info`);
    expect(out.text).toBe(
      [
        '# @proxy http://u:p@127.0.0.1:3128', '# @noproxy localhost,.internal', '# @proxy-user pu:pp', '# @netrc', '# @netrc-file /etc/n', '# @netrc-optional',
        '# @cacert /x/ca.pem', '# @cert /x/c.pem:pw', '# @key /x/k.pem', '# @pass secret', '# @insecure', '# @unix-socket /run/docker.sock', 'GET http://localhost/v1.43/info', '',
      ].join('\n'),
    );
    expect(out.warnings).toEqual([]);
    // The sheet reads them back without a diagnostic.
    const s = parseSheet(out.text);
    expect(s.diagnostics).toEqual([]);
    expect(connectionOf(s.requests[0]!.directives).problems).toEqual([]);
  });

  it.each([
    ['the last of an option wins, as in curl', 'curl -x http://a:1 -x http://b:2 http://h/', '# @proxy http://b:2\nGET http://h/\n', []],
    ['a relative file: a note that the sheet reads it from its own directory', 'curl --cacert ca.pem https://h/', '# @cacert ca.pem\nGET https://h/\n', [[/^--cacert ca\.pem: the sheet reads ca\.pem relative to the sheet file's directory/, false]]],
    ['--cert-type PEM is the default; DER is named', 'curl --cert-type DER --cert c.der https://h/', '# @cert c.der\nGET https://h/\n', [[/^--cert-type DER: not carried over.*PEM/, true], [/relative to the sheet file's directory/, false]]],
    ['--cert-type PEM says nothing new', 'curl --cert-type PEM --cert /c.pem https://h/', '# @cert /c.pem\nGET https://h/\n', []],
    ["--noproxy '' (every host through the proxy, over NO_PROXY) is # @noproxy \"\"", "curl --noproxy '' -x http://p:1 http://h/", '# @noproxy ""\n# @proxy http://p:1\nGET http://h/\n', []],
    ['a shell variable is a sheet variable, substituted as in a header', 'curl -x "$PROXY" http://h/', '# @proxy :PROXY\nGET http://h/\n', [[/^\$PROXY: read from the environment when the request is sent/, false]]],
  ])('%s', (_, command, text, warnings) => {
    const out = curlToSheet(command);
    expect(out.text.replace(/^:PROXY .*\n/m, '')).toBe(text);
    expect(out.warnings).toEqual(warnings.map(([m, differs]) => ({ message: expect.stringMatching(m as RegExp), differs })));
  });

  it('a glob makes several requests, each with the directives', () => {
    expect(curlToSheet('curl -k "https://h/[1-2]"').requests).toEqual(['# @insecure\nGET https://h/1\n', '# @insecure\nGET https://h/2\n']);
  });
});

describe('export: C-c C-u (sheet/curl) and sheet export --to curl print them back', () => {
  const curlOf = async (text: string, settings?: object, line = 0) => {
    const s = new Session();
    const p = { text, line: line || text.split('\n').findIndex((l) => /^[A-Z]+ /.test(l)) + 1, path: path.join(dir, 'a.sheet'), ...(settings ? { settings } : {}) };
    const curl = (await s.curl(p)).command;
    expect((await s.code({ ...p, target: 'curl' })).code).toBe(`${curl}\n`);
    return curl;
  };
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  it('curl -> sheet -> curl: the same options, files made absolute', async () => {
    const command = `curl -x http://127.0.0.1:3128 --noproxy localhost -U pu:pp --netrc-file n.netrc --cacert ca.pem --cert c.pem --key k.pem --pass pw -k http://h.example/x`;
    const text = curlToSheet(command).text;
    expect(await curlOf(text)).toBe(`curl -X GET -x http://127.0.0.1:3128 --noproxy localhost -U pu:pp --cacert ${dir}/ca.pem -k --netrc-file ${dir}/n.netrc --cert ${dir}/c.pem --key ${dir}/k.pem --pass pw http://h.example/x`);
  });

  it('--unix-socket replaces the setting\'s socket; no proxy is printed for a socket', async () => {
    const c = await curlOf('# @unix-socket /run/d.sock\nGET http://localhost/info\n', { unixSocket: '/run/other.sock', proxy: { all: 'http://p:1' } });
    expect(c).toBe('curl -X GET --unix-socket /run/d.sock http://localhost/info');
  });

  it('the proxy the engine would use: url-proxy-services (the proxy setting), else the environment; a directive wins', async () => {
    process.env.http_proxy = 'http://env-proxy:8080';
    delete process.env.no_proxy;
    delete process.env.NO_PROXY;
    expect(await curlOf('GET http://h.example/x\n')).toBe('curl -X GET -x http://env-proxy:8080 http://h.example/x');
    expect(await curlOf('GET http://h.example/x\n', { proxy: { http: 'el-proxy:3128' } })).toBe('curl -X GET -x el-proxy:3128 http://h.example/x');
    // url.el's no_proxy regexp sends it direct: curl must not take the shell's proxy.
    expect(await curlOf('GET http://h.example/x\n', { proxy: { http: 'el-proxy:3128', noProxyRegexp: 'example' } })).toBe("curl -X GET --noproxy '*' http://h.example/x");
    expect(await curlOf('# @proxy http://tag:1\nGET http://h.example/x\n', { proxy: { http: 'el-proxy:3128' } })).toBe('curl -X GET -x http://tag:1 http://h.example/x');
    expect(await curlOf('# @no-proxy\nGET http://h.example/x\n', { proxy: { http: 'el-proxy:3128' } })).toBe("curl -X GET --noproxy '*' http://h.example/x");
    // `sheet run --noproxy` and url.el's no_proxy still send their hosts direct past a request's proxy.
    expect(await curlOf('# @proxy http://tag:1\nGET http://h.example/x\n', { proxy: { all: 'http://run:1', noProxy: 'example' } })).toBe("curl -X GET -x http://tag:1 --noproxy '*' http://h.example/x");
    expect(await curlOf('# @proxy http://tag:1\nGET http://h.example/x\n', { proxy: { http: 'el-proxy:3128', noProxyRegexp: 'example' } })).toBe("curl -X GET -x http://tag:1 --noproxy '*' http://h.example/x");
    expect(await curlOf('# @proxy http://tag:1\nGET http://h.example/x\n', { proxy: { all: 'http://run:1', noProxy: 'other.org' } })).toBe('curl -X GET -x http://tag:1 http://h.example/x');
    delete process.env.http_proxy;
    expect(await curlOf('GET http://h.example/x\n')).toBe('curl -X GET http://h.example/x');
  });

  it('the settings\' CA file and -k are printed too (the directive wins)', async () => {
    expect(await curlOf('GET https://h.example/x\n', { caFile: path.join(dir, 'n.netrc'), insecure: true })).toBe(`curl -X GET --cacert ${dir}/n.netrc -k https://h.example/x`);
    expect(await curlOf('# @cacert ca.pem\nGET https://h.example/x\n', { caFile: path.join(dir, 'n.netrc') })).toBe(`curl -X GET --cacert ${dir}/ca.pem https://h.example/x`);
  });

  it('a directive the session refuses is refused here too, naming the line', async () => {
    await expect(curlOf('# @cacert nope.pem\nGET https://h.example/x\n')).rejects.toMatchObject({ code: 'bad-ca-file', line: 1 });
  });
});
