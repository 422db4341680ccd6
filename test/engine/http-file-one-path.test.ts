// One pipeline for a `.http` request, whoever sends it: the library's HttpFileRunner
// (engine/src/session/http-file-runner.ts) and the session's `send` (C-c C-c, `sheet run`) must
// put the same request on the wire and get the same answer. Each case below is a rule that lived
// in the session only while the runner resolved and sent on its own: the environment read
// without a name (`$shared`, `.env`), the environment's client certificate, `# @http2`, and the
// session's settings (CA file, cookie jar file; their shape checked as the JSON-RPC server
// checks them). Then what the runner adds to that path: prompts through a callback, the
// scripts' client.log lines (also in the session's answer), its handler time limit.
// Servers: the example API and test/fixtures/private-ca.mjs (mutual TLS; HTTP/2), all on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFileRunner } from '../../engine/src/session/http-file-runner.js';
import { loadEnvironment } from '../../engine/src/http-file/environment.js';
import { Session } from '../../engine/src/session/session.js';
// @ts-expect-error plain ESM fixture without types
import { startPrivateCa } from '../fixtures/private-ca.mjs';
import { startApi, tempDir, type Api } from './helpers.js';

interface Ca { url: string; ca: string; client: { cert: string; key: string }; close(): Promise<void> }
let dir: string;
let api: Api;
let mtls: Ca;
let h2: Ca;
beforeAll(async () => {
  dir = tempDir('http-one-path-');
  for (const d of ['m', 'h', 'shared', 'jb', 'two', 'jar']) fs.mkdirSync(path.join(dir, d));
  api = await startApi();
  mtls = await startPrivateCa(path.join(dir, 'm'), { mtls: true });
  h2 = await startPrivateCa(path.join(dir, 'h'), { http2: true });
}, 60_000);
afterAll(async () => {
  await Promise.all([api?.close(), mtls?.close(), h2?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Write `text` to `sub/name` in the temp dir; its path. */
const write = (sub: string, name: string, text: string) => {
  const f = path.join(dir, sub, name);
  fs.writeFileSync(f, text);
  return f;
};

/** What both clients must agree on: the URL sent, the status, the HTTP version and the JSON body. */
interface Seen { url: string; status: number; httpVersion: string; body: unknown }

/** A JSON body without the private-ca server's count of the requests it answered so far. */
const json = (text: string): unknown => {
  const { requests: _, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
};

/** The request at the first request line of `file`, sent by HttpFileRunner. */
async function byRunner(file: string, o: ConstructorParameters<typeof HttpFileRunner>[0] = {}): Promise<Seen> {
  const [r] = await new HttpFileRunner({ file, ...o }).sendAll(fs.readFileSync(file, 'utf8'));
  const rs = r!.exchange.response;
  return { url: r!.request.url, status: rs.status, httpVersion: rs.httpVersion, body: json(Buffer.from(rs.body).toString('utf8')) };
}

/** The same request sent by a Session (what C-c C-c and `sheet run` call). */
async function bySession(file: string, env?: string, settings?: Parameters<Session['configure']>[0]): Promise<Seen> {
  const session = new Session();
  await session.configure(settings);
  const text = fs.readFileSync(file, 'utf8');
  const out = await session.send({ text, line: session.parse(text, file).requests[0]!.line, path: file, ...(env ? { env } : {}) });
  return { url: out.request.url, status: out.response.status, httpVersion: out.response.httpVersion, body: json(out.presentation.text!) };
}

/** Run `f` with the environment variable `name` set to `value` (both clients read it: curl's CURL_CA_BUNDLE). */
async function withEnv<T>(name: string, value: string, f: () => Promise<T>): Promise<T> {
  const before = process.env[name];
  process.env[name] = value;
  try {
    return await f();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

describe('a .http request goes one way, through HttpFileRunner as through Session.send', () => {
  it('no environment chosen: the $shared variables and the .env beside the file still apply', async () => {
    write('shared', 'http-client.env.json', JSON.stringify({ $shared: { base: api.url }, dev: {} }));
    write('shared', '.env', 'ID=1\n');
    const f = write('shared', 'a.http', 'GET {{base}}/users/{{$dotenv ID}}\n');
    const want = await bySession(f);
    expect(want).toMatchObject({ url: `${api.url}/users/1`, status: 200 });
    expect(await byRunner(f)).toEqual(want);
  });

  it("the environment's client certificate (JetBrains SSLConfiguration) is presented", async () => {
    const rel = (p: string) => path.relative(path.join(dir, 'jb'), p);
    write('jb', 'http-client.env.json', JSON.stringify({ jb: { SSLConfiguration: { clientCertificate: rel(mtls.client.cert), clientCertificateKey: rel(mtls.client.key) } } }));
    const f = write('jb', 'a.http', `GET ${mtls.url}/env\n`);
    await withEnv('CURL_CA_BUNDLE', mtls.ca, async () => {
      const want = await bySession(f, 'jb');
      expect(want.body).toMatchObject({ client: 'test client' });
      expect(await byRunner(f, { env: loadEnvironment(f, 'jb') })).toEqual(want);
    });
  });

  it('# @http2 offers HTTP/2 by ALPN', async () => {
    const f = write('two', 'a.http', `# @http2\nGET ${h2.url}/two\n`);
    await withEnv('CURL_CA_BUNDLE', h2.ca, async () => {
      const want = await bySession(f);
      expect(want).toMatchObject({ httpVersion: '2', body: { protocol: '2' } });
      expect(await byRunner(f)).toEqual(want);
    });
  });

  it("the session's settings: the CA file verifies the server, the cookie jar file keeps the cookie", async () => {
    const f = write('jar', 'a.http', `GET ${h2.url}/ca\n`);
    const want = await bySession(f, undefined, { caFile: h2.ca });
    expect(want).toMatchObject({ status: 200, body: { path: '/ca' } });
    expect(await byRunner(f, { settings: { caFile: h2.ca } })).toEqual(want);

    const set = write('jar', 'set.http', `GET ${api.url}/cookies/set?flavour=oat\n`);
    const jars = [path.join(dir, 'jar', 'session.txt'), path.join(dir, 'jar', 'runner.txt')];
    await bySession(set, undefined, { cookieJarFile: jars[0] });
    await byRunner(set, { settings: { cookieJarFile: jars[1] } });
    const cookieLine = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter((l) => /\tflavour\toat$/.test(l));
    expect(cookieLine(jars[0]!)).toHaveLength(1);
    expect(cookieLine(jars[1]!)).toEqual(cookieLine(jars[0]!));

    // The settings' shape is checked as the JSON-RPC server checks Emacs's: a located message, nothing sent.
    expect(() => new HttpFileRunner({ file: f, settings: { caFile: 3 } as never })).toThrow('HttpFileRunner settings.caFile must be a string or null, not 3');
    expect(() => new HttpFileRunner({ file: f, timeoutMs: -1 })).toThrow('HttpFileRunner options.timeoutMs must be a number (not negative), not -1');
  });
});

describe("what the runner adds to the session's path", () => {
  it('asks a # @prompt through its callback only while no value is set; a client.global value answers it', async () => {
    const f = write('shared', 'p.http', [
      '# @prompt id The user id',
      `GET ${api.url}/users/{{id}}`,
      '',
      '> {% client.global.set("id", "2"); %}',
      '',
      '###',
      '# @prompt id The user id',
      `GET ${api.url}/users/{{id}}`,
    ].join('\n'));
    const asked: string[] = [];
    const runner = new HttpFileRunner({ file: f, prompt: async (name, description, line) => (asked.push(`${line} ${name}: ${description}`), '1') });
    const [first, second] = await runner.sendAll(fs.readFileSync(f, 'utf8'));
    expect(asked).toEqual(['1 id: The user id']);
    expect([first!.request.url, second!.request.url]).toEqual([`${api.url}/users/1`, `${api.url}/users/2`]);
    expect(runner.globals.get('id')).toBe('2');
    // Without a callback the prompt is the session's located error, with a hint for a program.
    const err = await new HttpFileRunner({ file: f }).sendAll(fs.readFileSync(f, 'utf8')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'bad-argument', line: 1, message: 'line 1: # @prompt id needs a value (The user id)', hint: expect.stringContaining("runner.session.overrides.set(':id', VALUE)") });
  });

  it("returns the scripts' client.log lines and tests, and gives handlers its own time limit", async () => {
    const f = write('shared', 'h.http', [
      `GET ${api.url}/users/1`,
      '',
      '> {% client.log("status", response.status); client.test("is 200", () => client.assert(response.status === 200)); %}',
      '',
      '###',
      `GET ${api.url}/users/1`,
      '',
      '> {% while (true) {} %}',
    ].join('\n'));
    const [logged, looped] = await new HttpFileRunner({ file: f, handlerTimeoutMs: 300 }).sendAll(fs.readFileSync(f, 'utf8'));
    expect(logged!.logs).toEqual(['status 200']);
    expect(logged!.tests).toEqual([{ name: 'is 200', passed: true, line: 3 }]);
    expect(logged!.output.hooks.assertions).toMatchObject([{ name: 'client.test', args: 'is 200', passed: true }]);
    expect(logged!.output.logs).toEqual(['status 200']);
    expect(looped!.output.logs).toBeUndefined();
    expect(looped!.tests).toMatchObject([{ passed: false, message: 'the handler ran longer than 300 ms' }]);
  });
});
