// Credentials in the front ends that run sheets (docs/networks.md, "Credentials"): `sheet run
// --netrc` / `--netrc-file`, the `netrc` setting over JSON-RPC, and the `Authorization: Digest
// USER PASSWORD` / `AWS ...` lines of sheets and `.http` files, against python3-httpbin.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';
import { runSheet, spawnEngine, tempDir } from './helpers.js';

let hb: { url: string };
let dir: string;
beforeAll(async () => {
  hb = await sharedHttpbin();
  dir = tempDir('auth-frontends-');
  fs.writeFileSync(path.join(dir, 'netrc'), 'machine 127.0.0.1 login user password passwd\n');
}, 30_000);
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet run', () => {
  it('--netrc-file sends the credentials; without it the server says 401', async () => {
    const f = path.join(dir, 'basic.sheet');
    fs.writeFileSync(f, `GET ${hb.url}/basic-auth/user/passwd\n-> expect-status 200\n`);
    const ok = await runSheet(['run', '--netrc-file', 'netrc', f], { cwd: dir });
    expect(ok.code).toBe(0);
    const without = await runSheet(['run', f], { cwd: dir });
    expect(without.code).not.toBe(0);
    expect(without.out).toMatch(/401/);
  });

  it('--netrc reads $HOME/.netrc', async () => {
    const home = path.join(dir, 'home');
    fs.mkdirSync(home, { recursive: true });
    fs.copyFileSync(path.join(dir, 'netrc'), path.join(home, '.netrc'));
    const f = path.join(dir, 'basic2.sheet');
    fs.writeFileSync(f, `GET ${hb.url}/basic-auth/user/passwd\n-> expect-status 200\n`);
    const r = await runSheet(['run', '-n', f], { cwd: dir, env: { HOME: home } });
    expect(r.code).toBe(0);
  });

  it('an unreadable --netrc-file: the error names it, nothing is sent', async () => {
    const f = path.join(dir, 'basic3.sheet');
    fs.writeFileSync(f, `GET ${hb.url}/basic-auth/user/passwd\n-> expect-status 200\n`);
    const r = await runSheet(['run', '--netrc-file', 'missing', f], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.out + r.err).toContain(`${path.join(dir, 'missing')}: cannot read the .netrc file`);
  });

  it.each([
    ['a sheet', 'd.sheet', (u: string) => `GET ${u}/digest-auth/auth/user/passwd/SHA-256\nAuthorization: Digest user passwd\n-> expect-status 200\n`],
    ['a .http file', 'd.http', (u: string) => `GET ${u}/digest-auth/auth/user/passwd/MD5\nAuthorization: Digest user passwd\n\n> {%\n  client.test("ok", () => client.assert(response.status === 200, "status " + response.status));\n%}\n`],
  ])('Authorization: Digest USER PASSWORD in %s is answered', async (_what, name, text) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, text(hb.url));
    const r = await runSheet(['run', f], { cwd: dir });
    expect(r.out + r.err).not.toMatch(/FAIL|ERR/);
    expect(r.code).toBe(0);
  });

  it('Authorization: Digest with no password: the error names the file and the request line', async () => {
    const f = path.join(dir, 'bad.http');
    fs.writeFileSync(f, `### one\nGET ${hb.url}/digest-auth/auth/user/passwd\nAuthorization: Digest user\n`);
    const r = await runSheet(['run', f], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.out + r.err).toMatch(/bad\.http:2: Authorization: Digest user: no password/);
  });
});

describe('JSON-RPC', () => {
  it('the netrc setting sends the credentials; without it the server says 401', async () => {
    const e = spawnEngine({ cwd: dir });
    try {
      await e.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
      const text = `GET ${hb.url}/basic-auth/user/passwd\n`;
      const r = (await e.conn.sendRequest('sheet/send', { text, line: 1, settings: { netrc: 'netrc' } })) as { response: { status: number } };
      expect(r.response.status).toBe(200);
      const r2 = (await e.conn.sendRequest('sheet/send', { text, line: 1 })) as { response: { status: number } };
      expect(r2.response.status).toBe(401);
    } finally {
      await e.close();
    }
  });
});
