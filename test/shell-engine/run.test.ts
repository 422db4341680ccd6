// One verb call end to end (engine/src/shell-verbs/run.ts) against the example API on 127.0.0.1, the
// --dry-run command run by real bash, and the daemon protocol over a real Unix socket.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs fixture without types
import { startServer } from '../fixtures/server.mjs';
import { run, type RunInput } from '../../engine/src/shell-verbs/run.js';
import { runDaemon } from '../../engine/src/shell-verbs/daemon.js';
import { readRunRequest } from '../../engine/src/shell-verbs/multipart.js';

let api: { url: string; close(): Promise<void> };
let tmp: string;

beforeAll(async () => {
  api = await startServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-engine-'));
});
afterAll(async () => {
  await api.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** run() with the shell's argument vector: METHOD BASE PATH BODYSRC BODY COOKIEFILE 0 OPTS... */
async function call(method: string, p: string, opts: string[] = [], body?: string | Buffer, lines: string[] = []) {
  const stdin = Buffer.isBuffer(body) ? body : undefined;
  const input: RunInput = {
    argv: [method, `${api.url}*`, p, stdin ? 'stdin' : body !== undefined ? 'arg' : 'none', typeof body === 'string' ? body : '', path.join(tmp, 'c'), String(lines.length), ...lines, ...opts],
    cwd: tmp,
    pathEnv: process.env.PATH ?? '',
    readStdin: async () => stdin ?? Buffer.alloc(0),
  };
  const r = await run(input);
  return { code: r.code, out: Buffer.concat(r.stdout), err: Buffer.concat(r.stderr).toString('utf8') };
}

describe('exit statuses', () => {
  it.each([
    [200, 0],
    [201, 0],
    [204, 0],
    [301, 3],
    [304, 3],
    [400, 4],
    [404, 4],
    [500, 5],
    [502, 5],
  ])('status %i -> exit %i', async (status, code) => {
    const r = await call('GET', `/status/${status}`);
    expect(r.code).toBe(code);
    if (code !== 0 && status !== 304) {
      expect(r.out.length).toBe(0);
      expect(JSON.parse(r.err).status).toBe(status);
    }
  });

  it('a refused connection is exit 7 (curl\'s) with the URL', async () => {
    const r = await run({ argv: ['GET', 'http://127.0.0.1:1*', '/x', 'none', '', '', '0'], cwd: tmp, pathEnv: '', readStdin: async () => Buffer.alloc(0) });
    expect(r.code).toBe(7);
    expect(Buffer.concat(r.stderr).toString()).toContain('http://127.0.0.1:1/x');
  });

  it('a bad option is exit 2', async () => {
    const r = await call('GET', '/echo', ['-H']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/-H needs an argument/);
  });
});

describe('requests', () => {
  it('option lines go before the options, split shell-style', async () => {
    const r = await call('GET', '/echo', ['-H', 'X-O: opt'], undefined, [` -H 'X-O: line one'`, ' -H "X-O: line two"']);
    const e = JSON.parse(r.out.toString());
    expect(e.rawHeaders.filter((h: string[]) => h[0] === 'X-O').map((h: string[]) => h[1])).toEqual(['line one', 'line two', 'opt']);
  });

  it('the argument of a curl option is data even when it looks like a verb option', async () => {
    const e = JSON.parse((await call('POST', '/echo', ['-d', '-Q', '-H', 'X-Z: 1'])).out.toString());
    expect(e.body).toBe('-Q');
  });

  it('a stdin body is sent byte for byte', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 10, 10]);
    const e = JSON.parse((await call('POST', '/echo', [], bytes)).out.toString());
    expect(Buffer.from(e.bodyBase64, 'base64').equals(bytes)).toBe(true);
  });

  it('binary responses are byte-exact', async () => {
    const r = await call('GET', '/binary');
    expect([...r.out]).toEqual([0, 1, 2, 0, 255, 10, 0, 10]);
  });

  it('cookies are saved in the Netscape file and sent back', async () => {
    await call('GET', '/cookies/set', ['-q', 'vt=1']);
    expect(fs.readFileSync(path.join(tmp, 'c'), 'utf8')).toMatch(/\tvt\t1$/m);
    const e = JSON.parse((await call('GET', '/cookies')).out.toString());
    expect(e.cookies.vt).toBe('1');
  });
});

describe('--dry-run', () => {
  // The printed command, run by real bash, makes the same request as the engine.
  it.each([
    ['GET', '/echo/a b', ['-q', 'x=1&y=2', '-H', "X-Q: it's"], undefined],
    ['POST', '/echo', ['-d', 'a=1', '-d', 'b=2'], undefined],
    ['PUT', '/echo/p', ['-u', 'me:pw'], 'line1\nline2\t$HOME `x`'],
    ['PATCH', '/echo', [], Buffer.from([0, 1, 2, 39, 92, 10])],
    ['DELETE', '/echo', ['--json', '{"a":1}'], undefined],
    ['GET', '/echo', ['-d', 'q=1', '-G'], undefined],
  ])('%s %s %j', async (method, p, opts, body) => {
    const engine = JSON.parse((await call(method, p, opts as string[], body as string | Buffer | undefined)).out.toString());
    const dry = await call(method, p, [...(opts as string[]), '--dry-run'], body as string | Buffer | undefined);
    expect(dry.code).toBe(0);
    const cmd = dry.out.toString();
    expect(cmd.startsWith('curl ') || cmd.startsWith('printf ')).toBe(true);
    // Async: the API runs in this process, so a blocking child would deadlock it.
    const viaCurl = JSON.parse((await promisify(execFile)('bash', ['-c', cmd], { encoding: 'utf8' })).stdout);
    for (const k of ['method', 'rawPath', 'bodyBase64']) expect(viaCurl[k]).toEqual(engine[k]);
    for (const h of ['content-type', 'authorization', 'x-q']) expect(viaCurl.headers[h]).toEqual(engine.headers[h]);
  });
});

describe('the daemon', () => {
  it('reads curl --form-string / -F bodies as a stream, the stdin part last', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'mp-'));
    // Bytes that look like delimiters, CRLFs and NULs, over several reads.
    const bin = Buffer.concat([Buffer.from([0, 13, 10, 45, 45, 255]), Buffer.alloc(300_000, 7), Buffer.from('\r\n--')]);
    fs.writeFileSync(path.join(dir, 'in'), bin);
    // Ask curl itself to build the body: a tiny server reads it with the daemon's reader.
    return new Promise<void>((resolve, reject) => {
      const srv = http.createServer(async (req, res) => {
        try {
          const cl = Number(req.headers['content-length']);
          const r = await readRunRequest(req, req.headers['content-type'] ?? '', cl);
          const chunks: Buffer[] = [];
          for await (const c of r.stdin!.stream) chunks.push(c as Buffer);
          res.end('ok');
          expect(r.fields.map((p) => p.name)).toEqual(['a', 'a', 'a']);
          expect(r.fields[0]!.data.toString()).toBe('with\nnewline');
          expect(r.fields[1]!.data.toString()).toBe('@not-a-file;type=x');
          expect(r.fields[2]!.data.toString()).toBe('');
          expect(r.stdin!.size).toBe(bin.length);
          expect(Buffer.concat(chunks).equals(bin)).toBe(true);
          resolve();
        } catch (e) {
          reject(e);
        } finally {
          srv.close();
        }
      });
      srv.listen(0, '127.0.0.1', () => {
        const port = (srv.address() as { port: number }).port;
        spawn('curl', ['-s', '-H', 'Expect:', '--form-string', 'a=with\nnewline', '--form-string', 'a=@not-a-file;type=x', '--form-string', 'a=', '-F', `stdin=@${path.join(dir, 'in')}`, `http://127.0.0.1:${port}/`], { stdio: 'ignore' });
      });
    });
  });

  it('serves a verb call over its socket; the exit status file only when not 2xx, the error body as the next segment', async () => {
    const dir = fs.mkdtempSync(path.join('/tmp', 'rest-vt-'));
    fs.chmodSync(dir, 0o700);
    const done = runDaemon({ dir, idleSeconds: 2 });
    const sock = path.join(dir, 'engine.sock');
    for (let i = 0; i < 200 && !fs.existsSync(sock); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.statSync(sock).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const curl = (p: string) =>
      new Promise<{ status: number; stdout: Buffer }>((resolve) => {
        const args = ['GET', `${api.url}*`, p, 'none', '', '', '0'].flatMap((a) => ['--form-string', `a=${a}`]);
        const child = spawn('curl', ['-s', '-f', '--unix-socket', sock, ...args, '--form-string', `s=${dir}/s`, '--form-string', `e=${dir}/e`, 'http://rest/run']);
        const out: Buffer[] = [];
        child.stdout.on('data', (d: Buffer) => out.push(d));
        child.on('close', (code) => resolve({ status: code ?? 1, stdout: Buffer.concat(out) }));
      });
    const ok = await curl('/binary');
    expect(ok.status).toBe(0);
    expect([...ok.stdout]).toEqual([0, 1, 2, 0, 255, 10, 0, 10]);
    // A 2xx with nothing on stderr leaves no file at all.
    expect(fs.existsSync(`${dir}/s`)).toBe(false);
    expect(fs.existsSync(`${dir}/e`)).toBe(false);
    const missing = await curl('/users/999');
    expect(missing.stdout.length).toBe(0);
    // No caller pid to write stderr through: the error body is the next segment, fetched by the
    // shell's next curl (POST /next, src/shell-verbs/relay.ts); nothing is spooled in `e`.
    expect(fs.readFileSync(`${dir}/s`, 'utf8')).toBe('>2\n');
    expect(fs.statSync(`${dir}/s`).mode & 0o777).toBe(0o600);
    fs.rmSync(`${dir}/s`);
    const next = await new Promise<Buffer>((resolve) => {
      const child = spawn('curl', ['-s', '-N', '--unix-socket', sock, '--data-urlencode', `s=${dir}/s`, 'http://rest/next']);
      const out: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.on('close', () => resolve(Buffer.concat(out)));
    });
    expect(next.toString('utf8')).toContain('no user 999');
    expect(fs.readFileSync(`${dir}/s`, 'utf8')).toBe('4\n');
    expect(fs.statSync(`${dir}/s`).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${dir}/e`)).toBe(false);
    // Idle for 2 s: it stops and removes its socket.
    await expect(done).resolves.toBe(0);
    expect(fs.existsSync(sock)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
