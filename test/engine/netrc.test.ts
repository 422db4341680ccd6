// .netrc as curl reads it (engine/src/http/netrc.ts, applied by http/auth.ts in send): each row
// sends with the engine and with curl --netrc-file to a capture server, and the Authorization
// headers must be equal (curl 7.88).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../engine/src/http/send.js';
import { netrcCredentials, parseNetrc } from '../../engine/src/http/netrc.js';
import { startCapture } from '../fixtures/http/capture-server.mjs';
import { tempDir } from './helpers.js';

type Captured = { requestLine: string; headers: [string, string][] };
let cap: { port: number; requests: Captured[]; close(): Promise<void> };
let dir: string;
let file: string;
beforeAll(async () => {
  cap = await startCapture();
  dir = tempDir('netrc-');
  file = path.join(dir, 'netrc');
  fs.writeFileSync(
    file,
    [
      '# a comment line',
      'macdef init',
      'machine 127.0.0.1 login evil password x',
      '',
      'machine other.invalid login o password op',
      'machine 127.0.0.1 login u1 password p1 # the first entry wins',
      'machine 127.0.0.1 login u2 password p2',
      'machine localhost login "a b" password "p\\"q\\\\r"',
      'default login d password dp',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await cap?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const authOf = (r: Captured | undefined) => r?.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1];
const b64 = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('the engine and curl --netrc-file send the same credentials', () => {
  it.each([
    ['127.0.0.1', '', 'u1:p1'],
    ['127.0.0.1', 'u2@', 'u2:p2'],
    ['localhost', '', 'a b:p"q\\r'],
    ['127.0.0.1', '', 'd:dp', 'machine elsewhere.invalid login x password y\ndefault login d password dp\n'],
  ])('%s with %s', async (host, userinfo, want, text?: string) => {
    const f = text === undefined ? file : path.join(dir, 'netrc-default');
    if (text !== undefined) fs.writeFileSync(f, text);
    const url = `http://${userinfo}${host}:${cap.port}/x`;
    cap.requests.length = 0;
    await send({ method: 'GET', url, headers: [] }, { auth: { netrc: { file: f } } });
    const mine = authOf(cap.requests[0]);
    cap.requests.length = 0;
    await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '--max-time', '20', '--netrc-file', f, url]);
    expect(mine).toBe(b64(want));
    expect(authOf(cap.requests[0])).toBe(mine);
  });

  it('http://user@host with no entry for that login sends the user alone, as without netrc', async () => {
    cap.requests.length = 0;
    await send({ method: 'GET', url: `http://nobody@127.0.0.1:${cap.port}/x`, headers: [] }, { auth: { netrc: { file: path.join(dir, 'netrc-none'), optional: true } } });
    expect(authOf(cap.requests[0])).toBe(b64('nobody:'));
  });

  it("the request's own Authorization and a URL password win", async () => {
    cap.requests.length = 0;
    await send({ method: 'GET', url: `http://127.0.0.1:${cap.port}/x`, headers: [['Authorization', 'Bearer t']] }, { auth: { netrc: { file } } });
    await send({ method: 'GET', url: `http://u9:p9@127.0.0.1:${cap.port}/x`, headers: [] }, { auth: { netrc: { file } } });
    expect(cap.requests.map(authOf)).toEqual(['Bearer t', b64('u9:p9')]);
  });

  it('-n reads $HOME/.netrc of the given environment', async () => {
    fs.writeFileSync(path.join(dir, '.netrc'), 'machine 127.0.0.1 login home password hp\n');
    cap.requests.length = 0;
    await send({ method: 'GET', url: `http://127.0.0.1:${cap.port}/x`, headers: [] }, { auth: { netrc: { env: { HOME: dir } } } });
    expect(authOf(cap.requests[0])).toBe(b64('home:hp'));
  });
});

describe('errors: nothing is sent', () => {
  it.each([
    [{ file: '/nonexistent/netrc' }, /^\/nonexistent\/netrc: cannot read the \.netrc file \(ENOENT\)/],
    [{ env: { HOME: '/nonexistent' } }, /^\/nonexistent\/\.netrc: cannot read/],
  ])('%j', async (netrc, message) => {
    cap.requests.length = 0;
    const err = await send({ method: 'GET', url: `http://127.0.0.1:${cap.port}/x`, headers: [] }, { auth: { netrc } }).catch((e) => e);
    expect(err.code).toBe('bad-netrc');
    expect(err.message).toMatch(message);
    expect(err.details.curlExit).toBe(26);
    expect(cap.requests).toEqual([]);
  });

  it('/dev/zero is refused after 1 MiB, memory bounded', async () => {
    const err = await send({ method: 'GET', url: `http://127.0.0.1:${cap.port}/x`, headers: [] }, { auth: { netrc: { file: '/dev/zero' } } }).catch((e) => e);
    expect(err.code).toBe('bad-netrc');
    expect(err.message).toMatch(/^\/dev\/zero: larger than 1048576 bytes/);
  });

  it('--netrc-optional: a missing file is no error', async () => {
    cap.requests.length = 0;
    await send({ method: 'GET', url: `http://127.0.0.1:${cap.port}/x`, headers: [] }, { auth: { netrc: { file: '/nonexistent/netrc', optional: true } } });
    expect(authOf(cap.requests[0])).toBeUndefined();
  });

  it('an unclosed quote names the file and line', () => {
    expect(() => parseNetrc('machine h\nlogin "u password p\n', '/x/netrc')).toThrow(/^\/x\/netrc:2: a quoted word has no closing "/);
    expect(() => parseNetrc('machine', 'n')).toThrow(/^n:1: "machine" has no host name after it/);
  });
});

describe('netrcCredentials', () => {
  const entries = parseNetrc('machine A.example login a password pa\nmachine b.example login b\ndefault login d password pd\n');
  it.each([
    ['a.example', undefined, 'a:pa'],
    ['b.example', undefined, 'b:'],
    ['c.example', undefined, 'd:pd'],
    ['a.example', 'zz', undefined],
  ])('%s %s', (host, login, want) => {
    expect(netrcCredentials(entries, host, login)).toBe(want);
  });
});
