// Issue 36 item 5: under `--retry`, a request that got 503, 503, 200 was never sent again, and a
// `.http` file had no way to mark a test retryable. 429 and 503 are now retried for idempotent
// methods, after the server's Retry-After; `# @retry [N]` marks a `.http` request's assertions
// retryable (and lets a POST be sent again). A counting server on 127.0.0.1, the real bin.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';

let server: http.Server;
let base: string;
let dir: string;
/** Hits by path; and when each came (epoch ms). */
const hits = new Map<string, number[]>();

beforeAll(async () => {
  // /busy/N/KEY?code=C&after=S: status C (Retry-After: S when given) the first N times, then 200.
  // /job/N/KEY: 200 {"done": false} the first N times, then {"done": true}.
  server = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://127.0.0.1');
    const seen = hits.get(u.pathname) ?? [];
    seen.push(Date.now());
    hits.set(u.pathname, seen);
    const m = /^\/(busy|job)\/(\d+)\//.exec(u.pathname);
    req.resume();
    const early = !!m && seen.length <= Number(m[2]);
    if (m?.[1] === 'busy' && early) {
      const after = u.searchParams.get('after');
      res.writeHead(Number(u.searchParams.get('code') ?? 503), { 'Content-Type': 'text/plain', ...(after ? { 'Retry-After': after } : {}) }).end('busy');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ done: !early }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = tempDir('sheet-run-retry-status-');
}, 30000);

afterAll(async () => {
  await new Promise((done) => server.close(done));
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  fs.writeFileSync(path.join(dir, name), text.replaceAll('BASE', base));
  return name;
}

describe('sheet run --retry and 429/503', () => {
  it('a GET that gets 503, 503, 200 is sent again and passes (flaky)', async () => {
    const f = write('busy.sheet', 'GET BASE/busy/2/a\n-> expect-status 200\n');
    const r = await runSheet(['run', f, '--retry', '3', '--retry-delay', '10'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.out).toContain('(flaky: passed on attempt 3)');
    expect(hits.get('/busy/2/a')).toHaveLength(3);
    // A POST is not sent again unless marked; nor a request whose status assertion expects 503.
    const post = write('post.sheet', 'POST BASE/busy/1/c\n-> expect-status 200\n#\nGET BASE/busy/1/g\n-> expect-status 503\n');
    const p = await runSheet(['run', post, '--retry', '2', '--retry-delay', '10'], { cwd: dir });
    expect(p.code).toBe(1);
    expect(hits.get('/busy/1/c')).toHaveLength(1);
    expect(hits.get('/busy/1/g')).toHaveLength(1);
  });

  it("waits the server's Retry-After (seconds) before the next try, on 429 too", async () => {
    const f = write('after.sheet', 'GET BASE/busy/1/b?code=429&after=1\n-> expect-status 200\n');
    const r = await runSheet(['run', f, '--retry', '2', '--retry-delay', '10'], { cwd: dir });
    expect(r.code).toBe(0);
    const [first, second] = hits.get('/busy/1/b')!;
    expect(second! - first!).toBeGreaterThanOrEqual(950);
  });
});

describe('# @retry in .http files', () => {
  it('marks every assertion of the request retryable, a POST included', async () => {
    const f = write('job.http', '# @retry\nPOST BASE/job/2/d\n\n?? body done == true\n');
    const r = await runSheet(['run', f, '--retry', '3', '--retry-delay', '10'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.out).toContain('(flaky: passed on attempt 3)');
    expect(hits.get('/job/2/d')).toHaveLength(3);
  });

  it('# @retry N is the request\'s own count, without --retry; a value that is no count is a located error', async () => {
    const f = write('own.http', '# @retry 1\nGET BASE/job/5/e\n\n?? body done == true\n');
    const r = await runSheet(['run', f, '--retry-delay', '10'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.out).toContain('(failed on attempt 2)');
    expect(hits.get('/job/5/e')).toHaveLength(2);
    const bad = write('bad.http', '# @retry often\nGET BASE/job/0/f\n');
    const b = await runSheet(['run', bad], { cwd: dir });
    expect(b.code).toBe(2);
    expect(b.out + b.err).toContain('bad.http:1: # @retry often: the value must be a number of retries');
    expect(hits.get('/job/0/f')).toBeUndefined();
  });
});
