// The credentials options both ways (engine/src/curl/auth-shorthand.ts): C-c C-u's curl
// command (to-curl.ts) writes the Digest and AWS lines as --digest / --aws-sigv4 with -u and
// the netrc setting as -n / --netrc-file; `sheet import-curl` (from-curl.ts) reads them back;
// the printed command, run by bash, authenticates with python3-httpbin.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { toCurl } from '../../engine/src/curl/to-curl.js';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';
import { spawnEngine, tempDir } from './helpers.js';

let hb: { url: string };
beforeAll(async () => {
  hb = await sharedHttpbin();
}, 30_000);
const get = (auth: string) => ({ method: 'GET', url: 'http://h.example/x', headers: [['Authorization', auth]] as [string, string][] });

describe('to curl', () => {
  it.each([
    ['Digest user pass word', "curl --digest -u 'user:pass word' http://h.example/x"],
    ['AWS AK SK token:T region:eu-west-1 service:s3', "curl --aws-sigv4 aws:amz:eu-west-1:s3 -u AK:SK -H 'X-Amz-Security-Token: T' http://h.example/x"],
    ['AWS AK SK', 'curl --aws-sigv4 aws:amz -u AK:SK http://h.example/x'],
    ['Digest username="u", realm="r"', `curl -H 'Authorization: Digest username="u", realm="r"' http://h.example/x`],
  ])('%s', (auth, command) => {
    expect(toCurl(get(auth))).toBe(command);
  });

  it('the printed command authenticates as the engine does', async () => {
    const command = toCurl({ method: 'GET', url: `${hb.url}/digest-auth/auth/user/passwd/SHA-256`, headers: [['Authorization', 'Digest user passwd']] });
    const { stdout } = await promisify(execFile)('bash', ['-c', `${command} -s`]);
    expect(JSON.parse(stdout)).toEqual({ authenticated: true, user: 'user' });
  });
});

describe('from curl', () => {
  it.each([
    ['curl --digest -u user:passwd http://h.example/x', 'Authorization: Digest user passwd'],
    ['curl --aws-sigv4 aws:amz:us-east-1:execute-api -u AK:SK http://h.example/x', 'Authorization: AWS AK SK region:us-east-1 service:execute-api'],
  ])('%s', (command, line) => {
    const out = curlToSheet(command);
    expect(out.text).toBe(`GET http://h.example/x\n${line}\n`);
    expect(out.warnings).toEqual([]);
    // ... and back: the same curl words.
    expect(toCurl(get(line.slice('Authorization: '.length)))).toBe(command);
  });

  it.each([
    ["curl --digest -u 'a b:p' http://h.example/x", /^--digest -u a b:p: an Authorization shorthand line cannot hold a user name with blanks/],
    ['curl --aws-sigv4 osc:osc:r:s -u K:S http://h.example/x', /only the aws:amz provider/],
  ])('%s: a warning', (command, message) => {
    const out = curlToSheet(command);
    expect(out.text).not.toMatch(/Authorization/);
    expect(out.warnings.map((w) => w.message)).toEqual([expect.stringMatching(message)]);
  });
});

describe('sheet/curl (C-c C-u) with the netrc setting', () => {
  it.each([
    ['~/.netrc', 'curl -X GET -n http://h.example/x'],
    ['/etc/n', 'curl -X GET --netrc-file /etc/n http://h.example/x'],
  ])('%s', async (netrc, command) => {
    const e = spawnEngine({ cwd: tempDir('auth-curl-') });
    try {
      await e.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
      const r = (await e.conn.sendRequest('sheet/curl', { text: 'GET http://h.example/x\n', line: 1, settings: { netrc } })) as { command: string };
      expect(r.command).toBe(command);
    } finally {
      await e.close();
    }
  });
});
