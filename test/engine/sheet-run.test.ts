// `sheet run` (engine/bin/sheet) end to end: the real launcher and bundle, the example API and
// httpbin on 127.0.0.1, real jq and a real batch Emacs. Every flag, every exit status, each
// assertion passing and failing, captures chained, Lisp through batch Emacs, located sheet
// errors, TAP (tap-parser) and JUnit (fast-xml-parser) reports, and examples/assertions.sheet.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { build } from 'esbuild';
import { WS_NATIVE_ALIAS } from './global-setup.js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Parser } from 'tap-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root, runSheet, startApi, tempDir, type Api, type CliRun } from './helpers.js';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';
import { VERSION } from '../../engine/src/version.js';

let api: Api;
let hb: { url: string };
let dir: string;

const sheet = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> => runSheet(args, { cwd: dir, env });

function write(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text.replaceAll('BASE', api.url).replaceAll('HTTPBIN', hb.url));
  return p;
}

beforeAll(async () => {
  // The bundle behind engine/bin/sheet, as the Makefile's build-engine makes it.
  const out = path.join(root, 'engine/dist/sheet.cjs');
  const tmp = `${out}.${process.pid}.tmp`;
  await build({ absWorkingDir: root, entryPoints: ['engine/src/sheet-command/entry.ts'], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: tmp, logLevel: 'warning', legalComments: 'none', alias: WS_NATIVE_ALIAS });
  fs.renameSync(tmp, out);
  [api, hb] = await Promise.all([startApi(), sharedHttpbin()]);
  dir = tempDir('sheet-run-');
}, 60000);

afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const CHAIN = `:base = BASE
:user = ada
#
# log in
POST :base/login
Content-Type: application/json
-> jq-set-var :token .token
-> expect-status 200

{"user": ":user", "password": "secret"}
#
# the token carries on
GET :base/me
Authorization: Bearer :token
-> expect-status 2xx
-> expect-jq '.user == "ada"'
`;

describe('sheet run: passing, failing, exit statuses', () => {
  it('runs every request in order, captures chained, exit 0, one line per request and a summary', async () => {
    const f = write('chain.sheet', CHAIN);
    const r = await sheet(['run', f]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toMatch(/^✓ 200 POST \/login \(chain\.sheet:5\) \d+ ms {2}\[1\/2\]$/);
    expect(lines[1]).toMatch(/^✓ 200 GET \/me \(chain\.sheet:13\) \d+ ms {2}\[2\/2\]$/);
    expect(lines[2]).toMatch(/^2 of 2 requests, 3 assertions, 0 failed/);
  });

  it.each([
    ['expect-status 200', 'expect-status 404', '/users/1'],
    ['expect-status 2xx', 'expect-status 4xx', '/users/1'],
    ['expect-status 201 200', 'expect-status 201 204', '/users/1'],
    ['expect-header Content-Type json', 'expect-header Content-Type xml', '/users/1'],
    ['expect-header Content-Type', 'expect-header X-Nope', '/users/1'],
    ["expect-jq '.name | startswith(\"Ada\")'", "expect-jq '.id == 2'", '/users/1'],
    ['expect-body "name": "Ada', 'expect-body Barbara', '/users/1'],
    ['expect-time < 30000', 'expect-time > 30000', '/users/1'],
    ['expect-time <= 30000', 'expect-time = 1', '/users/1'],
  ])('%s passes; %s fails naming the line, the expectation and what came back', async (pass, fail, p) => {
    const f = write('one.sheet', `GET BASE${p}\n-> ${pass}\n-> ${fail}\n`);
    const r = await sheet(['run', f]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('✗ 200 GET /users/1 (one.sheet:1)');
    expect(r.out).toContain(`one.sheet:3: ${fail}: failed, got `);
    expect(r.out).not.toContain(`one.sheet:2: ${pass}: failed`);
    expect(r.out).toMatch(/1 of 1 requests, 2 assertions, 1 failed/);
  });

  it('a failure shows the first 200 bytes of the body', async () => {
    const f = write('big.sheet', 'GET BASE/big.json?kb=8\n-> expect-body no-such-text\n');
    const r = await sheet(['run', f]);
    expect(r.code).toBe(1);
    const msg = r.out.split('\n').find((l) => l.includes('expect-body'))!;
    expect(msg).toMatch(/got body .+…$/);
    expect(Buffer.byteLength(msg.replace(/^.*got body /, ''))).toBeLessThanOrEqual(200 + 3);
  });

  it('an invalid assertion argument is a sheet error saying what to write (exit 2; more in sheet-run-assert-form.test.ts)', async () => {
    const f = write('badarg.sheet', 'GET BASE/users/1\n-> expect-status ok\n-> expect-body [\n');
    const r = await sheet(['run', f]);
    expect(r.code).toBe(2);
    expect(r.out).toContain('badarg.sheet:2: expect-status ok: the argument must be a status code (200) or class (2xx)');
    expect(r.out).not.toContain('GET /users/1');
  });

  it('exit 2: a sheet error, located by line, before any request', async () => {
    const f = write('broken.sheet', 'GET BASE/users\n#\n:body = <<\n{"a": 1}\n');
    const r = await sheet(['run', f]);
    expect(r.code).toBe(2);
    expect(r.out).toContain('broken.sheet:3: unterminated multi-line variable :body');
    expect(r.out).not.toContain('GET /users');
  });

  it('exit 2: an undefined variable is a resolve error naming the file and line', async () => {
    const f = write('undef.sheet', 'GET BASE/users\n#\nGET :nowhere/users\n');
    const r = await sheet(['run', f]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/✗ ERR GET :nowhere\/users \(undef\.sheet:3\)/);
    expect(r.out).toContain('undef.sheet:3');
    // What to do comes with the request's error, as with a file's.
    expect(r.out).toMatch(/undef\.sheet:3: invalid URL ":nowhere\/users"\n {4}hint: Write an absolute URL/);
  });

  it.each([
    [['run'], /at least one FILE/],
    [[], /a command is needed/],
    [['walk', 'x'], /unknown command walk/],
    [['run', 'x.sheet', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['run', 'nope.sheet'], /cannot read nope\.sheet/],
    [['run', 'x.sheet', '--var', 'name=v'], /--var name=v: use --var :name=value/],
    [['run', 'x.sheet', '--report', 'xml:a'], /--report xml:a: use tap/],
    [['run', 'x.sheet', '--report', 'junit'], /--report junit needs a file/],
    [['run', 'x.sheet', '--line', '0'], /--line 0: a line number/],
    [['run', 'x.sheet', '--line', '1', '--grep', 'x'], /cannot be used together/],
    [['run', 'x.sheet', '--grep', '('], /--grep \(: Invalid regular expression/],
    [['run', 'x.sheet', '--jobs', '0'], /--jobs 0/],
    [['run', 'x.sheet', '--timeout', 'soon'], /--timeout soon: seconds/],
  ])('exit 2: usage error %j', async (args, message) => {
    write('x.sheet', 'GET BASE/users\n');
    const r = await sheet(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).toContain("Try 'sheet --help'");
  });

  it('exit 3: a transport failure (connection refused) stops the file', async () => {
    const f = write('down.sheet', 'GET http://127.0.0.1:1/x\n#\nGET BASE/users\n');
    const r = await sheet(['run', f]);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/✗ --- GET \/x \(down\.sheet:1\)/);
    expect(r.out).toMatch(/refused/i);
    expect(r.out).not.toContain('GET /users');
  });

  it('--help and --version (the engine\'s VERSION)', async () => {
    const h = await sheet(['--help']);
    expect(h.code).toBe(0);
    for (const flag of ['--var', '--line', '--grep', '--report', '--jobs', '--fail-fast', '--timeout', '--insecure', '--cookie-jar', 'Exit status']) expect(h.out).toContain(flag);
    const v = await sheet(['--version']);
    expect(v).toEqual({ code: 0, out: `sheet ${VERSION}\n`, err: '' });
    // The npm bin link (npx sheet) runs the same launcher.
    expect(execFileSync(path.join(root, 'node_modules/.bin/sheet'), ['--version'], { encoding: 'utf8' })).toBe(`sheet ${VERSION}\n`);
  });
});

describe('sheet run: flags', () => {
  it('--var overrides a declaration; --line runs one request; --grep selects by request or comment line', async () => {
    const f = write('sel.sheet', `:id = 2\n#\n# first user\nGET BASE/users/:id\n-> expect-jq '.id == 1'\n#\n# the list\nGET BASE/users\n-> expect-status 200\n`);
    const v = await sheet(['run', f, '--var', ':id=1']);
    expect(v.code).toBe(0);
    const l = await sheet(['run', f, '--line', '8']);
    expect(l.code).toBe(0);
    expect(l.out).toContain('GET /users (sel.sheet:8)');
    expect(l.out).toContain('1 of 1 requests');
    const g = await sheet(['run', f, '--grep', 'first user']);
    expect(g.code).toBe(1); // :id = 2 fails '.id == 1'
    expect(g.out).toContain('GET /users/2 (sel.sheet:4)');
    expect(g.out).not.toContain('sel.sheet:8');
  });

  it('--jobs runs files in parallel; --fail-fast stops at the first failure', async () => {
    const slow = write('slow.sheet', 'GET BASE/slow?ms=1500\n-> expect-status 200\n');
    const fast = write('fast.sheet', 'GET BASE/users\n-> expect-status 200\n');
    // One at a time, the slow file's line comes first; two at a time, the fast file finishes first.
    const one = await sheet(['run', slow, fast]);
    expect(one.out.indexOf('slow.sheet:1')).toBeLessThan(one.out.indexOf('fast.sheet:1'));
    const r = await sheet(['run', slow, fast, '--jobs', '2']);
    expect(r.code).toBe(0);
    expect(r.out.indexOf('fast.sheet:1')).toBeLessThan(r.out.indexOf('slow.sheet:1'));
    expect(r.out).toContain('2 of 2 requests');
    const f = write('ff.sheet', 'GET BASE/users/9\n-> expect-status 200\n#\nGET BASE/users/8\n-> expect-status 200\n');
    const all = await sheet(['run', f]);
    expect(all.out).toContain('2 of 2 requests');
    const ff = await sheet(['run', f, '--fail-fast']);
    expect(ff.code).toBe(1);
    expect(ff.out).toContain('1 of 2 requests');
  });

  it('--timeout S: a slower response is a transport failure (exit 3)', async () => {
    const f = write('to.sheet', 'GET BASE/slow?ms=3000\n');
    const r = await sheet(['run', f, '--timeout', '0.3']);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/300 ms|timed? ?out/i);
  });

  it('--cookie-jar PATH: cookies saved in the Netscape format and sent back', async () => {
    const jar = path.join(dir, 'jar.txt');
    const f = write('cookies.sheet', 'GET BASE/cookies/set?flavour=oatmeal\n#\nGET BASE/cookies\n-> expect-jq \'.cookies.flavour == "oatmeal"\'\n');
    const r = await sheet(['run', f, '--cookie-jar', jar]);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(jar, 'utf8')).toMatch(/127\.0\.0\.1\t.*\tflavour\toatmeal/);
  });

  it('--insecure (-k): a self-signed certificate fails without it (exit 3) and passes with it', async () => {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (_, res) => res.end('{"tls":true}'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const port = (server.address() as { port: number }).port;
      const f = write('tls.sheet', `GET https://127.0.0.1:${port}/\n-> expect-jq .tls\n`);
      const bad = await sheet(['run', f]);
      expect(bad.code).toBe(3);
      expect((await sheet(['run', f, '--insecure'])).code).toBe(0);
      expect((await sheet(['run', f, '-k'])).code).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('sheet run: reports', () => {
  it('--report tap on stdout (progress on stderr) parses as TAP with the right points', async () => {
    const f = write('rep.sheet', `${CHAIN}#\nGET BASE/users/9\n-> expect-status 200\n`);
    const r = await sheet(['run', f, '--report', 'tap']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('✗ 404 GET /users/9');
    const result = await new Promise<{ ok: boolean; count: number; pass: number; fail: number; failures: { name: string; diag: { message: string } }[] }>((done) => {
      const p = new Parser((res) => done(res as never));
      p.end(r.out);
    });
    expect(result).toMatchObject({ ok: false, count: 3, pass: 2, fail: 1 });
    // The request line as written (issue 36 item 6: stable names; the line is TAP's `at:`).
    expect(result.failures[0]!.name).toBe(`GET ${api.url}/users/9`);
    expect(result.failures[0]!.diag.message).toContain('rep.sheet:19: expect-status 200: failed, got 404');
  });

  it('--report FORMAT:- writes the report on stdout (progress on stderr), never a file named -', async () => {
    const f = write('rep-dash.sheet', `GET BASE/users/9\n-> expect-status 200\n`);
    const t = await sheet(['run', f, '--report', 'tap:-']);
    expect(t.code).toBe(1);
    expect(t.out).toMatch(/^TAP version 14\n/);
    expect(t.err).toContain('✗ 404 GET /users/9');
    const j = await sheet(['run', f, '--report', 'json:-']);
    expect(JSON.parse(j.out).summary).toMatchObject({ requests: 1, failed: 1 });
    expect(fs.existsSync(path.join(dir, '-'))).toBe(false);
  });

  it('--report junit:PATH is well-formed JUnit XML; --report json:PATH has the request as sent and each assertion', async () => {
    const f = write('rep2.sheet', `${CHAIN}#\nGET BASE/users/9?q=<&>\n-> expect-status 200\n`);
    const broken = write('rep3.sheet', 'GET http://127.0.0.1:1/\n');
    const r = await sheet(['run', f, broken, '--report', 'junit:j.xml', '--report', 'json:r.json']);
    expect(r.code).toBe(3);
    const xml = fs.readFileSync(path.join(dir, 'j.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suites = doc.testsuites.testsuite;
    expect(suites).toHaveLength(2);
    expect(suites[0]).toMatchObject({ name: f, tests: '3', failures: '1', errors: '0' });
    expect(suites[0].testcase[2]).toMatchObject({ name: `GET ${api.url}/users/9?q=<&>`, file: f, line: '18' });
    expect(suites[0].testcase[2].failure.message).toContain('rep2.sheet:19: expect-status 200: failed, got 404');
    expect(suites[1]).toMatchObject({ tests: '1', errors: '1' });
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8'));
    expect(json.summary).toMatchObject({ files: 2, requests: 4, passed: 2, failed: 1, transportErrors: 1 });
    const [login, me] = json.files[0].results;
    expect(login.request).toMatchObject({ method: 'POST', url: `${api.url}/login`, body: { encoding: 'utf-8', data: '{"user": "ada", "password": "secret"}' } });
    expect(me.request.headers).toContainEqual(['Authorization', expect.stringMatching(/^Bearer .+/)]);
    expect(me.assertions).toEqual([
      expect.objectContaining({ line: 15, name: 'expect-status', args: '2xx', passed: true }),
      expect.objectContaining({ line: 16, name: 'expect-jq', passed: true }),
    ]);
    expect(typeof me.durationMs).toBe('number');
    // Reports hold requests as sent (Authorization above): private, and no temporary file left.
    expect(fs.statSync(path.join(dir, 'r.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'j.xml')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('sheet run: Lisp through batch Emacs', () => {
  const LISP = `:base = BASE
:who := (concat "a" "da")
#
POST :base/login
-> run-hook (sheet-set-var ":token" (progn (re-search-forward "\\"token\\": *\\"\\\\([^\\"]+\\\\)") (match-string 1)))

{"user": ":who", "password": "secret"}
#
GET :base/me
Authorization: Bearer :token
-> expect-jq '.user == "ada"'
`;

  it(':= variables and run-hook forms (sheet-set-var carries on) are evaluated by one emacs --batch', async () => {
    const f = write('lisp.sheet', LISP);
    const r = await sheet(['run', f]);
    expect(r.out + r.err).not.toMatch(/warning/);
    expect(r.code).toBe(0);
  });

  it('sheet-get-var and restclient-get-var read the run\'s variables, with sheet-batch.el alone as in the npm package (issue 22 item 2)', async () => {
    const alone = fs.mkdtempSync(path.join(dir, 'elisp-'));
    fs.copyFileSync(path.join(root, 'elisp/sheet-batch.el'), path.join(alone, 'sheet-batch.el'));
    const f = write('getvar.sheet', `:base = BASE
:user = jack
:auth-token := (format "tok-%s" (restclient-get-var ":user"))
:plain := (format "[%s]" (sheet-get-var ":user"))
GET :base/echo/a?p=:plain&t=:auth-token
-> run-hook (restclient-set-var ":seen" (format "%s/%s" (restclient-get-var ":auth-token") (sheet-get-var ":plain")))
#
GET :base/echo/b?s=:seen
`);
    const r = await sheet(['run', f], { SHEET_ELISP_DIR: alone });
    expect(r.out + r.err).not.toMatch(/warning|nil/);
    expect(r.out).toContain('GET /echo/a?p=[jack]&t=tok-jack');
    expect(r.out).toContain('GET /echo/b?s=tok-jack/[jack]');
    expect(r.code).toBe(0);
  });

  it('without Emacs, the run stops before the first request naming the variable and its line', async () => {
    const f = write('lisp2.sheet', LISP);
    const r = await sheet(['run', f], { EMACS: '/nonexistent/emacs' });
    expect(r.code).toBe(2);
    expect(r.out).toContain('lisp2.sheet:2: the Lisp variable :who needs Emacs');
    expect(r.out).not.toMatch(/POST/);
    // Given with --var, the variable needs no Emacs; the run-hook still does.
    const v = await sheet(['run', f, '--var', ':who=ada'], { EMACS: '/nonexistent/emacs' });
    expect(v.code).toBe(2);
    expect(v.out).toContain('lisp2.sheet:5: the run-hook needs Emacs');
  });
});

describe('examples/', () => {
  it('examples/assertions.sheet passes against the example API and httpbin', async () => {
    const r = await runSheet(['run', path.join(root, 'examples/assertions.sheet'), '--var', `:base=${api.url}`, '--var', `:httpbin=${hb.url}`], { cwd: root });
    expect(r.out).not.toContain('✗');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/assertions, 0 failed/);
  });
});
