// Big bodies over JSON-RPC for a client that takes files (`bodyFileMin`, as sheet-mode sends):
// past 16 MiB (engine/src/session/spill.ts) the body is written to the body file as it arrives,
// UTF-8 JSON and XML re-indented on the way (the same text as below 16 MiB; issue 22), anything
// else or JSON (XML) that turns out not to be well-formed raw with the reason, and never held whole in the engine
// (a 100 MiB JSON body re-indented with the engine's peak memory far below it); a gzip bomb is decoded into the file chunk by chunk
// up to the 512 MiB cap, then fails cleanly with the file removed, the engine's peak memory
// (VmHWM) far below the body's size. docs/protocol.md, `bodyFileMin`.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node.js';
import { peakKb, spawnEngine, startApi, tempDir, type Api, type EngineProcess } from './helpers.js';
import { prettyJsonUtf8 } from '../../engine/src/present/json.js';
import { prettyXml } from '../../engine/src/present/xml.js';
import { LongestLine } from '../../engine/src/present/longest-line.js';

const MiB = 1024 * 1024;

describe('sheet/send spills big bodies to the body file as they arrive', () => {
  let api: Api;
  let engine: EngineProcess;
  let tmp: string;
  beforeAll(async () => {
    api = await startApi();
    tmp = tempDir('rpc-spill-');
    engine = spawnEngine({ env: { TMPDIR: tmp } });
    await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
  });
  afterAll(async () => {
    await engine.close();
    await api.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const send = (url: string, extra: Record<string, unknown> = {}): Promise<any> =>
    engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}${url}`, line: 1, bodyFileMin: 65536, ...extra });
  const take = (file: string): Buffer => {
    expect(path.dirname(path.dirname(file))).toBe(tmp);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const data = fs.readFileSync(file);
    fs.rmSync(path.dirname(file), { recursive: true });
    return data;
  };

  it('a 20 MiB JSON body: in the file re-indented as it arrived, the text json.ts gives, with its longest line', async () => {
    const raw = Buffer.from(await (await fetch(`${api.url}/big.json?kb=20480`)).arrayBuffer());
    const want = Buffer.from(prettyJsonUtf8(raw)!);
    const r = await send('/big.json?kb=20480');
    expect(r.presentation).toMatchObject({ kind: 'text', mode: 'json', fileEncoding: 'utf-8', charset: 'utf-8', formatted: true, overThreshold: true });
    expect(r.presentation.text).toBeUndefined();
    expect(r.presentation.unformatted).toBeUndefined();
    expect(r.response.bytes).toBe(raw.length);
    const lines = new LongestLine();
    lines.feed(want);
    expect(r.presentation.longestLine).toBe(lines.max);
    expect(take(r.presentation.file).equals(want)).toBe(true);
    // The raw copy kept while it might not be JSON is gone.
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('a 20 MiB body that stops being JSON at its end: raw in the file, the reason named', async () => {
    const raw = Buffer.from(await (await fetch(`${api.url}/stream/json?mb=20&broken=1`)).arrayBuffer());
    const r = await send('/stream/json?mb=20&broken=1');
    expect(r.presentation).toMatchObject({ kind: 'text', mode: 'json', formatted: false, longestLine: raw.toString('utf8').length });
    expect(r.presentation.unformatted).toBe(`not valid JSON at byte ${raw.length - 1}: unexpected "]"`);
    expect(take(r.presentation.file).equals(raw)).toBe(true);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('asked raw (C-c C-r), a 20 MiB JSON body is the bytes as received, no reason given', async () => {
    const raw = Buffer.from(await (await fetch(`${api.url}/big.json?kb=20480`)).arrayBuffer());
    const r = await send('/big.json?kb=20480', { raw: true });
    expect(r.presentation).toMatchObject({ kind: 'text', formatted: false });
    expect(r.presentation.unformatted).toBeUndefined();
    expect(take(r.presentation.file).equals(raw)).toBe(true);
  });

  it('a 20 MiB XML body: in the file pretty-printed as it arrived, the text xml.ts gives', async () => {
    const raw = Buffer.from(await (await fetch(`${api.url}/big.xml?kb=20480`)).arrayBuffer());
    const want = Buffer.from(prettyXml(raw.toString('utf8'))!);
    const r = await send('/big.xml?kb=20480');
    expect(r.presentation).toMatchObject({ kind: 'text', mode: 'xml', fileEncoding: 'utf-8', formatted: true, overThreshold: true });
    expect(r.presentation.unformatted).toBeUndefined();
    const lines = new LongestLine();
    lines.feed(want);
    expect(r.presentation.longestLine).toBe(lines.max);
    expect(take(r.presentation.file).equals(want)).toBe(true);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('a 20 MiB XML body that is not well-formed at its end: raw in the file, the reason named', async () => {
    const raw = Buffer.from(await (await fetch(`${api.url}/stream/xml?mb=20&broken=1`)).arrayBuffer());
    const r = await send('/stream/xml?mb=20&broken=1');
    expect(r.presentation).toMatchObject({ kind: 'text', mode: 'xml', formatted: false });
    expect(r.presentation.unformatted).toBe('not well-formed XML at line 3: </user> closes <users>');
    expect(take(r.presentation.file).equals(raw)).toBe(true);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('a small body that is not JSON says where it stops being JSON', async () => {
    const r = await send('/engine/not-json');
    expect(r.presentation).toMatchObject({ kind: 'text', formatted: false, unformatted: 'not valid JSON at byte 8: unexpected ","' });
  });

  it('a 5 MiB JSON body is still presented as before (pretty-printed, in the file)', async () => {
    const r = await send('/big.json?kb=5120');
    expect(r.presentation).toMatchObject({ kind: 'text', formatted: true, fileEncoding: 'utf-8' });
    take(r.presentation.file);
  });

  it('20 MiB + 1 of binary (every byte value): its bytes in the file, exactly', async () => {
    const n = 20 * MiB + 1;
    const want = Buffer.from(await (await fetch(`${api.url}/stream/bytes?n=${n}`)).arrayBuffer());
    const r = await send(`/stream/bytes?n=${n}`);
    expect(r.presentation).toMatchObject({ kind: 'binary', fileEncoding: 'binary', formatted: false });
    expect(r.presentation.base64).toBeUndefined();
    expect(r.response.bytes).toBe(n);
    expect(take(r.presentation.file).equals(want)).toBe(true);
  });

  it('a client without bodyFileMin gets the body inside the answer, as before', async () => {
    const r = await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/big.json?kb=20480`, line: 1 });
    expect((r as { presentation: { file?: string; text: string } }).presentation.file).toBeUndefined();
    expect((r as { presentation: { text: string } }).presentation.text.length).toBeGreaterThan(20 * MiB);
  });

  it('a 100 MiB JSON body is re-indented as it arrives in bounded memory', async () => {
    // A fresh engine: its peak is this body's alone.
    await engine.close();
    engine = spawnEngine({ env: { TMPDIR: tmp } });
    await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
    const before = peakKb(engine.proc.pid!);
    const r = await send('/stream/json?mb=100');
    const peak = peakKb(engine.proc.pid!);
    console.log(`100 MiB JSON re-indented while spilling: engine peak ${Math.round(peak / 1024)} MiB (before ${Math.round(before / 1024)} MiB)`);
    expect(r.response.bytes).toBeGreaterThan(100 * MiB);
    expect(r.presentation).toMatchObject({ kind: 'text', formatted: true });
    const size = fs.statSync(r.presentation.file).size;
    expect(size).toBeGreaterThan(r.response.bytes);
    // The first 16 MiB are held before the spill; after that only chunks.
    expect(peak).toBeLessThan(before + 128 * 1024);
    take(r.presentation.file);
  });

  // xml-formatter indents some 4 MB a second here: 96 MiB, with time to spare on a busy machine.
  it('a 96 MiB XML body is pretty-printed as it arrives in bounded memory', async () => {
    await engine.close();
    engine = spawnEngine({ env: { TMPDIR: tmp } });
    await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
    const before = peakKb(engine.proc.pid!);
    const r = await send('/stream/xml?mb=96');
    const peak = peakKb(engine.proc.pid!);
    console.log(`96 MiB XML pretty-printed while spilling: engine peak ${Math.round(peak / 1024)} MiB (before ${Math.round(before / 1024)} MiB)`);
    expect(r.response.bytes).toBeGreaterThan(96 * MiB);
    expect(r.presentation).toMatchObject({ kind: 'text', mode: 'xml', formatted: true });
    const file = take(r.presentation.file);
    expect(file.length).toBeGreaterThan(r.response.bytes);
    expect(file.subarray(0, 120).toString()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- generated -->\n<users count="many">\n  <user id="1" note="a>b">\n    <name>Ada L\u00f6velace \u65e5</name>\n'.slice(0, 120),
    );
    expect(file.subarray(-9).toString()).toBe('\n</users>');
    // The first 16 MiB are held before the spill, and the writes of those queue; held whole,
    // the body and its text alone would be 192 MiB.
    expect(peak).toBeLessThan(before + 160 * 1024);
  }, 180_000);

  it('a JSON body cancelled while it is re-indented into the file: both files removed', async () => {
    const source = new CancellationTokenSource();
    const p = engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/stream/json?mb=300`, line: 1, bodyFileMin: 65536 }, source.token).then(
      () => undefined,
      (err: unknown) => err,
    );
    // Past 16 MiB: the raw file and the re-indented one exist.
    for (let i = 0; i < 500 && fs.readdirSync(tmp).length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fs.readdirSync(tmp).length).toBe(2);
    source.cancel();
    expect(await p).toBeInstanceOf(ResponseError);
    for (let i = 0; i < 250 && fs.readdirSync(tmp).length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('a gzip bomb (1 GiB of zeros): decoded into the file up to the 512 MiB cap, then network-error, file removed, memory bounded', async () => {
    // A fresh engine: its peak is the bomb's alone.
    await engine.close();
    engine = spawnEngine({ env: { TMPDIR: tmp } });
    await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
    const before = peakKb(engine.proc.pid!);
    const e = await send('/stream/gzip-bomb?mb=1024').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ResponseError);
    expect((e as ResponseError<{ code: string }>).data).toMatchObject({ code: 'network-error' });
    expect((e as Error).message).toMatch(/larger than 536870912 bytes/);
    const peak = peakKb(engine.proc.pid!);
    console.log(`gzip bomb over JSON-RPC with bodyFileMin: engine peak ${Math.round(peak / 1024)} MiB (before ${Math.round(before / 1024)} MiB)`);
    // Before the spill the engine held the decoded body: 593 MiB for this bomb.
    expect(peak).toBeLessThan(256 * 1024);
    // The file it had begun is gone once the error is out.
    for (let i = 0; i < 250 && fs.readdirSync(tmp).length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(fs.readdirSync(tmp)).toEqual([]);
    const ok = await send('/small');
    expect(ok.response.status).toBe(200);
  });
});
