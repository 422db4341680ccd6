// The stdio server at the byte level: `node engine/dist/engine.cjs --stdio` spoken to with
// hand-made Content-Length frames, and every answer read as the raw JSON text it is (issue 11
// items 4 and 5, issue 9 item 5):
// - a frame that is not JSON (a raw NUL inside a string, JSON cut short) gets -32700 Parse
//   error with id null, JSON that is not a message gets -32600, the engine logs what it dropped
//   on stderr and keeps serving;
// - no answer holds a string Emacs 28's json-parse-string rejects ("\u0000", lone surrogates),
//   whatever the body: text with NUL, invalid UTF-8, Latin-1 bytes, every byte value;
// - bytes are never replaced by U+FFFD: a body not valid in its charset comes back as its bytes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_BUNDLE, root, startApi, type Api } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { ALL_BYTES, BAD_UTF8, LATIN1_7, TEXT_NUL } from '../fixtures/routes/bytes.mjs';

/** The engine on a real pipe, with frames written and read by hand. */
class RawEngine {
  readonly proc: ChildProcessWithoutNullStreams;
  private buf = Buffer.alloc(0);
  private waiting: ((raw: string) => void)[] = [];
  private queue: string[] = [];
  stderr = '';
  private nextId = 1000;

  constructor() {
    this.proc = spawn(process.execPath, [ENGINE_BUNDLE, '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (d: string) => (this.stderr += d));
    this.proc.stdout.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      for (;;) {
        const end = this.buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const m = /Content-Length: (\d+)/i.exec(this.buf.subarray(0, end).toString('ascii'));
        const len = Number(m![1]);
        if (this.buf.length < end + 4 + len) return;
        const raw = this.buf.subarray(end + 4, end + 4 + len).toString('utf8');
        this.buf = this.buf.subarray(end + 4 + len);
        const w = this.waiting.shift();
        if (w) w(raw);
        else this.queue.push(raw);
      }
    });
  }

  /** Write one frame whose body is `body` (bytes as given), with a matching Content-Length. */
  frame(body: Buffer | string): void {
    const b = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
    this.proc.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`, 'ascii'), b]));
  }

  /** The next message from the engine, as the raw JSON text of its frame. */
  next(): Promise<string> {
    const q = this.queue.shift();
    if (q !== undefined) return Promise.resolve(q);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Send a request and wait for its answer (raw text and parsed). */
  async request(method: string, params: unknown): Promise<{ raw: string; msg: { id: number; result?: any; error?: any } }> {
    const id = this.nextId++;
    this.frame(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    for (;;) {
      const raw = await this.next();
      const msg = JSON.parse(raw);
      if (msg.id === id) return { raw, msg };
    }
  }

  async close(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.proc.on('exit', (c) => resolve(c)));
    await this.request('shutdown', null);
    this.frame(JSON.stringify({ jsonrpc: '2.0', method: 'exit' }));
    return exited;
  }
}

/** What Emacs 28's json-parse-string refuses inside a JSON string (checked on the raw text). */
const EMACS_UNREADABLE = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

let api: Api;
let engine: RawEngine;
beforeAll(async () => {
  api = await startApi();
  engine = new RawEngine();
  const init = await engine.request('initialize', { clientName: 'test', lisp: false });
  expect(init.msg.result).toMatchObject({ serverName: 'sheet-engine' });
});
afterAll(async () => {
  expect(await engine.close()).toBe(0);
  await api.close();
});

/** The engine still answers a good request. */
async function stillServing(): Promise<void> {
  const r = await engine.request('sheet/outline', { text: 'GET http://h/a' });
  expect(r.msg.result.requests).toHaveLength(1);
}

describe('malformed frames get a JSON-RPC error, are logged, and the engine keeps serving', () => {
  const nul = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":7,"method":"sheet/outline","params":{"text":"GET http://h/'), Buffer.from([0]), Buffer.from('"}}')]);
  it.each([
    ['a raw NUL inside a JSON string', nul, -32700, null, /Parse error: .*control character/i],
    ['truncated JSON', Buffer.from('{"jsonrpc":"2.0","id":8,"method":"sheet/outline","params":{"te'), -32700, null, /Parse error/],
    ['not JSON at all', Buffer.from('hello'), -32700, null, /Parse error/],
    ['an empty body', Buffer.from(''), -32700, null, /Parse error/],
    ['a JSON array (a batch)', Buffer.from('[{"jsonrpc":"2.0","id":9,"method":"shutdown"}]'), -32600, null, /Invalid Request: batches/],
    ['a JSON number', Buffer.from('42'), -32600, null, /Invalid Request/],
    ['an object that is no message', Buffer.from('{"jsonrpc":"2.0","id":10}'), -32600, 10, /Invalid Request: neither/],
    ['a method that is not a string', Buffer.from('{"jsonrpc":"2.0","id":"x","method":5}'), -32600, 'x', /Invalid Request: method/],
    ['an id that is an object', Buffer.from('{"jsonrpc":"2.0","id":{},"method":"sheet/outline","params":{"text":""}}'), -32600, null, /Invalid Request: id/],
    ['params that are a string', Buffer.from('{"jsonrpc":"2.0","id":11,"method":"sheet/outline","params":"GET"}'), -32600, 11, /Invalid Request: params/],
  ])('%s', async (_, body, code, id, message) => {
    const before = engine.stderr.length;
    engine.frame(body);
    const raw = await engine.next();
    expect(JSON.parse(raw)).toEqual({ jsonrpc: '2.0', id, error: { code, message: expect.stringMatching(message) } });
    await stillServing();
    expect(engine.stderr.slice(before)).toMatch(new RegExp(`engine: dropped a frame \\(${body.length} bytes.*answered ${code}`));
  });

  it('a header without Content-Length is a Parse error; the next frame is read', async () => {
    const before = engine.stderr.length;
    engine.proc.stdin.write('Content-Type: application/json\r\n\r\n');
    const raw = await engine.next();
    expect(JSON.parse(raw)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/Content-Length/) } });
    await stillServing();
    expect(engine.stderr.slice(before)).toMatch(/engine: dropped a frame .*Content-Length/);
  });

  it('a frame shorter than its Content-Length: that frame is a Parse error, every later frame is read as sent', async () => {
    const before = engine.stderr.length;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'sheet/outline', params: { text: 'GET http://h/short' } });
    // The header says 20 bytes; the whole body follows, its tail in front of the next header.
    engine.proc.stdin.write(`Content-Length: 20\r\n\r\n${body}`);
    expect(JSON.parse(await engine.next()).error.code).toBe(-32700);
    for (let i = 0; i < 3; i++) await stillServing();
    expect(engine.stderr.slice(before)).toMatch(/dropped \d+ bytes in front of a frame header/);
  });

  it.each([
    ['initialize without params', 'initialize', null],
    ['settings/set with a string', 'settings/set', ['x']],
    ['settings/set with a bad type', 'settings/set', { maxPasses: 'ten' }],
    ['settings/set with a negative timeout', 'settings/set', { timeoutMs: -1 }],
    ['sheet/setVar without params', 'sheet/setVar', null],
    ['sheet/setVar without a value', 'sheet/setVar', { name: ':a' }],
    ['sheet/send with settings that are a number', 'sheet/send', { text: 'GET http://h/', line: 1, settings: 3 }],
  ])('malformed params (%s) are bad-argument, never internal-error', async (_, method, params) => {
    const r = await engine.request(method, params);
    if (method === 'initialize') {
      expect(r.msg.result).toMatchObject({ serverName: 'sheet-engine' });
      return;
    }
    expect(r.msg.error).toMatchObject({ code: -32001, data: { code: 'bad-argument' } });
  });
});

describe('bodies: bytes kept, and every answer readable by Emacs 28', () => {
  const send = (path: string, extra: Record<string, unknown> = {}) => engine.request('sheet/send', { text: `GET ${api.url}${path}`, line: 1, ...extra });
  const bytesOf = (p: { base64?: string; file?: string }) => (p.file ? fs.readFileSync(p.file) : Buffer.from(p.base64!, 'base64'));

  it.each([
    ['7 Latin-1 bytes as application/octet-stream', '/bytes/latin1-octet', LATIN1_7, 'application/octet-stream'],
    ['Latin-1 bytes as text/plain without a charset (not UTF-8)', '/bytes/latin1-text', LATIN1_7, 'text/plain'],
    ['invalid UTF-8 under charset=utf-8', '/bytes/bad-utf8', BAD_UTF8, 'text/plain'],
    ['invalid UTF-8 JSON', '/bytes/bad-utf8-json', undefined, 'application/json'],
    ['every byte value', '/bytes/all', ALL_BYTES, 'application/octet-stream'],
  ])('%s: kind binary with the exact bytes, raw or not, never U+FFFD', async (_, path, expected, contentType) => {
    for (const raw of [false, true]) {
      const r = await send(path, { raw });
      expect(r.raw).not.toMatch(EMACS_UNREADABLE);
      const p = r.msg.result.presentation;
      expect(p).toMatchObject({ kind: 'binary', contentType });
      expect(p.text).toBeUndefined();
      const bytes = bytesOf(p);
      expect(bytes.length).toBe(r.msg.result.response.bytes);
      if (expected) expect(bytes.equals(expected)).toBe(true);
      expect(r.raw).not.toContain('\ufffd');
    }
  });

  it('Latin-1 bytes with their charset declared are text, decoded by it', async () => {
    const r = await send('/bytes/latin1-declared');
    expect(r.msg.result.presentation).toMatchObject({ kind: 'text', text: 'caf\u00e9 \u00e0b', charset: 'ISO-8859-1' });
  });

  it('text holding NUL goes in the body file whatever its size (bodyFileMin given), exactly', async () => {
    const r = await send('/bytes/text-nul', { bodyFileMin: 65536 });
    expect(r.raw).not.toMatch(EMACS_UNREADABLE);
    const p = r.msg.result.presentation;
    expect(p).toMatchObject({ kind: 'text', fileEncoding: 'utf-8', charset: 'utf-8' });
    expect(fs.readFileSync(p.file, 'utf8')).toBe(TEXT_NUL);
    fs.rmSync(p.file.replace(/\/body$/, ''), { recursive: true, force: true });
  });

  it('text holding NUL for a client that takes no files comes as its bytes (kind binary)', async () => {
    const r = await send('/bytes/text-nul');
    expect(r.raw).not.toMatch(EMACS_UNREADABLE);
    expect(r.msg.result.presentation).toMatchObject({ kind: 'binary', mode: 'text' });
    expect(bytesOf(r.msg.result.presentation).toString('utf8')).toBe(TEXT_NUL);
  });

  it('a request body holding NUL is echoed as base64, exactly', async () => {
    const r = await engine.request('sheet/send', { text: `POST ${api.url}/echo\n\na\u0000b`, line: 1 });
    expect(r.raw).not.toMatch(EMACS_UNREADABLE);
    expect(r.msg.result.request.body).toEqual({ encoding: 'base64', data: Buffer.from('a\u0000b').toString('base64') });
    expect(JSON.parse(r.msg.result.presentation.text).bodyBase64).toBe(Buffer.from('a\u0000b').toString('base64'));
  });

  it('a jq value holding NUL is stored exactly; the answer shows it as U+2400, logged', async () => {
    const before = engine.stderr.length;
    const r = await engine.request('sheet/send', { text: `GET ${api.url}/bytes/json-nul-escape\n-> jq-set-var :v .v`, line: 1 });
    expect(r.raw).not.toMatch(EMACS_UNREADABLE);
    expect(r.msg.result.hooks.setVars).toEqual([{ name: ':v', value: 'a\u2400b' }]);
    expect(r.msg.result.presentation.text).toContain('"a\\u0000b"');
    expect(engine.stderr.slice(before)).toMatch(/NUL or a lone surrogate/);
    // The override itself holds the NUL: sent in a body, it arrives as the byte 0.
    const echo = await engine.request('sheet/send', { text: `POST ${api.url}/echo\n\n:v`, line: 1 });
    expect(Buffer.from(JSON.parse(echo.msg.result.presentation.text).bodyBase64, 'base64')).toEqual(Buffer.from('a\u0000b'));
  });
});

describe('substitution warnings over JSON-RPC', () => {
  it('a cycle is sent as written, with a vars-cycle warning and its line', async () => {
    const text = [`:base = ${api.url}`, ':a = :a', 'GET :base/echo/:a'].join('\n');
    const r = await engine.request('sheet/send', { text, line: 3 });
    expect(JSON.parse(r.msg.result.presentation.text).path).toBe('/echo/:a');
    expect(r.msg.result.hooks.warnings).toEqual([{ line: 3, code: 'vars-cycle', message: 'line 3: :a refers to itself; sent as ":a"' }]);
  });

  it('maxPasses 1 keeps a literal :token in the body (restclient.el), named in vars-unresolved', async () => {
    const text = [`:base = ${api.url}`, ':token = abc', ':body = {"t": ":token"}', 'POST :base/echo', '', ':body'].join('\n');
    const r = await engine.request('sheet/send', { text, line: 4, settings: { maxPasses: 1 } });
    expect(JSON.parse(r.msg.result.presentation.text).body).toBe('{"t": ":token"}');
    expect(r.msg.result.hooks.warnings).toEqual([{ line: 6, code: 'vars-unresolved', message: expect.stringMatching(/^line 6: :token is still unsubstituted after 1 substitution pass .*; sent as ":token"$/) }]);
    const v = await engine.request('sheet/variables', { text, line: 4, settings: { maxPasses: 1 } });
    expect(v.msg.result.variables).toContainEqual(expect.objectContaining({ name: ':body', value: '{"t": "abc"}' }));
    const v0 = await engine.request('sheet/variables', { text, line: 4, settings: { maxPasses: 0 } });
    expect(v0.msg.result.variables).toContainEqual(expect.objectContaining({ name: ':body', value: '{"t": ":token"}', warning: expect.stringMatching(/:token is still unsubstituted after 0/) }));
  });

  it('a doubling value is vars-too-large with its line, not internal-error', async () => {
    const r = await engine.request('sheet/send', { text: ':a = :a:a:a:a\nGET http://127.0.0.1:1/:a', line: 2, settings: { maxPasses: 100 } });
    expect(r.msg.error).toMatchObject({ code: -32001, data: { code: 'vars-too-large', line: 2 } });
  });
});
