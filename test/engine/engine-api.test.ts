// The engine against the example API on a real socket (127.0.0.1): every presentation case,
// charset, hook, the HTTP behaviour (methods, encoding, redirects, timeout, cancel,
// keep-alive) and cookies. Driven through Session, the object behind the JSON-RPC methods.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
import { send } from '../../engine/src/http/send.js';
import { isEngineError } from '../../engine/src/errors.js';
import type { SendResult, Settings } from '../../engine/src/emacs/protocol.js';
import { startApi, tempDir, type Api } from './helpers.js';

let api: Api;
const dir = tempDir();
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sheet = (...lines: string[]) => lines.join('\n');
const execFileP = promisify(execFile);

/** Send the request on line `line` (default: the first request) of `text` in `session`. */
async function run(session: Session, text: string, opts: { line?: number; raw?: boolean; settings?: Settings; path?: string } = {}): Promise<SendResult> {
  return session.send({ text: `:api = ${api.url}\n${text}`, line: (opts.line ?? 1) + 1, raw: opts.raw, settings: opts.settings, path: opts.path });
}

async function failure(p: Promise<unknown>): Promise<{ code: string; line?: number; hint?: string; message: string }> {
  try {
    await p;
  } catch (e) {
    expect(isEngineError(e)).toBe(true);
    return e as { code: string; message: string };
  }
  throw new Error('expected a failure');
}

/** The request as the /echo route saw it. */
const echoed = (r: SendResult) => JSON.parse(r.presentation.text!) as { method: string; rawPath: string; query: Record<string, string>; headers: Record<string, string>; rawHeaders: [string, string][]; bodyBase64: string; body: string };

describe('presentation', () => {
  const session = new Session();
  it.each([
    ['JSON, pretty-printed', '/users/1', { mode: 'json', kind: 'text', formatted: true, contentType: 'application/json', charset: 'utf-8' }, '{\n  "id": 1,\n  "name": "Ada Lovelace",\n  "email": "ada@example.org"\n}'],
    ['JSON \\u escapes shown as characters', '/unicode', { mode: 'json', formatted: true }, '{\n  "greeting": "\u00e9t\u00e9 \u65e5\u672c",\n  "plain": "caf\u00e9"\n}'],
    ['+json (problem details) with an error status', '/problem', { mode: 'json', formatted: true, contentType: 'application/problem+json' }, '{\n  "title": "Bad",\n  "status": 400\n}'],
    [
      'JSON numbers and keys exactly as sent',
      '/engine/json-exact',
      { mode: 'json', formatted: true },
      '{\n  "big": 12345678901234567890,\n  "dup": 1,\n  "dup": 2,\n  "float": 1.0,\n  "exp": -1.5E+300,\n  "esc": "\u00e9 \\u0022 \\\\ \\u0000 \ud83d\ude00 \\ud800 \\/",\n  "empty": {},\n  "list": [],\n  "nested": [\n    [],\n    {}\n  ]\n}',
    ],
    ['invalid JSON shown as received', '/engine/not-json', { mode: 'json', formatted: false }, '{"a": 1,,}'],
    [
      'XML, indented',
      '/xml',
      { mode: 'xml', formatted: true, contentType: 'application/xml' },
      '<?xml version="1.0"?>\n<users>\n  <user id="1">\n    <name>Ada</name>\n  </user>\n  <user id="2">\n    <name>Alan</name>\n  </user>\n</users>',
    ],
    ['+xml, indented', '/engine/atom', { mode: 'xml', formatted: true }, '<feed>\n  <title>T</title>\n  <entry>\n    <id>1</id>\n  </entry>\n</feed>'],
    ['invalid XML shown as received', '/engine/bad-xml', { mode: 'xml', formatted: false }, '<a><b></a'],
    ['HTML as is, with a mode hint', '/html', { mode: 'html', formatted: false, contentType: 'text/html' }, '<!DOCTYPE html><html><head><title>Example</title></head><body><h1>Hello</h1><p>An <b>HTML</b> page.</p></body></html>'],
    ['plain text', '/text', { mode: 'text', formatted: false }, 'plain text\nsecond line\n'],
    ['JavaScript', '/engine/js', { mode: 'javascript', formatted: false }, 'var a = 1;'],
  ])('%s', async (_, route, fields, text) => {
    const r = await run(session, `GET :api${route}`);
    expect(r.presentation).toMatchObject({ ...fields, overThreshold: false });
    expect(r.presentation.text).toBe(text);
  });

  it('an image comes as base64 with its content type', async () => {
    const r = await run(session, 'GET :api/image.png');
    expect(r.presentation).toMatchObject({ kind: 'image', mode: 'image', contentType: 'image/png' });
    const bytes = Buffer.from(r.presentation.base64!, 'base64');
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.length).toBe(r.response.bytes);
  });

  it('a binary body comes as base64, exactly', async () => {
    const r = await run(session, 'GET :api/binary');
    expect(r.presentation).toMatchObject({ kind: 'binary', contentType: 'application/octet-stream' });
    expect(Buffer.from(r.presentation.base64!, 'base64')).toEqual(Buffer.from([0, 1, 2, 0, 255, 10, 0, 10]));
  });

  it('raw mode returns the body untouched', async () => {
    const r = await run(session, 'GET :api/unicode', { raw: true });
    expect(r.presentation).toMatchObject({ formatted: false, mode: 'json' });
    expect(r.presentation.text).toBe('{"greeting":"\\u00e9t\\u00e9 \\u65e5\\u672c","plain":"caf\u00e9"}');
  });

  it.each([
    ['above the default threshold: formatted, and said so', '/big.json?kb=120', {}, true],
    ['under a larger threshold', '/big.json?kb=120', { threshold: 1_000_000 }, false],
    ['threshold disabled (null)', '/big.json?kb=120', { threshold: null }, false],
    ['a small body', '/users', {}, false],
    ['XML above a small threshold', '/xml', { threshold: 50 }, true],
  ])('threshold: %s', async (_, route, settings, over) => {
    const r = await run(session, `GET :api${route}`, { settings });
    expect(r.presentation).toMatchObject({ formatted: true, overThreshold: over });
  });
});

describe('charsets', () => {
  const session = new Session();
  it.each([
    ['ISO-8859-1', '/charset/latin1', 'ISO-8859-1', 'caf\u00e9 na\u00efve'],
    ['Shift_JIS', '/charset/sjis', 'Shift_JIS', '\u65e5\u672c\u8a9e'],
    ['Shift_JIS JSON, pretty-printed', '/charset/sjis-json', 'Shift_JIS', '{\n  "word": "\u65e5\u672c\u8a9e"\n}'],
    ['EUC-JP', '/engine/eucjp', 'EUC-JP', '\u65e5\u672c\u8a9e'],
    ['ISO-8859-1 XML, indented', '/engine/latin1-xml', 'ISO-8859-1', '<?xml version="1.0" encoding="ISO-8859-1"?>\n<p>\n  <w>caf\u00e9</w>\n</p>'],
    ['UTF-8 by default', '/unicode', 'utf-8', '{\n  "greeting": "\u00e9t\u00e9 \u65e5\u672c",\n  "plain": "caf\u00e9"\n}'],
  ])('%s', async (_, route, charset, text) => {
    const r = await run(session, `GET :api${route}`);
    expect(r.presentation.charset).toBe(charset);
    expect(r.presentation.text).toBe(text);
  });
});

describe('hooks', () => {
  it('jq-set-var sets an override, as jq -r prints it, that later requests use', async () => {
    const session = new Session();
    const text = sheet(
      'POST :api/login',
      '-> jq-set-var :token .token',
      'Content-Type: application/json',
      '',
      '{"user": "grace", "password": "secret"}',
      '#',
      'GET :api/me',
      'Authorization: Bearer :token',
    );
    const login = await run(session, text);
    expect(login.hooks.setVars).toEqual([{ name: ':token', value: 'token-grace' }]);
    // `vars`: the request's variables, substituted, with what its hooks set over them.
    expect(login.vars[':token']).toBe('token-grace');
    expect(login.vars[':api']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(session.overrides.get(':token')).toBe('token-grace');
    const me = await run(session, text, { line: 7 });
    expect(JSON.parse(me.presentation.text!)).toEqual({ user: 'grace' });
  });

  it.each([
    ['a number', '.[0].id', '1'],
    ['several outputs, one a line', '.[].id', '1\n2\n3'],
    ['an object, as compact JSON', '.[0] | {id}', '{"id":1}'],
    ['a string with blanks', '.[1].name', 'Alan Turing'],
  ])('jq-set-var with %s', async (_, expr, value) => {
    const session = new Session();
    await run(session, sheet('POST :api/reset'));
    const r = await run(session, sheet('GET :api/users', `-> jq-set-var :v ${expr}`));
    expect(r.hooks.setVars).toEqual([{ name: ':v', value }]);
  });

  it.each([
    ['a jq syntax error', 'GET :api/users', '.[', /jq expression "\.\[" failed/],
    ['a body that is not JSON', 'GET :api/text', '.a', /jq expression "\.a" failed/],
    ['an empty body', 'GET :api/status/204', '.a', /empty/],
  ])('%s is a jq-error warning naming the expression; the response is kept', async (_, request, expr, message) => {
    const session = new Session();
    const r = await run(session, sheet(request, `-> jq-set-var :v ${expr}`));
    expect(r.response.status).toBeLessThan(300);
    expect(r.hooks.setVars).toEqual([]);
    expect(r.hooks.warnings).toEqual([{ line: 3, code: 'jq-error', message: expect.stringMatching(message) }]);
    expect(session.overrides.has(':v')).toBe(false);
  });

  it('run-hook forms, one or several lines, are handed back in order', async () => {
    const r = await run(new Session(), sheet('GET :api/users', '-> run-hook (message "one")', '-> run-hook (sheet-set-var ":n"', '    (length (json-read)))'));
    expect(r.hooks.runHooks).toEqual(['(message "one")', '(sheet-set-var ":n"\n    (length (json-read)))']);
  });

  it.each([
    ['an unknown hook', '-> frobnicate :x', 'unknown-hook', /unknown hook frobnicate/],
    ['jq-set-var without an expression', '-> jq-set-var :x', 'bad-argument', /jq-set-var needs/],
    ['run-hook without a form', '-> run-hook', 'bad-argument', /run-hook needs/],
  ])('%s is a warning naming it; the request still runs', async (_, hook, code, message) => {
    const r = await run(new Session(), sheet('GET :api/small', hook));
    expect(r.response.status).toBe(200);
    expect(r.hooks.warnings).toEqual([{ line: 3, code, message: expect.stringMatching(message) }]);
  });
});

describe('HTTP', () => {
  const session = new Session();

  it.each(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'])('%s reaches the server as that method', async (method) => {
    const r = await run(session, `${method} :api/echo/m?a=1&b=x%20y`);
    expect(echoed(r)).toMatchObject({ method, rawPath: '/echo/m?a=1&b=x%20y', query: { a: '1', b: 'x y' } });
  });

  it('HEAD gets the status line and headers, no body', async () => {
    const r = await run(session, 'HEAD :api/echo/h');
    expect(r.response.status).toBe(200);
    expect(r.response.headers).toContainEqual(['X-Echo-Method', 'HEAD']);
    expect(r.response.bytes).toBe(0);
  });

  it('non-ASCII in the URL is percent-encoded as UTF-8', async () => {
    const r = await run(session, 'GET :api/echo/caf\u00e9?q=\u65e5\u672c&r=a b');
    expect(echoed(r).rawPath).toBe('/echo/caf%C3%A9?q=%E6%97%A5%E6%9C%AC&r=a%20b');
    expect(echoed(r).query.q).toBe('\u65e5\u672c');
  });

  it('text bodies and header values are sent as UTF-8; headers keep their case and order', async () => {
    const r = await run(session, sheet('POST :api/echo', 'X-Name: Zo\u00eb \u65e5\u672c', 'content-TYPE: text/plain; charset=utf-8', '', '\u00e9t\u00e9 \u{1f600}', '', '#'));
    const e = echoed(r);
    expect(Buffer.from(e.bodyBase64, 'base64').toString('utf8')).toBe('\u00e9t\u00e9 \u{1f600}\n');
    const [name, value] = e.rawHeaders.find(([n]) => n.toLowerCase() === 'x-name')!;
    expect(name).toBe('X-Name');
    expect(Buffer.from(value, 'latin1').toString('utf8')).toBe('Zo\u00eb \u65e5\u672c');
    expect(e.rawHeaders.map(([n]) => n).filter((n) => /^(x-name|content-type)$/i.test(n))).toEqual(['X-Name', 'content-TYPE']);
  });

  it('response header values are read as UTF-8, or Latin-1 when they are not UTF-8', async () => {
    const r = await run(session, 'GET :api/engine/header-bytes');
    expect(r.response.headers).toContainEqual(['X-Utf8', 'Zo\u00eb \u65e5\u672c']);
    expect(r.response.headers).toContainEqual(['X-Latin1', 'caf\u00e9']);
  });

  it('a < file body is sent byte for byte, relative to the sheet file', async () => {
    const bytes = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x23, 0x80, 0x00, 0x7f]);
    fs.writeFileSync(path.join(dir, 'b.bin'), bytes);
    const r = await run(session, sheet(':f = b.bin', 'PUT :api/echo/f', 'Content-Type: application/octet-stream', '', '< :f'), { line: 2, path: path.join(dir, 'x.sheet') });
    expect(Buffer.from(echoed(r).bodyBase64, 'base64')).toEqual(bytes);
    expect(r.request.body).toEqual({ encoding: 'base64', data: bytes.toString('base64') });
  });

  it('parse warnings of the request come back with the response', async () => {
    fs.writeFileSync(path.join(dir, 'w.txt'), 'file text');
    const r = await run(session, sheet('POST :api/echo/w', '', '< w.txt', 'not sent'), { path: path.join(dir, 'x.sheet') });
    expect(echoed(r).body).toBe('file text');
    expect(r.hooks.warnings).toEqual([{ line: 5, code: 'ignored-lines', message: expect.stringMatching(/line 5: lines after the file body/) }]);
  });

  it('redirects are followed and reported', async () => {
    const r = await run(session, 'GET :api/redirect/3');
    expect(r.response.status).toBe(200);
    expect(r.redirects.map((x) => [x.status, new URL(x.location).pathname])).toEqual([
      [302, '/redirect/2'],
      [302, '/redirect/1'],
      [302, '/users'],
    ]);
    expect(r.request.url).toBe(`${api.url}/users`);
  });

  it.each([
    ['307 keeps method and body', '307', 'POST', 'data'],
    ['308 keeps method and body', '308', 'POST', 'data'],
    ['303 turns into a GET without body', '303', 'GET', ''],
    ['302 after POST turns into a GET (as curl -L and browsers)', '302', 'GET', ''],
  ])('%s', async (_, code, method, body) => {
    const r = await run(session, sheet(`POST :api/engine/redirect-${code}`, 'Content-Type: text/plain', '', 'data'));
    expect(echoed(r)).toMatchObject({ method, rawPath: '/echo/after', body });
  });

  it('with followRedirects off, the 3xx response is the response', async () => {
    const r = await run(session, 'GET :api/redirect', { settings: { followRedirects: false } });
    expect(r.response.status).toBe(302);
    expect(r.redirects).toEqual([]);
  });

  it('a redirect loop is too-many-redirects', async () => {
    const e = await failure(run(session, 'GET :api/engine/redirect-loop'));
    expect(e.code).toBe('too-many-redirects');
  });

  it('the per-request timeout gives a timeout error, in time', async () => {
    const t = Date.now();
    const e = await failure(run(session, 'GET :api/slow?ms=5000', { settings: { timeoutMs: 300 } }));
    expect(e.code).toBe('timeout');
    expect(e.message).toMatch(/300 ms/);
    expect(Date.now() - t).toBeLessThan(3000);
  });

  it('an abort signal cancels an in-flight request', async () => {
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 200);
    const e = await failure(session.send({ text: `GET ${api.url}/slow?ms=5000`, line: 1 }, ctrl.signal));
    expect(e.code).toBe('cancelled');
  });

  it('connections are kept alive between requests', async () => {
    // A fresh server: no idle connections from other tests in the pool for its origin.
    const own = await startApi();
    try {
      const ports = new Set<number>();
      for (let i = 0; i < 8; i++) {
        const r = await session.send({ text: `GET ${own.url}/engine/socket`, line: 1 });
        ports.add(JSON.parse(r.presentation.text!).port);
      }
      // One connection, or two when the pool hands out a new one before the last is released.
      expect(ports.size).toBeLessThanOrEqual(2);
    } finally {
      await own.close();
    }
  });

  it('a refused connection is connection-refused naming the URL', async () => {
    const e = await failure(send({ method: 'GET', url: 'http://127.0.0.1:1/x', headers: [] }));
    expect(e.code).toBe('connection-refused');
    expect(e.message).toContain('http://127.0.0.1:1/x');
  });

  it('a 101 with no upgrade asked for is network-error saying so, and the session keeps working', async () => {
    const session = new Session();
    const e = await failure(run(session, 'GET :api/status/101'));
    expect(e.code).toBe('network-error');
    expect(e.message).toMatch(/status\/101: the server switched protocols \(101\)/);
    expect((await run(session, 'GET :api/small')).response.status).toBe(200);
  });

  it('an error status is a response, not an error', async () => {
    const r = await run(session, 'DELETE :api/users/999');
    expect(r.response).toMatchObject({ status: 404, statusText: 'Not Found' });
  });
});

describe('cookies', () => {
  it('are stored from Set-Cookie and sent implicitly, also across a redirect', async () => {
    const session = new Session();
    await run(session, 'GET :api/cookies/set?a=1&b=2');
    const r = await run(session, 'GET :api/cookies');
    expect(JSON.parse(r.presentation.text!)).toEqual({ cookies: { a: '1', b: '2' } });
    const viaRedirect = await run(session, 'GET :api/engine/login-redirect');
    expect(JSON.parse(viaRedirect.presentation.text!).cookies).toMatchObject({ sid: 'r1' });
  });

  it('are neither sent nor stored when the client inhibits them', async () => {
    const session = new Session();
    await session.configure({ inhibitCookies: true });
    await run(session, 'GET :api/cookies/set?a=1');
    await session.configure({ inhibitCookies: false });
    const r = await run(session, 'GET :api/cookies');
    expect(JSON.parse(r.presentation.text!)).toEqual({ cookies: {} });
    await run(session, 'GET :api/cookies/set?b=2');
    const inhibited = await run(session, 'GET :api/cookies', { settings: { inhibitCookies: true } });
    expect(JSON.parse(inhibited.presentation.text!)).toEqual({ cookies: {} });
  });

  it('a Cookie header written in the sheet wins over the jar', async () => {
    const session = new Session();
    await run(session, 'GET :api/cookies/set?a=1');
    const r = await run(session, sheet('GET :api/cookies', 'Cookie: mine=yes'));
    expect(JSON.parse(r.presentation.text!)).toEqual({ cookies: { mine: 'yes' } });
  });

  it('persist to a Netscape cookie file that curl reads, and load from one curl wrote', async () => {
    const file = path.join(dir, 'jar', 'cookies.txt');
    const session = new Session();
    await session.configure({ cookieJarFile: file });
    await run(session, 'GET :api/cookies/persistent');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toMatch(/^# Netscape HTTP Cookie File/);
    expect(text).toMatch(/^127\.0\.0\.1\tFALSE\t\/\tFALSE\t\d{10}\tkeep\tyes$/m);
    // A new session (a restarted engine) loads the file.
    const again = new Session();
    await again.configure({ cookieJarFile: file });
    expect(JSON.parse((await run(again, 'GET :api/cookies')).presentation.text!)).toEqual({ cookies: { keep: 'yes' } });
    // curl reads the file ...
    // (async: the API runs in this process, a synchronous child would block it)
    const viaCurl = await execFileP('curl', ['-s', '--max-time', '10', '-b', file, `${api.url}/cookies`], { encoding: 'utf8' });
    expect(JSON.parse(viaCurl.stdout)).toEqual({ cookies: { keep: 'yes' } });
    // ... and a file curl writes is read by the engine.
    const curlFile = path.join(dir, 'curl-cookies.txt');
    await execFileP('curl', ['-s', '--max-time', '10', '-o', '/dev/null', '-c', curlFile, `${api.url}/cookies/set?fromcurl=1`]);
    const third = new Session();
    await third.configure({ cookieJarFile: curlFile });
    expect(JSON.parse((await run(third, 'GET :api/cookies')).presentation.text!)).toEqual({ cookies: { fromcurl: '1' } });
  });
});

describe('variables at point (C-c C-i)', () => {
  it('lists the overrides and each visible variable with its resolved value or why there is none', async () => {
    const session = new Session();
    session.overrides.set(':id', '9');
    const text = sheet(':base = http://h', ':id = 1', ':u = :base/users/:id', ':a = :b', ':b = :a', ':t := (now)', ':base = https://h2', 'GET :u', '#', ':later = 1');
    const v = await session.variables({ text, line: 8 });
    expect(v.overrides).toEqual([{ name: ':id', value: '9' }]);
    expect(v.variables).toEqual([
      { name: ':base', kind: 'literal', line: 7, raw: 'https://h2', value: 'https://h2' },
      { name: ':id', kind: 'literal', line: 2, raw: '1', value: '9' },
      { name: ':u', kind: 'literal', line: 3, raw: ':base/users/:id', value: 'https://h2/users/9' },
      { name: ':a', kind: 'literal', line: 4, raw: ':b', value: ':b', warning: 'line 4: :a, :b refer to each other (:a -> :b -> :a); sent as ":b"' },
      { name: ':b', kind: 'literal', line: 5, raw: ':a', value: ':a', warning: 'line 5: :a, :b refer to each other (:a -> :b -> :a); sent as ":a"' },
      { name: ':t', kind: 'lisp', line: 6, raw: '(now)', error: 'Lisp value: evaluated only in Emacs' },
    ]);
  });
});
