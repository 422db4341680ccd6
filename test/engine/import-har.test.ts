// `sheet import` of HAR 1.2: the request fixtures of httpsnippet (test/fixtures/imports/har/
// README.md) as the entries of one HAR log, sent twice to a recording server on 127.0.0.1: by
// the curl commands httpsnippet itself makes of each entry (run by the real curl), and by
// `sheet run` on the import. Same method, URL, headers, body. Issue 42 items 1-3.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { HTTPSnippet, type HarRequest } from '@readme/httpsnippet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
import { startRecordingServer, type Recorded, type RecordingServer } from './recording-server.js';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/imports/har');
const ENTRIES = ['full', 'application-form-encoded', 'application-json', 'multipart-data', 'text-plain', 'headers'];
const OWN = new Set(['host', 'connection', 'content-length', 'user-agent', 'accept-encoding', 'transfer-encoding']);

let rec: RecordingServer;
let base = '';
let dir: string;

beforeAll(async () => {
  dir = tempDir('import-har-');
  rec = await startRecordingServer({ own: OWN, sameBoundary: true });
  base = rec.base;
});

afterAll(async () => {
  await rec.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const requests = (): HarRequest[] => ENTRIES.map((e) => JSON.parse(fs.readFileSync(path.join(FIXTURES, `${e}.json`), 'utf8').replaceAll('http://mockbin.com', base)));

/**
 * What both must agree on. httpsnippet's curl commands put the `queryString` parameters before
 * the URL's own and re-indent a JSON body, and curl adds `Accept: *\/*`: the query is compared
 * as sorted pairs, JSON bodies parsed, curl's default Accept left out.
 */
function same(r: Recorded): Recorded {
  const [p, q = ''] = r.url.split('?');
  const headers = { ...r.headers };
  if (headers.accept === '*/*') delete headers.accept;
  let body = r.body;
  if (/json/.test(headers['content-type'] ?? '')) body = JSON.stringify(JSON.parse(body));
  return { ...r, url: `${p}?${q.split('&').sort().join('&')}`, headers, body };
}

describe('sheet import of HAR', () => {
  it('sends what httpsnippet\'s curl commands send', async () => {
    fs.writeFileSync(path.join(dir, 'hello.txt'), 'Hello World');
    rec.reset();
    for (const r of requests()) {
      const cmd = (await new HTTPSnippet(r).convert('shell', 'curl')) as string;
      await new Promise<void>((resolve, reject) => execFile('bash', ['-c', `${cmd} -s -o /dev/null`], { cwd: dir }, (e) => (e ? reject(e) : resolve())));
    }
    const expected = rec.recorded;
    expect(expected.length).toBe(ENTRIES.length);
    fs.writeFileSync(path.join(dir, 'browser.har'), JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: requests().map((request) => ({ request })) } }));
    const imp = await runSheet(['import', 'browser.har'], { cwd: dir });
    expect(imp.out).toContain('wrote browser.http (6 requests)');
    rec.reset();
    const run = await runSheet(['run', 'browser.http'], { cwd: dir });
    expect(run.code, run.out + run.err).toBe(0);
    expect(rec.recorded.map(same)).toEqual(expected.map(same));
    // The import sends the HAR's JSON text as written (httpsnippet's curl re-indents it).
    expect(rec.recorded[2]!.body).toBe(requests()[2]!.postData!.text);
  });
});
