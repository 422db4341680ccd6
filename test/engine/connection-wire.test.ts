// Issue 20 item 5 on the wire: curl -> `sheet import-curl` -> `sheet run` -> `sheet export --to
// curl` -> bash, for curl's connection options, each leg checked where it arrives: a real proxy's
// log (Debian's tinyproxy, test/fixtures/proxy.mjs), an API on a Unix socket
// (test/fixtures/server.mjs --socket), an HTTPS server of a private CA that requires a client
// certificate (test/fixtures/private-ca.mjs --mtls), a capture server behind the proxy comparing
// the request bytes (curl-wire.ts). curl runs the same command beside the
// engine; a directive the session refuses sends nothing (a listening socket counts connections).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';
import { HttpFileRunner } from '../../engine/src/session/http-file-runner.js';
import { wireBench } from './curl-wire.js';
// @ts-expect-error plain ESM fixture without types
import { startProxy } from '../fixtures/proxy.mjs';
// @ts-expect-error plain ESM fixture without types
import { startServer } from '../fixtures/server.mjs';
// @ts-expect-error plain ESM fixture without types
import { startPrivateCa } from '../fixtures/private-ca.mjs';

/** No proxy or CA variable of the machine running the tests leaks into curl or the engine. */
const CLEAN = { http_proxy: '', https_proxy: '', HTTPS_PROXY: '', all_proxy: '', ALL_PROXY: '', no_proxy: '', NO_PROXY: '', CURL_CA_BUNDLE: '', SSL_CERT_FILE: '', NODE_EXTRA_CA_CERTS: '' };

let dir: string;
let api: Api;
let proxy: { url: string; requests(): string[]; close(): Promise<void> };
let sock: { close(): Promise<void> };
let socketFile: string;
let mtls: { url: string; ca: string; client: { cert: string; key: string; encKey: string; pass: string }; close(): Promise<void> };

beforeAll(async () => {
  dir = tempDir('connection-wire-');
  fs.mkdirSync(path.join(dir, 'm'));
  api = await startApi();
  proxy = await startProxy();
  socketFile = path.join(dir, 'api.sock');
  sock = await startServer({ socket: socketFile });
  mtls = await startPrivateCa(path.join(dir, 'm'), { mtls: true });
});
afterAll(async () => {
  await api.close();
  await proxy.close();
  await sock.close();
  await mtls.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Run `command` in bash (the real curl), in `dir`. */
const bash = (command: string): Promise<{ code: number; out: string; err: string }> =>
  new Promise((resolve) => {
    execFile('bash', ['-c', command], { cwd: dir, env: { ...process.env, ...CLEAN }, timeout: 30000 }, (e, out, err) => resolve({ code: e ? ((e as { code?: number }).code ?? -1) : 0, out, err }));
  });
const sheet = (args: string[], input?: string) => runSheet(args, { cwd: dir, env: CLEAN, ...(input !== undefined ? { input } : {}) });

/**
 * curl COMMAND, then the same through the engine: imported (exit 0, no warning), `sheet run` with
 * `assertion` appended, then exported (`sheet export --to curl`) and run by bash. Returns curl's
 * body, the sheet text, the exported command and its body.
 */
async function roundTrip(command: string, assertion: string) {
  const viaCurl = await bash(command);
  expect(viaCurl.code, viaCurl.err).toBe(0);
  const imported = await sheet(['import-curl', command]);
  expect(imported.err).toBe('');
  expect(imported.code).toBe(0);
  const file = path.join(dir, `r${Math.random().toString(36).slice(2)}.sheet`);
  fs.writeFileSync(file, `${imported.out}${assertion}\n`);
  const run = await sheet(['run', file]);
  expect(run.out + run.err).toMatch(/1 of 1 requests, 1 assertions, 0 failed/);
  expect(run.code).toBe(0);
  const line = imported.out.split('\n').findIndex((l) => /^[A-Z]+ /.test(l)) + 1;
  const exported = await sheet(['export', '--to', 'curl', `${file}:${line}`]);
  expect(exported.code, exported.err).toBe(0);
  const back = await bash(exported.out.trim());
  expect(back.code, back.err).toBe(0);
  return { curl: viaCurl.out, text: imported.out, exported: exported.out.trim(), back: back.out };
}

describe('curl -> sheet -> curl on the wire', () => {
  it('-x: through tinyproxy, its log shows curl, sheet run and the exported curl alike', async () => {
    const r = await roundTrip(`curl -s -x ${proxy.url} '${api.url}/small?wire=proxy'`, '-> expect-status 200');
    expect(r.text).toBe(`# @proxy ${proxy.url}\nGET ${api.url}/small?wire=proxy\n`);
    expect(r.exported).toBe(`curl -X GET -x ${proxy.url} '${api.url}/small?wire=proxy'`);
    expect(proxy.requests().filter((l) => l.includes('wire=proxy'))).toEqual(Array(3).fill(`GET ${api.url}/small?wire=proxy HTTP/1.1`));
    expect(r.back).toBe(r.curl);
  });

  it('--noproxy: the host in the list goes direct, for curl and the engine (no line in the log)', async () => {
    const r = await roundTrip(`curl -s -x ${proxy.url} --noproxy 127.0.0.1 '${api.url}/small?wire=noproxy'`, '-> expect-status 200');
    expect(r.text).toBe(`# @proxy ${proxy.url}\n# @noproxy 127.0.0.1\nGET ${api.url}/small?wire=noproxy\n`);
    expect(proxy.requests().filter((l) => l.includes('wire=noproxy'))).toEqual([]);
    expect(r.back).toBe(r.curl);
  });

  it('--unix-socket: the API on a socket file answers curl, sheet run and the exported curl', async () => {
    const r = await roundTrip(`curl -s --unix-socket ${socketFile} 'http://localhost/small?wire=socket'`, '-> expect-jq \'.name == "small"\'');
    expect(r.text).toBe(`# @unix-socket ${socketFile}\nGET http://localhost/small?wire=socket\n`);
    expect(r.exported).toBe(`curl -X GET --unix-socket ${socketFile} 'http://localhost/small?wire=socket'`);
    expect(r.back).toBe(r.curl);
  });

  it('--cacert --cert --key: a private CA\'s server that requires a client certificate sees the same client', async () => {
    const r = await roundTrip(`curl -s --cacert ${mtls.ca} --cert ${mtls.client.cert} --key ${mtls.client.key} '${mtls.url}/who?wire=mtls'`, '-> expect-jq \'.client == "test client"\'');
    expect(r.text).toBe(`# @cacert ${mtls.ca}\n# @cert ${mtls.client.cert}\n# @key ${mtls.client.key}\nGET ${mtls.url}/who?wire=mtls\n`);
    expect(JSON.parse(r.back).client).toBe('test client');
    expect(JSON.parse(r.curl).client).toBe('test client');
  });

  it('an encrypted key with --pass, through the proxy\'s CONNECT tunnel, -k', async () => {
    const r = await roundTrip(`curl -s -k -x ${proxy.url} --cert ${mtls.client.cert} --key ${mtls.client.encKey} --pass ${mtls.client.pass} '${mtls.url}/who?wire=tunnel'`, '-> expect-jq \'.client == "test client"\'');
    expect(r.text).toBe(`# @insecure\n# @proxy ${proxy.url}\n# @cert ${mtls.client.cert}\n# @key ${mtls.client.encKey}\n# @pass ${mtls.client.pass}\nGET ${mtls.url}/who?wire=tunnel\n`);
    const host = new URL(mtls.url).host;
    expect(proxy.requests().filter((l) => l.startsWith(`CONNECT ${host}`)).length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(r.back).client).toBe('test client');
  });

  it('.http files read the same directives (httpyac\'s # @no-reject-unauthorized for -k)', async () => {
    const file = path.join(dir, 'a.http');
    fs.writeFileSync(file, `# @no-reject-unauthorized\n# @cert ${mtls.client.cert}\n# @key ${mtls.client.key}\nGET ${mtls.url}/who?wire=http\n\n> {% client.test("client", () => client.assert(response.body.client === "test client")) %}\n`);
    const run = await sheet(['run', file]);
    expect(run.out + run.err).toMatch(/0 failed/);
    expect(run.code).toBe(0);
  });

  it('through the proxy, the capture server receives the same request from curl and from the imported sheet', async () => {
    const bench = await wireBench();
    try {
      // The proxy without a scheme, so only the target is pointed at the capture server.
      const r = await bench.run(`curl -x ${proxy.url.replace('http://', '')} -H 'X-Trace: 1' -d 'a=b' 'http://api.example/wire?via=capture'`, CLEAN);
      expect(r.sheetText).toMatch(/^# @proxy 127\.0\.0\.1:\d+\nPOST http:\/\/127\.0\.0\.1:\d+\/wire\?via=capture\n/);
      expect(r.importExit).toBe(0);
      expect(r.differences).toEqual([]);
      expect(r.curl!.headers.some(([n]) => n.toLowerCase() === 'via')).toBe(true); // tinyproxy's mark on both
      expect(proxy.requests().filter((l) => l.includes('via=capture'))).toHaveLength(2);
    } finally {
      await bench.close();
    }
  });

  it("a request's directives win over sheet run's -x and --cacert for that request only", async () => {
    const file = path.join(dir, 'over.sheet');
    fs.writeFileSync(file, `# @proxy ${proxy.url}\nGET ${api.url}/small?wire=over\n#\n# @no-proxy\n# @cacert ${mtls.ca}\n# @cert ${mtls.client.cert}\n# @key ${mtls.client.key}\nGET ${mtls.url}/who?wire=ca-over\n-> expect-status 200\n#\nGET ${api.url}/small?wire=dead-proxy\n`);
    // -x points at a port nobody listens on, --cacert at a CA that signed no server here.
    const run = await sheet(['run', file, '-x', 'http://127.0.0.1:9', '--cacert', path.join(dir, 'm', 'other.pem')]);
    expect(run.out).toMatch(/✓ 200 GET \/small\?wire=over/);
    expect(run.out).toMatch(/GET \/small\?wire=dead-proxy.*\n.*refused by the proxy http:\/\/127\.0\.0\.1:9 \(from --proxy\)/);
    expect(run.out).toMatch(/✓ 200 GET \/who\?wire=ca-over/);
    expect(proxy.requests().filter((l) => l.includes('wire=over'))).toHaveLength(1);
  });

  it('HttpFileRunner (the library API for .http files) honours them too', async () => {
    const file = path.join(dir, 'runner.http');
    const text = `# @proxy ${proxy.url}\nGET ${api.url}/small?wire=runner\n`;
    fs.writeFileSync(file, text);
    const r = await new HttpFileRunner({ file }).sendAt(text, 2);
    expect(r.exchange.response.status).toBe(200);
    expect(proxy.requests().filter((l) => l.includes('wire=runner'))).toEqual([`GET ${api.url}/small?wire=runner HTTP/1.1`]);
  });
});

describe('variables in directives and # @noproxy "" on the wire (no_proxy would send 127.0.0.1 direct)', () => {
  const env = { ...CLEAN, no_proxy: '127.0.0.1' };
  const through = (mark: string) => proxy.requests().filter((l) => l.includes(`wire=${mark}`));

  it('.http: @proxy as a file variable and # @proxy {{proxy}}: # @noproxy "" goes through tinyproxy past no_proxy, without it no_proxy wins', async () => {
    const file = path.join(dir, 'vars.http');
    fs.writeFileSync(file, `@proxy = ${proxy.url}\n\n# @proxy {{proxy}}\n# @noproxy ""\nGET ${api.url}/small?wire=var-all\n\n###\n\n# @proxy {{proxy}}\nGET ${api.url}/small?wire=var-env\n`);
    const run = await runSheet(['run', file], { cwd: dir, env });
    expect(run.out + run.err).toMatch(/2 of 2 requests/);
    expect(run.code).toBe(0);
    expect(through('var-all')).toEqual([`GET ${api.url}/small?wire=var-all HTTP/1.1`]);
    expect(through('var-env')).toEqual([]);
  });

  it('sheet: # @proxy :proxy and # @noproxy \'\'; sheet export --to curl prints them substituted, and curl under the same no_proxy goes through tinyproxy too', async () => {
    const file = path.join(dir, 'vars.sheet');
    fs.writeFileSync(file, `:proxy = ${proxy.url}\n# @proxy :proxy\n# @noproxy ''\nGET ${api.url}/small?wire=var-sheet\n-> expect-status 200\n`);
    const run = await runSheet(['run', file], { cwd: dir, env });
    expect(run.out + run.err).toMatch(/1 of 1 requests, 1 assertions, 0 failed/);
    const exported = await runSheet(['export', '--to', 'curl', `${file}:4`], { cwd: dir, env });
    expect(exported.out.trim()).toBe(`curl -X GET -x ${proxy.url} --noproxy '' '${api.url}/small?wire=var-sheet'`);
    const back = await new Promise<number>((resolve) => execFile('bash', ['-c', `${exported.out.trim()} -s -o /dev/null`], { env: { ...process.env, ...env } }, (e) => resolve(e ? 1 : 0)));
    expect(back).toBe(0);
    expect(through('var-sheet')).toEqual(Array(2).fill(`GET ${api.url}/small?wire=var-sheet HTTP/1.1`));
  });
  it('import-curl of -x "$PROXY" --noproxy \'\': the variable read when sheet run sends, through tinyproxy as curl under the same environment', async () => {
    // What this try adds to the proxy's log (a retry of the test finds the first try's lines there).
    const before = through('var-import').length;
    const command = `curl -s -x "$PROXY" --noproxy '' '${api.url}/small?wire=var-import'`;
    const withProxy = { ...env, PROXY: proxy.url };
    const viaCurl = await new Promise<number>((resolve) => execFile('bash', ['-c', command], { env: { ...process.env, ...withProxy } }, (e) => resolve(e ? 1 : 0)));
    expect(viaCurl).toBe(0);
    const imported = await runSheet(['import-curl', command], { cwd: dir, env: withProxy });
    expect(imported.out).toMatch(/^# @proxy :PROXY\n# @noproxy ""\n/);
    const file = path.join(dir, 'imported-vars.sheet');
    fs.writeFileSync(file, `${imported.out}-> expect-status 200\n`);
    const run = await runSheet(['run', file], { cwd: dir, env: withProxy });
    expect(run.out + run.err).toMatch(/1 of 1 requests, 1 assertions, 0 failed/);
    expect(through('var-import').slice(before)).toEqual(Array(2).fill(`GET ${api.url}/small?wire=var-import HTTP/1.1`));
  });
});

describe('bad directives: nothing is sent', () => {
  let server: net.Server;
  let connections = 0;
  let url: string;
  beforeAll(async () => {
    server = net.createServer((c) => {
      connections++;
      c.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each([
    ['a missing CA file', '# @cacert missing.pem', 'https', /bad\.sheet:1: # @cacert: cannot read .*missing\.pem \(ENOENT\); nothing was sent/],
    ['a missing client certificate', '# @cert gone.pem', 'https', /# @cert: cannot read .*gone\.pem/],
    ['a malformed proxy URL', '# @proxy http://[::1', 'http', /# @proxy: not a proxy URL/],
    ['a key without its certificate', '# @key k.pem', 'https', /bad\.sheet:1: .*# @key needs # @cert/],
    ['a malformed proxy from a variable', ':p = http://[::1\n# @proxy :p', 'http', /bad\.sheet:2: # @proxy: not a proxy URL: "http:\/\/\[::1" \(from :p\)/],
  ])('%s: sheet run names the line, exit 2, no connection', async (_, tag, scheme, message) => {
    const file = path.join(dir, 'bad.sheet');
    fs.writeFileSync(file, `${tag}\nGET ${scheme}://${url}/x\n`);
    const run = await sheet(['run', file]);
    expect(run.out + run.err).toMatch(message);
    expect(run.code).toBe(2);
    expect(connections).toBe(0);
  });
});
