// `sheet run x.http` end to end (real bin, real bundle, example API on 127.0.0.1): --env with
// JetBrains and VS Code environment files found above the file, client.test results as
// assertions (terminal, TAP, JUnit, JSON; exit 1 when one fails), client.global values carried
// to later requests, # @prompt answered by --var or a usage error, unknown env a usage error.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;

const sheet = (args: string[]) => runSheet(args, { cwd: dir });

function write(rel: string, text: string): string {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text.replaceAll('BASE', api.url));
  return p;
}

const CHAIN = `### log in
POST {{host}}/hf/login
Content-Type: application/json
X-Who: {{who}}

{"user": "{{who}}"}

> {%
  client.test("logged in", function () { client.assert(response.status === 200, "status " + response.status); });
  client.test("token given", function () { client.assert(response.body.token === "abc123", "no token"); });
  client.global.set("auth", response.body.token);
%}

### use the token
GET {{host}}/hf/me
Authorization: Bearer {{auth}}

> {%
  client.test("bearer echoed", function () { client.assert(response.body.headers.authorization === "Bearer abc123", response.body.headers.authorization); });
  client.test("shared value", function () { client.assert(response.body.headers["x-shared"] === undefined, "unexpected"); });
%}
`;

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('sheet-run-http-');
  write('http-client.env.json', JSON.stringify({ $shared: { who: 'shared-user' }, dev: { host: 'BASE' }, prod: { host: 'http://127.0.0.1:9' } }));
  write('http-client.private.env.json', JSON.stringify({ dev: { who: 'private-ada' } }));
  write('api/chain.http', CHAIN);
  write('vs/.vscode/settings.json', `{
    // VS Code REST Client's environments, with comments and a trailing comma
    "rest-client.environmentVariables": { "$shared": { "who": "vs-shared" }, "local": { "host": "BASE" }, },
  }`);
  write('vs/sub/one.http', 'GET {{host}}/hf/vs?who={{who}}\n\n> {%\n client.test("who", function () { client.assert(response.body.args.who === "shared-user", response.body.args.who); });\n%}\n');
}, 60000);

afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet run x.http --env', () => {
  it('resolves {{name}} from the environment walked up to, counts client.test as assertions and carries client.global', async () => {
    const r = await sheet(['run', 'api/chain.http', '--env', 'dev', '--report', 'json:out.json', '--report', 'junit:out.xml']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/✓ 200 POST \/hf\/login \(chain\.http:2\)/);
    expect(r.out).toContain('2 of 2 requests, 4 assertions, 0 failed');
    const rep = JSON.parse(fs.readFileSync(path.join(dir, 'out.json'), 'utf8'));
    const reqs = rep.files[0].results;
    // The private file wins over $shared for `who`; the handler's global reached the 2nd request.
    expect(reqs[0].request.headers).toContainEqual(['X-Who', 'private-ada']);
    expect(reqs[1].request.headers).toContainEqual(['Authorization', 'Bearer abc123']);
    expect(reqs[0].assertions.map((a: { args: string; passed: boolean }) => [a.args, a.passed])).toEqual([['logged in', true], ['token given', true]]);
    const xml = fs.readFileSync(path.join(dir, 'out.xml'), 'utf8');
    expect(xml).toContain('bearer echoed');
  });

  it('a failing client.test fails the run (exit 1) and says why, in TAP too', async () => {
    write('api/fail.http', 'GET {{host}}/hf/x\n\n> {%\n client.test("is 201", function () { client.assert(response.status === 201, "got " + response.status); });\n%}\n');
    const r = await sheet(['run', 'api/fail.http', '--env', 'dev', '--report', 'tap']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^not ok 1 - GET \{\{host\}\}\/hf\/x$/m);
    expect(r.out).toContain('fail.http:3: is 201: failed: got 200');
  });

  it('finds VS Code environments in .vscode/settings.json above the file (JetBrains $shared wins over VS Code $shared)', async () => {
    const r = await sheet(['run', 'vs/sub/one.http', '--env', 'local']);
    expect(r.err).toBe('');
    expect(r.out).toContain('1 assertions, 0 failed');
    expect(r.code).toBe(0);
  });

  it('an unknown environment is a usage error naming the known ones, before anything is sent', async () => {
    const r = await sheet(['run', 'api/chain.http', '--env', 'staging']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('"staging"');
    expect(r.err).toContain('dev, prod');
    expect(r.out).toBe('');
  });

  it('without --env, a name only the environment defines is a located sheet error (exit 2)', async () => {
    const r = await sheet(['run', 'api/chain.http']);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/chain\.http:\d+.*host/);
  });
});

describe('# @prompt in sheet run', () => {
  it('is a usage error naming the variable without --var, and uses --var name=value', async () => {
    write('api/prompt.http', '# @prompt otp one-time code\nGET {{host}}/hf/otp?code={{otp}}\n');
    const r = await sheet(['run', 'api/prompt.http', '--env', 'dev']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('prompt.http:1: # @prompt otp needs a value (one-time code): give it with --var otp=VALUE');
    const ok = await sheet(['run', 'api/prompt.http', '--env', 'dev', '--var', 'otp=4711', '--report', 'json:p.json']);
    expect(ok.code).toBe(0);
    const rep = JSON.parse(fs.readFileSync(path.join(dir, 'p.json'), 'utf8'));
    expect(rep.files[0].results[0].url).toContain('code=4711');
  });
});

describe('client.log in sheet run', () => {
  it("prints the scripts' client.log lines under their request and keeps them in the JSON report", async () => {
    write('api/log.http', [
      '< {% client.log("before", request.method); %}',
      'GET {{host}}/hf/me',
      '',
      '> {% client.log("status", response.status, {a: 1}); %}',
      '',
      '###',
      'GET {{host}}/hf/me',
    ].join('\n'));
    const r = await sheet(['run', 'api/log.http', '--env', 'dev', '--report', 'json:log.json']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/log\.http:2\)[^\n]*\n {4}log: before GET\n {4}log: status 200 \{"a":1\}\n[^\n]*log\.http:7\)/);
    const rep = JSON.parse(fs.readFileSync(path.join(dir, 'log.json'), 'utf8'));
    expect(rep.files[0].results.map((x: { logs?: string[] }) => x.logs)).toEqual([['before GET', 'status 200 {"a":1}'], undefined]);
  });
});
