// The JSON-RPC server driven over a real stdio pipe: `node engine/dist/engine.cjs --stdio`
// (built by global-setup.ts), spoken to with vscode-jsonrpc's StreamMessageReader/Writer, as
// sheet-mode does with jsonrpc.el. Covers every method of engine/src/emacs/protocol.ts, the
// lisp/eval callback, $/cancelRequest and the error data shape (docs/protocol.md).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancellationTokenSource, ResponseError, type CancellationToken } from 'vscode-jsonrpc/node.js';
import { spawnEngine, startApi, tempDir, type Api, type EngineProcess } from './helpers.js';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

/** The ResponseError a request fails with (fails the test when it succeeds). */
async function rpcError(p: Promise<unknown>): Promise<ResponseError<{ code: string; line?: number; hint?: string; details?: Record<string, unknown> }>> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ResponseError);
    return e as ResponseError<{ code: string; line?: number; hint?: string }>;
  }
  throw new Error('expected the request to fail');
}

describe('stdio server, Lisp-capable client (as sheet-mode)', () => {
  let engine: EngineProcess;
  const evalCalls: { form: string; name: string; line: number; context?: string | number }[] = [];
  let lispCancelled = false;
  beforeAll(async () => {
    engine = spawnEngine();
    engine.conn.onRequest('lisp/eval', (p: { form: string; name: string; line: number; context?: string | number }, token: CancellationToken) => {
      evalCalls.push(p);
      // The value depends on the request's context, as a buffer-local value in Emacs would; the
      // first context's answer comes late, so the two requests' evaluations overlap.
      if (p.form === 'sheet-test-who') {
        return new Promise((resolve) => setTimeout(() => resolve({ value: `who-${p.context}` }), p.context === 'first' ? 150 : 0));
      }
      if (p.form === '(read-from-minibuffer "never")') {
        // Answers only when the engine cancels the evaluation.
        return new Promise((resolve) => token.onCancellationRequested(() => {
          lispCancelled = true;
          resolve(new ResponseError(-32800, 'cancelled'));
        }));
      }
      if (p.form === '(error "boom")') return new ResponseError(-32000, 'boom');
      if (p.form === '(concat ":base" "/users")') return { value: ':base/users' };
      if (p.form === '(+ 1 2)') return { value: '3' };
      // sheet-mode's answer to `(setq url-max-redirections 0)`: the settings the form changed.
      if (p.form === '(setq url-max-redirections 0)') return { value: '0', settings: { followRedirects: false } };
      return new ResponseError(-32000, `void-function ${p.form}`);
    });
    const init = await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: true, settings: { maxPasses: 10 } });
    expect(init).toMatchObject({ serverName: 'sheet-engine' });
  });
  afterAll(async () => {
    expect(await engine.close()).toBe(0);
  });

  it('sheet/outline lists a refused request too, in line order, with the reason (issue 37 item 6)', async () => {
    const text = ['GET http://h/a', '#', ':v = 1', 'FETCH http://h/b', '#', 'POST http://h/c', '-> run-hook (message "x"', '#', 'GET http://h/d'].join('\n');
    const r = (await engine.conn.sendRequest('sheet/outline', { text })) as { requests: unknown[] };
    expect(r.requests).toEqual([
      { method: 'GET', url: 'http://h/a', line: 1, startLine: 1, endLine: 1 },
      { method: 'FETCH', url: 'http://h/b', line: 4, startLine: 3, endLine: 4, refused: 'unknown method FETCH' },
      { method: 'POST', url: 'http://h/c', line: 6, startLine: 6, endLine: 7, refused: 'unbalanced parentheses in the run-hook form' },
      { method: 'GET', url: 'http://h/d', line: 9, startLine: 9, endLine: 9 },
    ]);
  });

  it('sheet/outline lists requests with line ranges and the variable declarations', async () => {
    const text = [':base = http://h', '# one', 'GET :base/a', 'Accept: x', '', 'body', '# two', ':v = 1', 'POST :base/b'].join('\n');
    const r = await engine.conn.sendRequest('sheet/outline', { text });
    expect(r).toEqual({
      requests: [
        { method: 'GET', url: ':base/a', line: 3, startLine: 3, endLine: 6, bodyLine: 6 },
        { method: 'POST', url: ':base/b', line: 9, startLine: 8, endLine: 9 },
      ],
      variables: [
        { name: ':base', kind: 'literal', multiline: false, value: 'http://h', line: 1, endLine: 1 },
        { name: ':v', kind: 'literal', multiline: false, value: '1', line: 8, endLine: 8 },
      ],
      diagnostics: [],
    });
  });

  it('sheet/send sends the request at point and presents the JSON response', async () => {
    const text = `:base = ${api.url}\n#\nGET :base/users/1\nAccept: application/json\n`;
    const r = await engine.conn.sendRequest('sheet/send', { text, line: 3 });
    expect(r.request).toMatchObject({ method: 'GET', url: `${api.url}/users/1`, line: 3 });
    expect(r.response).toMatchObject({ status: 200, statusText: 'OK' });
    expect(r.presentation).toMatchObject({ kind: 'text', mode: 'json', formatted: true, overThreshold: false });
    expect(r.presentation.text).toBe('{\n  "id": 1,\n  "name": "Ada Lovelace",\n  "email": "ada@example.org"\n}');
    expect(r.hooks).toEqual({ runHooks: [], setVars: [], warnings: [], assertions: [] });
  });

  it('asks the client to evaluate := forms top to bottom and substitutes references in the result', async () => {
    evalCalls.length = 0;
    const text = [`:base = ${api.url}`, ':path := (concat ":base" "/users")', ':n := (+ 1 2)', 'GET :path/:n'].join('\n');
    const r = await engine.conn.sendRequest('sheet/send', { text, line: 4 });
    expect(evalCalls).toEqual([
      { form: '(concat ":base" "/users")', name: ':path', line: 2, vars: { ':base': api.url } },
      // `vars`: what the form sees (restclient-get-var), each value substituted.
      { form: '(+ 1 2)', name: ':n', line: 3, vars: { ':base': api.url, ':path': `${api.url}/users` } },
    ]);
    expect(r.request.url).toBe(`${api.url}/users/3`);
    expect(r.response.status).toBe(200);
  });

  it('settings a := form changed (lisp/eval result.settings) apply to the request it serves, not to later ones', async () => {
    const text = [`:base = ${api.url}`, ':x := (setq url-max-redirections 0)', 'GET :base/redirect?x=:x'].join('\n');
    const first = await engine.conn.sendRequest('sheet/send', { text, line: 3, context: 'redir' });
    expect(first.response.status).toBe(302);
    // The next request that evaluates no such form follows redirects again.
    const later = await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/redirect`, line: 1, context: 'redir2' });
    expect(later.response.status).toBe(200);
    // maxRedirects, per call: at most that many, then too-many-redirects.
    const two = await rpcError(engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/redirect/3`, line: 1, settings: { maxRedirects: 2 } }));
    expect(two.data).toMatchObject({ code: 'too-many-redirects' });
    expect(two.message).toMatch(/more than 2 redirects/);
  });

  it('lisp/eval carries the context of the request it serves (sheet/send, sheet/variables, sheet/curl)', async () => {
    evalCalls.length = 0;
    const text = [`:base = ${api.url}`, ':who := sheet-test-who', 'GET :base/echo/:who'].join('\n');
    const [a, b] = await Promise.all([
      engine.conn.sendRequest('sheet/send', { text, line: 3, context: 'first' }),
      engine.conn.sendRequest('sheet/send', { text, line: 3, context: 2 }),
    ]);
    expect(a.request.url).toBe(`${api.url}/echo/who-first`);
    expect(b.request.url).toBe(`${api.url}/echo/who-2`);
    expect(evalCalls).toEqual([
      { form: 'sheet-test-who', name: ':who', line: 2, vars: { ':base': api.url }, context: 'first' },
      { form: 'sheet-test-who', name: ':who', line: 2, vars: { ':base': api.url }, context: 2 },
    ]);
    const v = await engine.conn.sendRequest('sheet/variables', { text, line: 3, context: 'vars' });
    expect(v.variables).toContainEqual({ name: ':who', kind: 'lisp', line: 2, raw: 'sheet-test-who', value: 'who-vars' });
    const c = await engine.conn.sendRequest('sheet/curl', { text, line: 3, context: 0 });
    expect(c.command).toContain(`${api.url}/echo/who-0`);
    // Without a context, lisp/eval has none.
    evalCalls.length = 0;
    await engine.conn.sendRequest('sheet/curl', { text, line: 3 });
    expect(evalCalls).toEqual([{ form: 'sheet-test-who', name: ':who', line: 2, vars: { ':base': api.url } }]);
    const bad = await rpcError(engine.conn.sendRequest('sheet/send', { text, line: 3, context: { buffer: 1 } }));
    expect(bad.data).toMatchObject({ code: 'bad-argument' });
  });

  it('a Lisp error returned by the client is lisp-error naming the line, with a hint', async () => {
    const text = `:x := (error "boom")\nGET ${api.url}/users`;
    const e = await rpcError(engine.conn.sendRequest('sheet/send', { text, line: 2 }));
    expect(e.code).toBe(-32001);
    expect(e.data).toMatchObject({ code: 'lisp-error', line: 1 });
    expect(e.data!.hint).toMatch(/:x/);
    expect(e.message).toMatch(/boom/);
  });

  it('engine errors travel as ResponseError -32001 with data {code, line, hint}', async () => {
    const e = await rpcError(engine.conn.sendRequest('sheet/send', { text: 'FETCH http://x/', line: 1 }));
    expect(e.code).toBe(-32001);
    expect(e.data).toMatchObject({ code: 'unknown-method', line: 1 });
    expect(typeof e.data!.hint).toBe('string');
  });

  it('$/cancelRequest aborts an in-flight send, and the engine keeps serving', async () => {
    const source = new CancellationTokenSource();
    const started = Date.now();
    const p = engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/slow?ms=10000`, line: 1 }, source.token);
    setTimeout(() => source.cancel(), 200);
    const e = await rpcError(p);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(e.data).toMatchObject({ code: 'cancelled' });
    const again = await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/small`, line: 1 });
    expect(again.response.status).toBe(200);
  });

  it('$/cancelRequest while the engine waits for a Lisp value cancels the lisp/eval too', async () => {
    const source = new CancellationTokenSource();
    const p = engine.conn.sendRequest('sheet/send', { text: `:x := (read-from-minibuffer "never")\nGET ${api.url}/users`, line: 2 }, source.token);
    setTimeout(() => source.cancel(), 200);
    const e = await rpcError(p);
    expect(e.data).toMatchObject({ code: 'cancelled', line: 1 });
    await new Promise((done) => setTimeout(done, 100));
    expect(lispCancelled).toBe(true);
  });

  it('sheet/setVar overrides a declaration for later requests; sheet/variables shows both', async () => {
    const text = `:base = ${api.url}\n:id = 1\n:u = :base/users/:id\nGET :u`;
    await engine.conn.sendRequest('sheet/setVar', { name: ':id', value: '2' });
    const r = await engine.conn.sendRequest('sheet/send', { text, line: 4 });
    expect(r.request.url).toBe(`${api.url}/users/2`);
    const v = await engine.conn.sendRequest('sheet/variables', { text, line: 4 });
    expect(v.overrides).toContainEqual({ name: ':id', value: '2' });
    expect(v.variables).toContainEqual({ name: ':u', kind: 'literal', line: 3, raw: ':base/users/:id', value: `${api.url}/users/2` });
    expect(v.hookTypes.map((h: { name: string }) => h.name)).toEqual(['jq-set-var', 'run-hook', 'expect-status', 'expect-header', 'expect-jq', 'expect-body', 'expect-time', 'expect-events', 'expect-event', 'expect-grpc-status']);
    const bad = await rpcError(engine.conn.sendRequest('sheet/setVar', { name: 'id', value: '2' }));
    expect(bad.data).toMatchObject({ code: 'bad-argument' });
  });

  it('jq-set-var sets an override from the response that the next request uses; run-hook comes back', async () => {
    const text = [
      `:base = ${api.url}`,
      '#',
      'POST :base/login',
      '-> jq-set-var :token .token',
      '-> run-hook (message "logged in %s"',
      '   (sheet-get-var ":token"))',
      'Content-Type: application/json',
      '',
      '{"user": "ada", "password": "secret"}',
      '#',
      'GET :base/me',
      'Authorization: Bearer :token',
    ].join('\n');
    const login = await engine.conn.sendRequest('sheet/send', { text, line: 3 });
    expect(login.hooks.setVars).toEqual([{ name: ':token', value: 'token-ada' }]);
    expect(login.hooks.runHooks).toEqual(['(message "logged in %s"\n   (sheet-get-var ":token"))']);
    const me = await engine.conn.sendRequest('sheet/send', { text, line: 11 });
    expect(me.response.status).toBe(200);
    expect(JSON.parse(me.presentation.text)).toEqual({ user: 'ada' });
  });

  it('settings/set changes the session settings; per-call settings win for that call', async () => {
    const text = `:base = ${api.url}\n:u = :base/users\nGET :u`;
    expect(await engine.conn.sendRequest('settings/set', { maxPasses: 1 })).toBeNull();
    // One pass leaves :base in the URL: sent as written, so here an invalid URL that says why.
    const e = await rpcError(engine.conn.sendRequest('sheet/send', { text, line: 3 }));
    expect(e.data).toMatchObject({ code: 'invalid-url', line: 3, details: { variables: [':base'] } });
    const ok = await engine.conn.sendRequest('sheet/send', { text, line: 3, settings: { maxPasses: 2 } });
    expect(ok.response.status).toBe(200);
    expect(await engine.conn.sendRequest('settings/set', { maxPasses: 10, threshold: 10 })).toBeNull();
    const small = await engine.conn.sendRequest('sheet/send', { text, line: 3 });
    expect(small.presentation.overThreshold).toBe(true);
    expect(await engine.conn.sendRequest('settings/set', { threshold: null })).toBeNull();
    const none = await engine.conn.sendRequest('sheet/send', { text, line: 3 });
    expect(none.presentation.overThreshold).toBe(false);
  });

  it('settings/set answers once a new cookie jar file is loaded; a send right after it uses the new jar', async () => {
    const dir = tempDir('rpc-jar-');
    const first = path.join(dir, 'first.txt');
    const second = path.join(dir, 'second.txt');
    const send = (url: string) => engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}${url}`, line: 1 });
    try {
      expect(await engine.conn.sendRequest('settings/set', { cookieJarFile: first })).toBeNull();
      await send('/cookies/persistent');
      expect(fs.readFileSync(first, 'utf8')).toMatch(/^127\.0\.0\.1\t.*\tkeep\tyes$/m);
      // Each switch is followed at once by a send, without waiting for the answer to settings/set.
      for (const [file, cookies] of [[second, {}], [first, { keep: 'yes' }], [second, {}], [first, { keep: 'yes' }]] as const) {
        const [set, r] = await Promise.all([engine.conn.sendRequest('settings/set', { cookieJarFile: file }), send('/cookies')]);
        expect(set).toBeNull();
        expect(JSON.parse(r.presentation.text)).toEqual({ cookies });
      }
      // The second file got no cookie: not written at all (no request set one there, and like
      // curl -c, the engine writes no jar it has nothing for); the first still holds its cookie.
      expect(fs.existsSync(second)).toBe(false);
      expect(fs.readFileSync(first, 'utf8')).toMatch(/\tkeep\tyes$/m);
      // A cookie file that cannot be read (a directory) is a warning, not an error: the request
      // goes out without cookies, as curl's does with a -b file it cannot read (issue 30).
      expect(await engine.conn.sendRequest('settings/set', { cookieJarFile: dir })).toBeNull();
      const r = await send('/cookies');
      expect(JSON.parse(r.presentation.text)).toEqual({ cookies: {} });
      expect(r.hooks.warnings).toMatchObject([{ code: 'cookie-jar-unreadable', message: expect.stringContaining(dir) }]);
    } finally {
      await engine.conn.sendRequest('settings/set', { cookieJarFile: null });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sheet/curl returns a curl command line for the request at point', async () => {
    const r = await engine.conn.sendRequest('sheet/curl', { text: `GET ${api.url}/users\nAccept: text/plain`, line: 1 });
    expect(r.command).toMatch(/^curl /);
    expect(r.command).toContain(`${api.url}/users`);
  });
});

describe('stdio server, bad input: a coded, located error, and the engine keeps serving', () => {
  let engine: EngineProcess;
  beforeAll(async () => {
    engine = spawnEngine();
    engine.conn.onRequest('lisp/eval', () => new ResponseError(-32000, '(void-function nope)'));
    await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: true });
  });
  afterAll(async () => {
    expect(await engine.close()).toBe(0);
  });

  const u = () => api.url;
  it.each([
    ['an unterminated << block', () => ':b = <<\n{"a": 1}\nPOST http://h/', 3, 'unterminated-multiline', 1],
    ['a request line without URL', () => '# c\nPOST', 2, 'missing-url', 2],
    ['an unknown method', () => 'FETCH http://h/', 1, 'unknown-method', 1],
    ['a missing < file', () => `POST ${u()}/echo\n\n< no-such-file.bin`, 1, 'file-unreadable', 3],
    ['an invalid URL', () => 'GET http://exa mple:99999/', 1, 'invalid-url', 1],
    ['a Lisp error returned by Emacs', () => `:x := (nope)\nGET ${u()}/users`, 2, 'lisp-error', 1],
    ['a variable cycle in the host', () => `:a = :b\n:b = :a\nGET :a/x`, 3, 'invalid-url', 3],
    ['an unbalanced run-hook form', () => `GET ${u()}/users\n-> run-hook (message "x"`, 1, 'unterminated-hook-form', 2],
    ['no request at point', () => '# only a comment\n:a = 1', 2, 'no-request-at-point', undefined],
    ['a refused connection', () => 'GET http://127.0.0.1:1/x', 1, 'connection-refused', undefined],
  ])('%s', async (_, text, line, code, errLine) => {
    const e = await rpcError(engine.conn.sendRequest('sheet/send', { text: text(), line }));
    expect(e.code).toBe(-32001);
    expect(e.data!.code).toBe(code);
    expect(e.data!.line).toBe(errLine);
    if (code !== 'cancelled') expect(e.data!.hint).toEqual(expect.any(String));
    const ok = await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/small`, line: 1 });
    expect(ok.response.status).toBe(200);
  });

  it.each([
    ['no text', { line: 1 }],
    ['a line of 0', { text: 'GET http://h/', line: 0 }],
    ['a line that is a string', { text: 'GET http://h/', line: '1' }],
  ])('malformed params (%s) are bad-argument', async (_, params) => {
    const e = await rpcError(engine.conn.sendRequest('sheet/send', params));
    expect(e.data).toMatchObject({ code: 'bad-argument' });
  });

  it('a jq error is a warning; the response is kept', async () => {
    const r = await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/users\n-> jq-set-var :x .[`, line: 1 });
    expect(r.response.status).toBe(200);
    expect(r.hooks.warnings).toEqual([expect.objectContaining({ code: 'jq-error', line: 2 })]);
  });

  it('a jq that prints for ever is stopped and killed by the bundled engine; the response is kept', async () => {
    const marker = `rpc-repeat-${process.pid}`;
    const r = await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/users\n-> jq-set-var :x repeat("${marker}")`, line: 1 });
    expect(r.response.status).toBe(200);
    expect(r.hooks.warnings).toEqual([expect.objectContaining({ code: 'jq-error', line: 2, message: expect.stringMatching(/more than \d+ bytes/) })]);
    await new Promise((done) => setTimeout(done, 100));
    const { stdout } = await promisify(execFile)('ps', ['-eo', 'args']);
    expect(stdout.split('\n').filter((l) => l.includes(marker) && !l.includes('ps -eo'))).toEqual([]);
  });

  it('non-ASCII sheet text and responses cross the pipe intact (Content-Length counts bytes)', async () => {
    const text = `POST ${api.url}/echo/caf\u00e9\nContent-Type: text/plain; charset=utf-8\nX-Who: Zo\u00eb\n\n\u00e9t\u00e9 \u65e5\u672c \u{1f600}`;
    const r = await engine.conn.sendRequest('sheet/send', { text, line: 1 });
    const echo = JSON.parse(r.presentation.text);
    expect(echo.body).toBe('\u00e9t\u00e9 \u65e5\u672c \u{1f600}');
    expect(echo.rawPath).toBe('/echo/caf%C3%A9');
    expect(r.request.body).toEqual({ encoding: 'utf-8', data: '\u00e9t\u00e9 \u65e5\u672c \u{1f600}' });
    const sjis = await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/charset/sjis`, line: 1 });
    expect(sjis.presentation.text).toBe('\u65e5\u672c\u8a9e');
  });

  it('a big response body crosses the pipe (5 MB JSON, formatted, over the threshold)', async () => {
    const r = await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/big.json?kb=5120`, line: 1 });
    expect(r.presentation).toMatchObject({ formatted: true, overThreshold: true, mode: 'json' });
    expect(r.response.bytes).toBeGreaterThan(5 * 1024 * 1024);
  });
});

describe('stdio server, big bodies in a file (bodyFileMin)', () => {
  let engine: EngineProcess;
  let tmp: string;
  beforeAll(async () => {
    // The engine's temp directory is one of the test's own, to see what is left in it.
    tmp = tempDir('rpc-bodyfile-');
    engine = spawnEngine({ env: { TMPDIR: tmp } });
    await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
  });
  afterAll(async () => {
    await engine.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const send = (url: string, extra: Record<string, unknown> = {}) =>
    engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}${url}`, line: 1, ...extra });
  /** Read the body file, check where and how it was written, delete it as the client does. */
  const take = (file: string, encoding: 'utf8' | null): string | Buffer => {
    expect(path.isAbsolute(file)).toBe(true);
    const dir = path.dirname(file);
    expect(path.dirname(dir)).toBe(tmp);
    expect(path.basename(dir)).toMatch(/^sheet-body-/);
    expect(fs.readdirSync(dir)).toEqual([path.basename(file)]);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const data = fs.readFileSync(file, encoding);
    fs.rmSync(dir, { recursive: true });
    return data;
  };

  it('a 5 MB JSON body comes in a file, the same text as inside the answer', async () => {
    const inline = await send('/big.json?kb=5120');
    const r = await send('/big.json?kb=5120', { bodyFileMin: 65536 });
    expect(r.presentation).toMatchObject({ kind: 'text', mode: 'json', formatted: true, overThreshold: true, fileEncoding: 'utf-8' });
    expect(r.presentation.text).toBeUndefined();
    expect(inline.presentation.file).toBeUndefined();
    expect(take(r.presentation.file, 'utf8')).toBe(inline.presentation.text);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('bodyFileMin counts characters (code points), not UTF-16 units or bytes', async () => {
    const text = `POST ${api.url}/echo\nContent-Type: text/plain; charset=utf-8\n\n${'\u{1f600}\u00e9'.repeat(50)}`;
    const inline = await engine.conn.sendRequest('sheet/send', { text, line: 1 });
    const body: string = inline.presentation.text;
    const chars = [...body].length;
    expect(body.length).toBeGreaterThan(chars);
    const at = await engine.conn.sendRequest('sheet/send', { text, line: 1, bodyFileMin: chars });
    expect(take(at.presentation.file, 'utf8')).toBe(body);
    const over = await engine.conn.sendRequest('sheet/send', { text, line: 1, bodyFileMin: chars + 1 });
    expect(over.presentation.file).toBeUndefined();
    expect(over.presentation.text).toBe(body);
  });

  it('an image at least bodyFileMin long in base64 comes as its bytes in a file; smaller ones stay inline', async () => {
    const inline = await send('/image.png');
    const b64: string = inline.presentation.base64;
    const r = await send('/image.png', { bodyFileMin: b64.length });
    expect(r.presentation).toMatchObject({ kind: 'image', fileEncoding: 'binary' });
    expect(r.presentation.base64).toBeUndefined();
    expect((take(r.presentation.file, null) as Buffer).toString('base64')).toBe(b64);
    const small = await send('/image.png', { bodyFileMin: b64.length + 1 });
    expect(small.presentation).toMatchObject({ kind: 'image', base64: b64 });
    expect(small.presentation.file).toBeUndefined();
  });

  it('a bad bodyFileMin is bad-argument', async () => {
    for (const bodyFileMin of [-1, 1.5, 'big']) {
      const e = await rpcError(send('/small', { bodyFileMin }));
      expect(e.data).toMatchObject({ code: 'bad-argument' });
    }
  });

  it('body files the client never read are removed when the engine exits', async () => {
    const other = spawnEngine({ env: { TMPDIR: tmp } });
    await other.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
    const r = await other.conn.sendRequest('sheet/send', { text: `GET ${api.url}/big.json?kb=100`, line: 1, bodyFileMin: 1000 });
    expect(fs.existsSync(r.presentation.file)).toBe(true);
    expect(await other.close()).toBe(0);
    expect(fs.existsSync(path.dirname(r.presentation.file))).toBe(false);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});

describe('stdio server, client without Lisp', () => {
  let engine: EngineProcess;
  beforeAll(async () => {
    engine = spawnEngine();
    await engine.conn.sendRequest('initialize', { clientName: 'cli-like', lisp: false });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('a request that does not use a := variable runs', async () => {
    const text = `:unused := (current-time-string)\nGET ${api.url}/small`;
    const r = await engine.conn.sendRequest('sheet/send', { text, line: 2 });
    expect(r.response.status).toBe(200);
  });

  it('a request that uses a := variable fails with lisp-unavailable naming its declaration line', async () => {
    const text = `:a = 1\n:when := (current-time-string)\nGET ${api.url}/echo?t=:when`;
    const e = await rpcError(engine.conn.sendRequest('sheet/send', { text, line: 3 }));
    expect(e.data).toMatchObject({ code: 'lisp-unavailable', line: 2 });
  });
});
