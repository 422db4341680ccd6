#!/usr/bin/env node
// 50 MB JSON and 50 MB XML responses through the engine as sheet-mode asks for them (issue 22,
// item 1): `sheet/send` over JSON-RPC with `bodyFileMin`, so past 16 MiB the body is written to
// a file as it arrives and pretty-printed on the way (present/json-stream.ts,
// present/xml-stream.ts). Measured per body, each in a fresh engine (engine/dist/engine.cjs,
// `make build-engine` first): the time from the request to the answer, and the engine's peak
// memory growth (VmHWM after minus before). The anchor, in the same run: the same body asked by
// a client that takes no files, so the engine holds it and formats it whole in memory
// (present/json.ts, xml.ts), as it does below 16 MiB. Target: the streamed growth does not
// depend on the body's size (far below the body) where the anchor's grows with it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { startServer } from '../fixtures/server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (...a) => process.stderr.write(a.join(' ') + '\n');
const peakKb = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

const api = await startServer();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bigbody-'));
const KB = 51200;
// XML at half the size too: the streamed growth does not follow the body's size.
const bodies = [
  ['JSON', `/big.json?kb=${KB}`],
  ['XML', `/big.xml?kb=${KB / 2}`],
  ['XML', `/big.xml?kb=${KB}`],
];
// The fixture builds its bodies on first use: not in anyone's time.
const sizes = {};
for (const [, url] of bodies) sizes[url] = (await (await fetch(api.url + url)).arrayBuffer()).byteLength;

/** One request in a fresh engine: ms to the answer, peak growth in bytes, formatted or why not. */
async function once(url, files) {
  const proc = spawn(process.execPath, [path.join(root, 'engine/dist/engine.cjs'), '--stdio'], {
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const conn = createMessageConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  conn.listen();
  await conn.sendRequest('initialize', { clientName: 'bench', lisp: false });
  const before = peakKb(proc.pid);
  const t = performance.now();
  const r = await conn.sendRequest('sheet/send', { text: `GET ${api.url}${url}`, line: 1, ...(files ? { bodyFileMin: 65536 } : {}) });
  const ms = performance.now() - t;
  const growth = (peakKb(proc.pid) - before) * 1024;
  const p = r.presentation;
  if (p.file) fs.rmSync(path.dirname(p.file), { recursive: true, force: true });
  conn.dispose();
  proc.kill();
  await new Promise((res) => proc.on('exit', res));
  return { ms, growth, formatted: p.formatted, why: p.unformatted };
}

const rows = [];
for (const [kind, url] of bodies) {
  const streamed = await once(url, true);
  log(`engine-bigbody: ${kind} streamed ${streamed.ms.toFixed(0)} ms, +${(streamed.growth / 2 ** 20).toFixed(0)} MiB, formatted ${streamed.formatted} ${streamed.why ?? ''}`);
  const whole = await once(url, false);
  log(`engine-bigbody: ${kind} in memory ${whole.ms.toFixed(0)} ms, +${(whole.growth / 2 ** 20).toFixed(0)} MiB, formatted ${whole.formatted}`);
  rows.push({ kind, url, streamed, whole });
}
await api.close();
fs.rmSync(tmp, { recursive: true, force: true });

const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
const cell = (x, size) => `${(x.ms / 1000).toFixed(2)} s, +${(x.growth / 2 ** 20).toFixed(0)} MiB (${(x.growth / size).toFixed(2)} x the body)${x.formatted ? '' : `, NOT formatted: ${x.why}`}`;
process.stdout.write(`## Engine: 50 MB JSON and XML responses pretty-printed as they arrive (issue 22)

\`sheet/send\` over JSON-RPC, the way sheet-mode asks (\`bodyFileMin\`): past 16 MiB the body is
written to a file as it arrives and pretty-printed on the way (JSON: json-stream.ts; XML:
xml-stream.ts cutting the document at element boundaries for xml-formatter). Anchor, in the same
run: the same body for a client that takes no files, held and formatted whole in memory as below
16 MiB (and sent inside the JSON-RPC answer). Each in a fresh engine; time from the request to
the answer, and the engine's peak memory growth (VmHWM); the example API's /big.json and
/big.xml on 127.0.0.1 (XML at two sizes). Target: the streamed growth bounded, the same for
25 MB and 50 MB (the 16 MiB held before the spill, its writes queued, the heap's slack), below
128 MiB and below a quarter of the anchor's.

| body | streamed into the file (sheet-mode) | anchor: held and formatted in memory | target |
|---|---|---|---|
${rows
  .map(({ kind, url, streamed, whole }) => {
    const size = sizes[url];
    const ok = streamed.formatted && streamed.growth < 128 * 2 ** 20 && streamed.growth < whole.growth / 4;
    return `| ${kind}, ${mb(size)} | ${cell(streamed, size)} | ${cell(whole, size)} | < 128 MiB and < 0.25 x anchor: ${ok ? 'met' : 'missed'} |`;
  })
  .join('\n')}
`);
