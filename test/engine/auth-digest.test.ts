// Digest authentication (engine/src/http/auth.ts, digest.ts; RFC 7616) against a server nobody
// here wrote, python3-httpbin's /digest-auth/auth/USER/PASSWD[/ALGORITHM], with curl --digest
// beside it; and on the wire (test/fixtures/http/capture-server.mjs's parser): a POST body is
// sent once, on the answered request, as curl sends it.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../engine/src/http/send.js';
import { authShorthand } from '../../engine/src/http/auth.js';
import { digestAuthorization, digestChallenge } from '../../engine/src/http/digest.js';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';
import { startScripted } from '../fixtures/http/capture-server.mjs';

/** A request as the capture server parsed it. */
type Raw = { requestLine: string; headers: [string, string][]; body: Buffer };

let hb: { url: string };
beforeAll(async () => {
  hb = await sharedHttpbin();
}, 30_000);
const curlStatus = (args: string[]) => execFileSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...args], { encoding: 'utf8' });

describe('httpbin /digest-auth, the engine and curl --digest', () => {
  it.each(['MD5', 'SHA-256'])('%s: the shorthand header is answered; curl --digest agrees', async (alg) => {
    const url = `${hb.url}/digest-auth/auth/user/passwd/${alg}`;
    const ex = await send({ method: 'GET', url, headers: [['Authorization', 'Digest user passwd']] });
    expect(ex.response.status).toBe(200);
    expect(JSON.parse(Buffer.from(ex.response.body).toString())).toEqual({ authenticated: true, user: 'user' });
    const sent = ex.request.headers.find(([n]) => n === 'Authorization')![1];
    expect(sent).toMatch(new RegExp(`^Digest username="user", .*algorithm=${alg}$`));
    expect(curlStatus(['--digest', '-u', 'user:passwd', url])).toBe('200');
  });

  it('a wrong password gets the 401, as curl does', async () => {
    const url = `${hb.url}/digest-auth/auth/user/passwd`;
    const ex = await send({ method: 'GET', url, headers: [['Authorization', 'Digest user wrong']] });
    expect(ex.response.status).toBe(401);
    expect(curlStatus(['--digest', '-u', 'user:wrong', url])).toBe('401');
  });

  it("curl's --digest with -u (the shell's options) and with URL credentials", async () => {
    const url = `${hb.url}/digest-auth/auth/user/passwd/SHA-256`;
    expect((await send({ method: 'GET', url, headers: [] }, { auth: { digest: true, user: 'user:passwd' } })).response.status).toBe(200);
    const withCreds = url.replace('http://', 'http://user:passwd@');
    expect((await send({ method: 'GET', url: withCreds, headers: [] }, { auth: { digest: true } })).response.status).toBe(200);
  });
});

describe('the shorthand', () => {
  it.each([
    ['Digest user pass word', { kind: 'digest', user: 'user', password: 'pass word' }],
    ['digest u p', { kind: 'digest', user: 'u', password: 'p' }],
    ['Digest username="u", realm="r"', undefined],
    ['Basic dTpw', undefined],
    ['AWS AK SK token:T region:eu-west-1 service:s3', { kind: 'aws', accessKeyId: 'AK', secretAccessKey: 'SK', sessionToken: 'T', region: 'eu-west-1', service: 's3' }],
  ])('%s', (value, want) => {
    expect(authShorthand(value)).toEqual(want);
  });

  it.each(['Digest user', 'AWS onlykey', 'AWS AK SK colour:blue'])('%s: bad-auth naming the line; nothing is sent', async (value) => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const err = await send({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: [['Authorization', value]], line: 7 }).catch((e) => e);
    server.close();
    expect(err.code).toBe('bad-auth');
    expect(err.message).toMatch(/^line 7: Authorization: /);
    expect(connections).toBe(0);
  });
});

describe('RFC 7616 section 3.9.1 example', () => {
  it('MD5 and SHA-256 responses of the RFC', () => {
    const www = (alg: string) => [['WWW-Authenticate', `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${alg}, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`]] as [string, string][];
    const answer = (alg: string) => digestAuthorization(digestChallenge(www(alg))!, 'Mufasa', 'Circle of Life', 'GET', '/dir/index.html', 1, 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ');
    expect(answer('MD5')).toContain('response="8ca523f5e9506fed4657c9700eebdbec"');
    expect(answer('SHA-256')).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
  });
});

describe('the body on the wire', () => {
  it('a POST goes first with Content-Length: 0, its body only on the answered request', async () => {
    const get = (r: Raw, n: string) => r.headers.find(([k]) => k.toLowerCase() === n)?.[1];
    const server = await startScripted((r: Raw) =>
      get(r, 'authorization')
        ? 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'
        : 'HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Digest realm="r", nonce="n1", qop="auth", algorithm=MD5\r\nContent-Length: 4\r\n\r\nnope',
    );
    const seen = () => server.requests.map((r: Raw) => [get(r, 'content-length'), r.body.toString(), !!get(r, 'authorization')]);
    const url = `http://127.0.0.1:${server.port}/form`;
    const ex = await send({ method: 'POST', url, headers: [['Authorization', 'Digest u p'], ['Content-Type', 'text/plain']], body: { kind: 'text', text: 'hello' } });
    expect(ex.response.status).toBe(200);
    expect(seen()).toEqual([['0', '', false], ['5', 'hello', true]]);
    // curl -v sends the same two requests (checked with curl 7.88).
    server.requests.length = 0;
    // (curl runs asynchronously: the server is in this process.)
    await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '--max-time', '20', '--digest', '-u', 'u:p', '-H', 'Content-Type: text/plain', '--data-binary', 'hello', url]);
    expect(seen()).toEqual([['0', '', false], ['5', 'hello', true]]);
    await server.close();
  });
});

describe('a stale nonce', () => {
  it('is answered again with the new nonce; a second plain 401 is the response', async () => {
    const challenge = (n: string, stale: boolean) => `HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Digest realm="r", nonce="${n}", qop="auth"${stale ? ', stale=true' : ''}\r\nContent-Length: 0\r\n\r\n`;
    const nonceOf = (r: Raw) => /nonce="([^"]*)"/.exec(r.headers.find(([k]) => k.toLowerCase() === 'authorization')?.[1] ?? '')?.[1] ?? '-';
    const server = await startScripted((r: Raw) => {
      const nonce = nonceOf(r);
      if (nonce === '-') return challenge('n1', false);
      if (nonce === 'n1') return challenge('n2', true);
      return r.requestLine.includes('/ok') ? 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n' : challenge('n3', false);
    });
    const base = `http://127.0.0.1:${server.port}`;
    const ok = await send({ method: 'GET', url: `${base}/ok`, headers: [['Authorization', 'Digest u p']] });
    expect(ok.response.status).toBe(200);
    expect(server.requests.map(nonceOf)).toEqual(['-', 'n1', 'n2']);
    server.requests.length = 0;
    const no = await send({ method: 'GET', url: `${base}/no`, headers: [['Authorization', 'Digest u p']] });
    expect(no.response.status).toBe(401);
    expect(server.requests.map(nonceOf)).toEqual(['-', 'n1', 'n2']);
    await server.close();
  });
});
