// AWS SigV4 (engine/src/http/sigv4.ts, signed by aws4) byte for byte against curl 7.88's
// --aws-sigv4: both send to a capture server (test/fixtures/http/capture-server.mjs) with the
// same pinned X-Amz-Date, and the Authorization headers must be equal.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../engine/src/http/send.js';
import { startCapture } from '../fixtures/http/capture-server.mjs';

type Captured = { requestLine: string; headers: [string, string][]; body: Buffer };
let cap: { url: string; requests: Captured[]; close(): Promise<void> };
beforeAll(async () => {
  const c = await startCapture();
  cap = { ...c, url: `http://127.0.0.1:${c.port}` };
});
afterAll(async () => {
  await cap?.close();
});

const DATE = '20240101T000000Z';
const authOf = (r: Captured) => r.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1];
const curl = async (args: string[]) => {
  cap.requests.length = 0;
  await promisify(execFile)('curl', ['-s', '-o', '/dev/null', '--max-time', '20', ...args]);
  return authOf(cap.requests[0]!)!;
};
const engine = async (method: string, path: string, headers: [string, string][], body?: string) => {
  cap.requests.length = 0;
  await send({ method, url: cap.url + path, headers, ...(body !== undefined ? { body: { kind: 'text' as const, text: body } } : {}) });
  return authOf(cap.requests[0]!)!;
};

describe('the .http AWS line and curl --aws-sigv4 sign alike', () => {
  it('GET with a query and a header of its own', async () => {
    const mine = await engine('GET', '/p/a?a=1&b=2', [['Authorization', 'AWS AKIDEXAMPLE SECRETKEY region:us-east-1 service:execute-api'], ['X-Amz-Date', DATE], ['X-Custom', 'a  b']]);
    const theirs = await curl(['--aws-sigv4', 'aws:amz:us-east-1:execute-api', '-u', 'AKIDEXAMPLE:SECRETKEY', '-H', `X-Amz-Date: ${DATE}`, '-H', 'X-Custom: a  b', `${cap.url}/p/a?a=1&b=2`]);
    expect(mine).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20240101\/us-east-1\/execute-api\/aws4_request, SignedHeaders=host;x-amz-date;x-custom, Signature=[0-9a-f]{64}$/);
    expect(mine).toBe(theirs);
    // The query is signed sorted, as AWS's canonical request asks (curl 7.88 signs it as
    // written, so its signature of ?b=2&a=1 differs from this one; later curls sort too).
    const unsorted = await engine('GET', '/p/a?b=2&a=1', [['Authorization', 'AWS AKIDEXAMPLE SECRETKEY region:us-east-1 service:execute-api'], ['X-Amz-Date', DATE], ['X-Custom', 'a  b']]);
    expect(unsorted).toBe(mine);
  });

  it('POST with a body and its Content-Type (as C-c C-u writes it: -H for every header)', async () => {
    const mine = await engine('POST', '/things', [['Authorization', 'AWS AK SK region:eu-west-1 service:s3'], ['X-Amz-Date', DATE], ['Content-Type', 'application/json']], '{"a":1}');
    const theirs = await curl(['--aws-sigv4', 'aws:amz:eu-west-1:s3', '-u', 'AK:SK', '-H', `X-Amz-Date: ${DATE}`, '-H', 'Content-Type: application/json', '--data-binary', '{"a":1}', `${cap.url}/things`]);
    expect(mine).toBe(theirs);
  });

  it("curl's options (the shell's): the Content-Type the front end adds is left unsigned, as curl's -d", async () => {
    cap.requests.length = 0;
    await send(
      { method: 'POST', url: `${cap.url}/form`, headers: [['X-Amz-Date', DATE], ['Content-Type', 'application/x-www-form-urlencoded']], body: { kind: 'text', text: 'x=1' } },
      { auth: { awsSigv4: 'aws:amz:us-east-1:execute-api', user: 'AK:SK', unsigned: ['content-type'] } },
    );
    const mine = authOf(cap.requests[0]!);
    const theirs = await curl(['--aws-sigv4', 'aws:amz:us-east-1:execute-api', '-u', 'AK:SK', '-H', `X-Amz-Date: ${DATE}`, '-d', 'x=1', `${cap.url}/form`]);
    expect(mine).toBe(theirs);
  });

  it('a session token goes in X-Amz-Security-Token and is signed; no date: now', async () => {
    cap.requests.length = 0;
    await send({ method: 'GET', url: `${cap.url}/t`, headers: [['Authorization', 'AWS AK SK token:TOK region:us-east-1 service:sts']] });
    const r = cap.requests[0]!;
    expect(r.headers).toContainEqual(['X-Amz-Security-Token', 'TOK']);
    expect(authOf(r)).toContain('SignedHeaders=host;x-amz-date;x-amz-security-token,');
    const date = r.headers.find(([n]) => n === 'X-Amz-Date')![1];
    expect(Math.abs(Date.parse(date.replace(/(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z/, '$1-$2-$3T$4:$5:$6Z')) - Date.now())).toBeLessThan(600_000);
  });

  it('--aws-sigv4 with another provider or without -u is bad-auth; nothing is sent', async () => {
    cap.requests.length = 0;
    await expect(send({ method: 'GET', url: `${cap.url}/x`, headers: [] }, { auth: { awsSigv4: 'osc:osc:r:s', user: 'a:b' } })).rejects.toMatchObject({ code: 'bad-auth' });
    await expect(send({ method: 'GET', url: `${cap.url}/x`, headers: [] }, { auth: { awsSigv4: 'aws:amz:r:s' } })).rejects.toMatchObject({ code: 'bad-auth' });
    expect(cap.requests).toEqual([]);
  });
});
