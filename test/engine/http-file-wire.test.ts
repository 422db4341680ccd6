// Done-when of issue 14: the request examples of VS Code REST Client's and JetBrains HTTP
// Client's documentation (test/fixtures/http/*-examples.http) run unchanged, and put the same
// requests on the wire as httpyac does for the same file. Both clients send every request of
// the file to a raw TCP capture server on 127.0.0.1; request lines, headers and body bytes are
// compared. Headers each tool adds on its own are left out (docs/http-files.md "Compared with
// httpyac"): User-Agent, Accept-Encoding, Connection, Keep-Alive, and Accept: */* (both tools'
// default).
// Then the same files run against the example API, and every response handler test passes.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';
import { loadEnvironment } from '../../engine/src/http-file/environment.js';
import { HttpFileRunner } from '../../engine/src/session/http-file-runner.js';
// @ts-expect-error plain ESM fixture without types
import { startCapture } from '../fixtures/http/capture-server.mjs';
import { root, startApi, tempDir, type Api } from './helpers.js';

interface Captured {
  requestLine: string;
  headers: [string, string][];
  body: Buffer;
}

const TOOL_HEADERS = new Set(['user-agent', 'accept-encoding', 'connection', 'keep-alive']);
const fixtures = path.join(root, 'test/fixtures/http');
const httpyac = path.join(root, 'node_modules/.bin/httpyac');

function normalize(r: Captured) {
  const headers = r.headers
    .map(([k, v]) => [k.toLowerCase(), v] as [string, string])
    .filter(([k, v]) => !TOOL_HEADERS.has(k) && !(k === 'accept' && v === '*/*'))
    .sort(([a], [b]) => a.localeCompare(b));
  return { requestLine: r.requestLine, headers, body: r.body.toString('latin1') };
}

function copyFixtures(host: string): string {
  const dir = tempDir('http-wire-');
  fs.cpSync(fixtures, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'http-client.env.json'), JSON.stringify({ test: { host } }, null, 2));
  return dir;
}

const lower = (hs: [string, string][] | undefined) => (hs ?? []).map(([k, v]) => [k.toLowerCase(), v]);

describe.each(['vscode-examples.http', 'jetbrains-examples.http', 'vscode-chaining.http'])('%s', (name) => {
  let cap: { port: number; requests: Captured[]; close(): Promise<void> };
  let api: Api;
  const dirs: string[] = [];
  beforeAll(async () => {
    cap = await startCapture();
    api = await startApi();
  });
  afterAll(async () => {
    await cap.close();
    await api.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  // vscode-chaining.http is run only against the example API (httpyac evaluates its file variables too early).
  if (name !== 'vscode-chaining.http') it('puts the same requests on the wire as httpyac', async () => {
    const dir = copyFixtures(`http://127.0.0.1:${cap.port}`);
    dirs.push(dir);
    const file = path.join(dir, name);
    const text = fs.readFileSync(file, 'utf8');
    const count = (text.match(/^###/gm) ?? []).length;

    await promisify(execFile)(httpyac, ['send', file, '--all', '--env', 'test'], { cwd: dir, timeout: 60_000 });
    const theirs = cap.requests.splice(0);
    expect(theirs.length).toBe(count);

    const runner = new HttpFileRunner({ file, env: loadEnvironment(file, 'test') });
    const results = await runner.sendAll(text);
    const ours = cap.requests.splice(0);
    expect(ours.length).toBe(count);
    for (const r of results) expect(r.tests.filter((t) => !t.passed)).toEqual([]);

    for (let i = 0; i < count; i++) {
      expect(normalize(ours[i]!), `request ${i + 1}: ${theirs[i]!.requestLine}`).toEqual(normalize(theirs[i]!));
    }
  }, 90_000);

  it('runs unchanged against the example API, every handler test passing', async () => {
    const dir = copyFixtures(name.startsWith('jetbrains') ? `${api.url}/hf` : api.url);
    dirs.push(dir);
    const file = path.join(dir, name);
    const runner = new HttpFileRunner({ file, env: loadEnvironment(file, 'test') });
    const results = await runner.sendAll(fs.readFileSync(file, 'utf8'));
    expect(results.map((r) => r.exchange.response.status).every((s) => s === 200)).toBe(true);
    const tests = results.flatMap((r) => r.tests);
    expect(tests.filter((t) => !t.passed)).toEqual([]);
    if (name.startsWith('jetbrains')) {
      expect(tests.length).toBe(3);
      expect(runner.globals.get('auth_token')).toBe('my-secret-token');
    } else if (name === 'vscode-chaining.http') {
      expect(lower(runner.requests.get('login')?.response?.headers)).toContainEqual(['x-authtoken', 'tok-42']);
      const last = results[results.length - 1]!.exchange.request;
      expect(last.url).toMatch(/\/hf\/comments\/7$/);
      expect(lower(last.headers)).toContainEqual(['authorization', 'tok-42']);
    } else {
      expect(results.length).toBe(10);
      expect(results[9]!.exchange.request.body).toEqual({ kind: 'text', text: 'name=foo&password=bar' });
    }
  });
});

// The JetBrains examples are written for httpbin: they run unchanged against Debian's httpbin too.
describe('jetbrains-examples.http against httpbin', () => {
  let hb: { url: string };
  let dir: string;
  beforeAll(async () => {
    hb = await sharedHttpbin();
    dir = copyFixtures(hb.url);
  }, 30_000);
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every request answers 200 and every handler test passes', async () => {
    const file = path.join(dir, 'jetbrains-examples.http');
    const runner = new HttpFileRunner({ file, env: loadEnvironment(file, 'test') });
    const results = await runner.sendAll(fs.readFileSync(file, 'utf8'));
    expect(results.map((r) => r.exchange.response.status)).toEqual(results.map(() => 200));
    const tests = results.flatMap((r) => r.tests);
    expect(tests.length).toBe(3);
    expect(tests.filter((t) => !t.passed)).toEqual([]);
    expect(runner.globals.get('auth_token')).toBe('my-secret-token');
    // httpbin echoes the multipart form: the file part arrived byte for byte.
    const form = JSON.parse(Buffer.from(results[4]!.exchange.response.body).toString('utf8'));
    expect(form.files.data).toBe(fs.readFileSync(path.join(dir, 'request-form-data.json'), 'utf8'));
    expect(form.form['element-name']).toBe('Name');
  });
});
