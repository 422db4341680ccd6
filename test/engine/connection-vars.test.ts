// Variables in the values of connection directives (engine/src/sheet/connection-tags.ts
// `substitutedDirectives`): `# @proxy {{proxy}}` in a `.http` file, `# @proxy :proxy` in a sheet,
// substituted by the pass of the request's header values; the checks before sending apply to the
// substituted value and name the directive's line and the variable; `# @noproxy ""` is curl's
// `--noproxy ''`. What C-c C-u (`sheet/curl`) prints shows the values the engine uses; the wire
// (tinyproxy) is in connection-wire.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseForFile } from '../../engine/src/http-file/index.js';
import { lintSheet } from '../../engine/src/lint/diagnostics.js';
import { httpToSheet, sheetToHttp } from '../../engine/src/convert/sheet-http.js';
import { Session } from '../../engine/src/session/session.js';
import { tempDir } from './helpers.js';

let dir: string;
const saved = { ...process.env };
beforeAll(() => {
  dir = tempDir('connection-vars-');
  fs.mkdirSync(path.join(dir, 'certs'));
  for (const f of ['certs/ca.pem', 'certs/c.pem', 'certs/k.pem']) fs.writeFileSync(path.join(dir, f), 'x\n');
  fs.writeFileSync(path.join(dir, 'http-client.env.json'), JSON.stringify({ dev: { certDir: path.join(dir, 'certs'), proxy: 'http://env-file-proxy:3128' } }));
  for (const k of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY', 'no_proxy', 'NO_PROXY']) delete process.env[k];
});
afterAll(() => {
  process.env = saved;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The request at its request line, in `file` of `dir`. */
const at = (text: string, file: string, env?: string) => ({ text, line: text.split('\n').findIndex((l) => /^[A-Z]+ /.test(l)) + 1, path: path.join(dir, file), ...(env ? { env } : {}) });
/** C-c C-u's command for the request. */
const curlOf = async (text: string, file = 'a.http', env?: string) => (await new Session().curl(at(text, file, env))).command;
/** What the session refuses the request with (it never connects: 127.0.0.1:9 would refuse). */
const refusal = (text: string, file = 'a.http') =>
  new Session().send(at(text, file)).then(
    () => undefined,
    (e: { code: string; line?: number; message: string; hint?: string; details?: unknown }) => e,
  );

describe('substituted as header values are', () => {
  it('.http: a file variable in # @proxy, an environment\'s in # @cacert and # @cert', async () => {
    expect(await curlOf('@proxy = http://127.0.0.1:3128\n# @proxy {{proxy}}\nGET http://h.example/x\n')).toBe('curl -X GET -x http://127.0.0.1:3128 http://h.example/x');
    const c = await curlOf('# @cacert {{certDir}}/ca.pem\n# @cert {{certDir}}/c.pem\n# @key {{ certDir }}/k.pem\n# @proxy {{proxy}}\nGET https://h.example/x\n', 'a.http', 'dev');
    expect(c).toBe(`curl -X GET -x http://env-file-proxy:3128 --cacert ${dir}/certs/ca.pem --cert ${dir}/certs/c.pem --key ${dir}/certs/k.pem https://h.example/x`);
  });

  it('sheet: :name in # @proxy and a file name; an override (sheet-set-var) wins as in a header', async () => {
    const text = ':proxy = http://127.0.0.1:3128\n:certs = certs\n# @proxy :proxy\n# @cacert :certs/ca.pem\nGET https://h.example/x\n';
    expect(await curlOf(text, 'a.sheet')).toBe(`curl -X GET -x http://127.0.0.1:3128 --cacert ${dir}/certs/ca.pem https://h.example/x`);
    const s = new Session();
    s.overrides.set(':proxy', 'http://other:1');
    expect((await s.curl(at(text, 'a.sheet'))).command).toMatch(/^curl -X GET -x http:\/\/other:1 /);
  });
});

describe('converted: a reference in a value follows the header\'s syntax', () => {
  it('.http -> sheet: {{proxy}} -> :proxy; sheet -> .http: :proxy -> {{proxy}}', () => {
    const http = '@proxy = http://p:1\n\n# @proxy {{proxy}}\nGET http://h/\nX-Via: {{proxy}}\n';
    const sheet = httpToSheet(http);
    expect(sheet.text).toContain('# @proxy :proxy\nGET http://h/\nX-Via: :proxy\n');
    expect(sheet.problems).toEqual([]);
    expect(sheetToHttp(':proxy = http://p:1\n# @proxy :proxy\n# @cacert :proxy/ca.pem\nGET http://h/\n').text).toContain('# @proxy {{proxy}}\n# @cacert {{proxy}}/ca.pem\nGET http://h/\n');
  });
});

describe('checked after substitution, naming the line and the variable; nothing is sent', () => {
  it.each([
    ['.http: a malformed proxy', '@proxy = http://[::1\n\n# @proxy {{proxy}}\nGET http://127.0.0.1:9/\n', 'a.http', { code: 'bad-proxy', line: 3, message: expect.stringMatching(/^line 3: # @proxy: not a proxy URL: "http:\/\/\[::1" \(from \{\{proxy\}\}\)$/), details: expect.objectContaining({ variables: ['{{proxy}}'] }) }],
    ['sheet: a no-proxy entry with a port', ':np = localhost:8080\n# @noproxy :np\nGET http://127.0.0.1:9/\n', 'a.sheet', { code: 'bad-proxy', line: 2, message: expect.stringMatching(/# @noproxy: curl matches host names, never ports.* \(from :np\)$/) }],
    ['sheet: an unreadable CA file', ':dir = /nonexistent\n# @cacert :dir/ca.pem\nGET https://127.0.0.1:9/\n', 'a.sheet', { code: 'bad-ca-file', line: 2, message: expect.stringMatching(/^line 2: # @cacert: cannot read \/nonexistent\/ca\.pem \(ENOENT\) \(from :dir\); nothing was sent$/), hint: expect.stringMatching(/the value of :dir/), details: expect.objectContaining({ curlExit: 77 }) }],
    ['.http: a client certificate from the environment that is not there', '@certDir = /nonexistent\n# @cert {{certDir}}/c.pem:pw\nGET https://127.0.0.1:9/\n', 'a.http', { code: 'bad-client-cert', line: 2, message: expect.stringMatching(/# @cert: cannot read \/nonexistent\/c\.pem .*\(from \{\{certDir\}\}\)/) }],
    ['.http: an empty value', '@proxy =\n# @proxy {{proxy}}\nGET http://127.0.0.1:9/\n', 'a.http', { code: 'bad-option', line: 2, message: expect.stringMatching(/^line 2: # @proxy needs a value \(curl's -x VALUE\): \{\{proxy\}\} is empty after substitution$/), hint: expect.stringMatching(/^Give \{\{proxy\}\} a value/) }],
    ['sheet: {{name}} is left as written (as in a header), so the value is refused, saying how a sheet refers to a variable', '# @proxy {{proxy}}\nGET http://127.0.0.1:9/\n', 'a.sheet', { code: 'bad-option', line: 1, message: expect.stringMatching(/^line 1: # @proxy \{\{proxy\}\}: \{\{proxy\}\} is not substituted in a sheet$/), hint: expect.stringMatching(/a sheet refers to a variable as :name/) }],
  ])('%s', async (_, text, file, want) => expect(await refusal(text, file)).toMatchObject(want));

  it('a file that is there but holds no certificate (read when sending): the message names the variable too', async () => {
    const e = await refusal(`@d = ${dir}/certs\n# @cacert {{d}}/ca.pem\nGET https://127.0.0.1:9/\n`);
    expect(e).toMatchObject({ code: 'bad-ca-file', line: 2, message: expect.stringMatching(/^line 2: # @cacert \(\{\{d\}\}\) \S*certs\/ca\.pem: the CA file holds no PEM certificate/) });
  });

  it('.http: an undefined variable is the error a header\'s is (unknown-variable, the line)', async () => {
    const header = await refusal('GET http://127.0.0.1:9/\nX-Proxy: {{nope}}\n');
    const directive = await refusal('# @proxy {{nope}}\nGET http://127.0.0.1:9/\n');
    expect(header).toMatchObject({ code: 'unknown-variable', line: 2 });
    expect(directive).toMatchObject({ code: 'unknown-variable', line: 1, message: header!.message.replace('line 2', 'line 1') });
  });

  it('sheet: a :name no client could evaluate is the error a header\'s is (lisp-unavailable)', async () => {
    expect(await refusal(':p := (getenv "P")\n# @proxy :p\nGET http://127.0.0.1:9/\n', 'a.sheet')).toMatchObject({ code: 'lisp-unavailable', line: 1 });
  });
});

describe('# @noproxy "": the empty list', () => {
  it('over NO_PROXY: the proxy for every host; C-c C-u prints --noproxy \'\'', async () => {
    process.env.no_proxy = 'h.example';
    try {
      expect(await curlOf('# @proxy http://p:1\n# @noproxy ""\nGET http://h.example/x\n')).toBe("curl -X GET -x http://p:1 --noproxy '' http://h.example/x");
      expect(await curlOf("@np = ''\n# @proxy http://p:1\n# @noproxy {{np}}\nGET http://h.example/x\n")).toBe("curl -X GET -x http://p:1 --noproxy '' http://h.example/x");
    } finally {
      delete process.env.no_proxy;
    }
  });
});

describe('lint: a value with a variable is checked when sent', () => {
  const lint = (text: string, file: string) =>
    lintSheet(text, parseForFile(text, path.join(dir, file)), { fileCheck: (name) => (fs.existsSync(path.resolve(dir, name)) ? undefined : 'ENOENT') }).map((d) => `${d.line} ${d.code} ${d.message}`);
  it.each([
    ['.http', '@proxy = http://p:1\n@certDir = /nonexistent\n# @proxy {{proxy}}\n# @cacert {{certDir}}/ca.pem\nGET https://h/\n', 'a.http', []],
    ['sheet (an undeclared :name is a value as written)', ':p = http://p:1\n:d = certs\n# @proxy :p\n# @cacert :d/ca.pem\n# @netrc-file :u/n.netrc\nGET https://h/\n', 'a.sheet', [expect.stringMatching(/^5 file-unreadable # @netrc-file: cannot read :u\/n\.netrc/), '5 unknown-variable :u is not a declared variable; it is sent as written']],
    ['.http: an undefined {{name}} is the error a header\'s is', '# @proxy {{nope}}\nGET https://h/\nX-A: {{nope}}\n', 'a.http', ['1 unknown-variable {{nope}} is not defined', '3 unknown-variable {{nope}} is not defined']],
    ['sheet: {{name}} is refused while typing too', '# @proxy {{proxy}}\nGET https://h/\n', 'a.sheet', [expect.stringMatching(/^1 bad-option # @proxy \{\{proxy\}\}: \{\{proxy\}\} is not substituted in a sheet$/)]],
  ])('%s', (_, text, file, want) => expect(lint(text, file)).toEqual(want));
});
