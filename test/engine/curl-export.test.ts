// `sheet/curl` (C-c C-u) end to end: the command line the engine returns is run in real bash
// against the example API's /echo route, and what the server received is compared with what
// the engine itself sends for the same request (method, path and query, the sheet's headers,
// body bytes). The command comes from engine/src/curl/to-curl.ts (the shell front end's).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCurl } from '../../engine/src/curl/to-curl.js';
import { spawnEngine, startApi, tempDir, type Api, type EngineProcess } from './helpers.js';

const execFileP = promisify(execFile);
const sheet = (...lines: string[]) => lines.join('\n');

interface Echo {
  method: string;
  rawPath: string;
  rawHeaders: [string, string][];
  bodyBase64: string;
}

let api: Api;
let engine: EngineProcess;
const dir = tempDir();
beforeAll(async () => {
  api = await startApi();
  engine = spawnEngine();
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
  fs.writeFileSync(path.join(dir, 'bin.dat'), Buffer.from([0x00, 0x01, 0x27, 0x22, 0x24, 0x5c, 0x0a, 0xff, 0x00, 0x25, 0x80]));
  fs.writeFileSync(path.join(dir, 'nonul.dat'), Buffer.from([0x01, 0x27, 0x24, 0x5c, 0x0a, 0xfe, 0xff, 0x80, 0x60]));
});
afterAll(async () => {
  await engine.close();
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sheetHeaders = (e: Echo, names: string[]) =>
  e.rawHeaders.filter(([n]) => names.includes(n.toLowerCase())).map(([n, v]) => [n.toLowerCase(), Buffer.from(v, 'latin1').toString('utf8')]);

describe('toCurl: alwaysMethod (C-c C-u) against the shortest form (--dry-run)', () => {
  const req = (method: string, body?: string) => ({
    method, url: 'http://127.0.0.1:1/x', headers: [] as [string, string][], line: 1,
    ...(body === undefined ? {} : { body: { kind: 'text' as const, text: body } }),
  });
  it.each([
    ['GET', undefined, 'curl -X GET http', 'curl http'],
    ['POST', 'a', 'curl -X POST --data-binary', 'curl --data-binary'],
    ['PUT', 'a', 'curl -X PUT --data-binary', 'curl -X PUT --data-binary'],
    ['HEAD', undefined, 'curl -I http', 'curl -I http'],
  ])('%s (body %s)', (method, body, always, shortest) => {
    expect(toCurl(req(method, body), { alwaysMethod: true }).startsWith(always)).toBe(true);
    expect(toCurl(req(method, body)).startsWith(shortest)).toBe(true);
  });
});

describe('sheet/curl reproduces the request exactly in bash', () => {
  it.each([
    ['a GET with a query string', sheet('GET :api/echo/a?x=1&y=two%20words&z=%C3%A9')],
    ['a DELETE', sheet('DELETE :api/echo/users/1')],
    ['a POST with JSON holding quotes, $ and backquotes', sheet('POST :api/echo/p', 'Content-Type: application/json', '', '{"a": "it\'s $HOME `id` \\"q\\" $(ls)"}')],
    ['a PUT with newlines, tabs and a trailing newline', sheet('PUT :api/echo/t', 'Content-Type: text/plain', '', 'line 1\n\tline 2\nlast', '', '#')],
    ['a PATCH with non-ASCII text', sheet('PATCH :api/echo/u', 'Content-Type: text/plain; charset=utf-8', 'X-Name: Zo\u00eb', '', '\u00e9t\u00e9 \u65e5\u672c \u{1f600}')],
    ['headers with $, quotes and an empty value', sheet('GET :api/echo/h', "X-Dollar: $PATH and 'single' \"double\"", 'X-Empty:', 'Authorization: Bearer a!b')],
    ['a GET with a body', sheet('GET :api/echo/g', '', 'q=1')],
    ['an OPTIONS request', sheet('OPTIONS :api/echo/o')],
    ['a binary file body with NUL bytes', sheet('POST :api/echo/b', 'Content-Type: application/octet-stream', '', '< bin.dat')],
    ['a binary file body without NUL bytes', sheet('PUT :api/echo/n', '', '< nonul.dat')],
    ['a non-ASCII URL', sheet('GET :api/echo/caf\u00e9?q=\u65e5')],
    ['a body starting with @ (text, not a file name)', sheet('POST :api/echo/at', 'Content-Type: text/plain', '', '@bin.dat')],
    ['a URL with brackets and braces (no curl globbing)', sheet('GET :api/echo/g?ids[]={1,2}&r=[1-3]')],
    ['a body with CR and ESC (bash\'s $\'...\')', sheet('POST :api/echo/cr', 'Content-Type: text/plain', '', 'a\r\nb\u001b[0m c')],
  ])('%s', async (_, text) => {
    const full = `:api = ${api.url}\n${text}`;
    const params = { text: full, line: 2, path: path.join(dir, 'x.sheet') };
    const { command } = await engine.conn.sendRequest('sheet/curl', params);
    expect(command).toMatch(/curl /);
    // C-c C-u always writes the method, as restclient.el does (HEAD aside: curl's -I).
    const method = /^[A-Z]+/.exec(text)![0];
    expect(command).toContain(` -X ${method} `);
    // POSIX quoting unless a character needs bash's $'...' (a control character other than
    // newline and tab): then dash (/bin/sh here) reproduces the request too.
    // eslint-disable-next-line no-control-regex
    const ansi = /[\x00-\x08\x0b-\x1f\x7f]/.test(text);
    expect(command.includes("$'")).toBe(ansi);
    const shells = ansi ? ['bash'] : ['bash', 'dash'];
    const [fromCurl, ...others] = await Promise.all(
      shells.map(async (sh) => JSON.parse((await execFileP(sh, ['-c', `${command} -s --max-time 10`], { cwd: dir, encoding: 'utf8' })).stdout) as Echo),
    );
    for (const other of others) expect(other).toEqual(fromCurl);
    const sent = await engine.conn.sendRequest('sheet/send', params);
    const fromEngine = JSON.parse(sent.presentation.text) as Echo;
    expect(fromCurl.method).toBe(fromEngine.method);
    expect(fromCurl.rawPath).toBe(fromEngine.rawPath);
    expect(fromCurl.bodyBase64).toBe(fromEngine.bodyBase64);
    const names = (sent.request.headers as [string, string][]).map(([n]) => n.toLowerCase());
    expect(sheetHeaders(fromCurl, names)).toEqual(sheetHeaders(fromEngine, names));
    // curl adds no Content-Type of its own to a body the sheet sent without one.
    if (!names.includes('content-type')) expect(fromCurl.rawHeaders.some(([n]) => n.toLowerCase() === 'content-type')).toBe(false);
  });
});
