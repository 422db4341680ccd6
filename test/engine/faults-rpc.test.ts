// The fault server (test/fixtures/faults.mjs) through the engine over JSON-RPC (`sheet/send`):
// every network fault is a clear EngineError with a stable code (docs/errors.md) within a bounded
// time, the engine does not crash or hang and keeps serving. The gzip bomb is only required to
// stay bounded: the engine answers and its peak memory (VmHWM in /proc) stays under a bound.
// docs/reliability.md, "Fault server".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { peakKb, spawnEngine, startApi, type Api, type EngineProcess } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startFaults } from '../fixtures/faults.mjs';

interface Faults {
  url: string;
  tls: string | null;
  refused: string;
  close(): Promise<void>;
}

/** Generous bound on one faulty call (the per-request timeout is 3 s); a hang fails the test. */
const BOUND_MS = 15_000;
/** Generous bound on the engine's peak resident memory while it takes a 1 GiB gzip bomb. */
const MEMORY_BOUND_KB = 768 * 1024;

describe('fault server over JSON-RPC', () => {
  let faults: Faults;
  let api: Api;
  let engine: EngineProcess;

  beforeAll(async () => {
    faults = await startFaults();
    api = await startApi();
    engine = spawnEngine();
    await engine.conn.sendRequest('initialize', { clientName: 'faults', lisp: false, settings: { timeoutMs: 3000 } });
  });

  afterAll(async () => {
    await engine.close();
    await api.close();
    await faults.close();
  });

  /** Send `GET url`; the error's code (or 'answered'), and how long it took. */
  async function sendCode(url: string): Promise<{ code: string; ms: number; message: string; hint?: string }> {
    const t = Date.now();
    try {
      await engine.conn.sendRequest('sheet/send', { text: `GET ${url}`, line: 1 });
      return { code: 'answered', ms: Date.now() - t, message: '' };
    } catch (e) {
      expect(e).toBeInstanceOf(ResponseError);
      const data = (e as ResponseError<{ code: string; hint?: string }>).data;
      return { code: data?.code ?? 'none', ms: Date.now() - t, message: (e as Error).message, hint: data?.hint };
    }
  }

  const cases: [string, (f: Faults) => string, string][] = [
    ['connection refused', (f) => `${f.refused}/`, 'connection-refused'],
    ['reset mid-body', (f) => `${f.url}/reset`, 'network-error'],
    ['slow headers', (f) => `${f.url}/slow-headers`, 'timeout'],
    ['short body', (f) => `${f.url}/short`, 'network-error'],
    ['chunk garbage', (f) => `${f.url}/chunk-garbage`, 'network-error'],
    ['redirect loop', (f) => `${f.url}/redirect-loop`, 'too-many-redirects'],
    ['redirect to file://', (f) => `${f.url}/redirect-file`, 'network-error'],
  ];

  for (const [name, url, code] of cases) {
    it(`${name}: ${code}, named URL, bounded time, engine still serves`, async () => {
      const r = await sendCode(url(faults));
      console.log(`${name}: ${r.code} in ${r.ms} ms: ${r.message}`);
      expect(r.code).toBe(code);
      expect(r.message).toContain('127.0.0.1');
      expect(r.ms).toBeLessThan(BOUND_MS);
      const ok = (await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/small`, line: 1 })) as { response: { status: number } };
      expect(ok.response.status).toBe(200);
    });
  }

  it('close-delimited bodies (empty 404, 4 MiB, 1,000 interim 102s) beside a call in flight: all answered, the engine lives', async () => {
    // The healthy call, in flight while the hostile ones go through the same engine.
    const healthy = engine.conn.sendRequest('sheet/send', { text: `GET ${faults.url}/slow-ok`, line: 1 }) as Promise<{ response: { status: number } }>;
    for (let round = 0; round < 5; round++) {
      const r = (await Promise.all(['empty-close', 'close-body', '1xx-storm'].map((p) => engine.conn.sendRequest('sheet/send', { text: `GET ${faults.url}/${p}`, line: 1 })))) as { response: { status: number; bytes: number } }[];
      expect(r.map((x) => x.response.status)).toEqual([404, 200, 200]);
      expect(r[1]!.response.bytes).toBe(4 * 1024 * 1024);
    }
    expect((await healthy).response.status).toBe(200);
    expect(engine.proc.exitCode).toBeNull();
    expect(engine.stderr()).not.toMatch(/internal error|AssertionError/);
  });

  it('a TLS handshake nobody answers ends at the request timeout (3 s), not at undici\'s 10 s connect limit', async () => {
    // The plain fault port reads a request head that a TLS ClientHello never completes.
    const r = await sendCode(`${faults.url.replace('http:', 'https:')}/ok`);
    expect(r.code).toBe('timeout');
    expect(r.ms).toBeLessThan(6000);
  });

  it('a cookie jar path that is a directory: settings accepted, the request goes out with a cookie-jar-unreadable warning once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jar-dir-'));
    try {
      await engine.conn.sendRequest('settings/set', { cookieJarFile: dir });
      const send = () => engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/small`, line: 1 }) as Promise<{ response: { status: number }; hooks: { warnings: { code: string; message: string }[] } }>;
      const first = await send();
      expect(first.response.status).toBe(200);
      expect(first.hooks.warnings.map((w) => w.code)).toEqual(['cookie-jar-unreadable']);
      expect(first.hooks.warnings[0]!.message).toContain(dir);
      const second = await send();
      expect(second.response.status).toBe(200);
      expect(second.hooks.warnings).toEqual([]);
    } finally {
      await engine.conn.sendRequest('settings/set', { cookieJarFile: null });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('self-signed TLS: tls-error with a hint, bounded time', async () => {
    expect(faults.tls, 'openssl made the throwaway certificate').not.toBeNull();
    const r = await sendCode(`${faults.tls}/ok`);
    expect(r.code).toBe('tls-error');
    expect(r.hint).toBeTruthy();
    expect(r.ms).toBeLessThan(BOUND_MS);
  });

  it('gzip bomb: the engine answers, stays under the memory bound and keeps serving', async () => {
    const r = await sendCode(`${faults.url}/gzip-bomb`);
    console.log(`gzip bomb: ${r.code} in ${r.ms} ms, engine peak ${Math.round(peakKb(engine.proc.pid!) / 1024)} MiB`);
    expect(r.ms).toBeLessThan(BOUND_MS);
    expect(['answered', 'network-error', 'timeout']).toContain(r.code);
    expect(engine.proc.exitCode).toBeNull();
    expect(peakKb(engine.proc.pid!)).toBeLessThan(MEMORY_BOUND_KB);
    const ok = (await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/small`, line: 1 })) as { response: { status: number } };
    expect(ok.response.status).toBe(200);
  });

  it('ten faults at once: every one answered, the engine still serves', async () => {
    const urls = [`${faults.refused}/`, ...['reset', 'short', 'chunk-garbage', 'redirect-loop', 'slow-headers'].map((p) => `${faults.url}/${p}`)];
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => sendCode(urls[i % urls.length]!)));
    expect(all.map((r) => r.code).filter((c) => !['connection-refused', 'network-error', 'too-many-redirects', 'timeout'].includes(c))).toEqual([]);
    const ok = (await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/small`, line: 1 })) as { response: { status: number } };
    expect(ok.response.status).toBe(200);
    expect(engine.stderr()).not.toMatch(/internal-error|TypeError|RangeError/);
  });
});
