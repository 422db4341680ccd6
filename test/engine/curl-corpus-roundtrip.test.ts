// Issue 27: the Emacs round trip on a sample of the curl corpus (./curl-wire.ts): each command
// imported as sheet-yank-curl does (`sheet/fromCurl` over the engine's stdio pipe), exported
// back as C-c C-u does (`sheet/curl`), and the exported command run in bash; it must send what
// the original curl command sends to the same raw capture server. The sample is the commands
// the import takes without a difference (exit 0), every third of them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { cutShellTail } from '../../engine/src/curl/shell-tail.js';
import { spawnEngine, type EngineProcess } from './helpers.js';
import { compare, CORPUS_DIR, readCorpus, rewriteHost, wireBench } from './curl-wire.js';

let engine: EngineProcess;
let bench: Awaited<ReturnType<typeof wireBench>>;
beforeAll(async () => {
  const files = Object.fromEntries(fs.readdirSync(CORPUS_DIR).filter((f) => f !== 'commands.txt').map((f) => [f, fs.readFileSync(path.join(CORPUS_DIR, f), 'utf8')]));
  bench = await wireBench(files);
  engine = spawnEngine();
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
});
afterAll(async () => {
  await engine.close();
  await bench.close();
});

const exact = readCorpus().filter((c) => {
  try {
    return !curlToSheet(c.command).warnings.some((w) => w.differs);
  } catch {
    return false;
  }
});
const sample = exact.filter((_, i) => i % 3 === 0);

describe('C-c C-y then C-c C-u on the curl corpus', () => {
  it('samples at least 15 commands', () => expect(sample.length).toBeGreaterThanOrEqual(15));

  it.each(sample.map((c) => [c.command.split('\n')[0]!, c.command]))('%s', async (_, original) => {
    const command = rewriteHost(original, bench.base);
    const fromCurl = await bench.viaBash(cutShellTail(command.trim()).command.replace(/^\$\s+/, ''));
    const { text } = (await engine.conn.sendRequest('sheet/fromCurl', { command })) as { text: string };
    const exported = (await engine.conn.sendRequest('sheet/curl', { text, line: 1, path: path.join(bench.dir, 'x.sheet') })) as { command: string };
    const fromExport = await bench.viaBash(exported.command);
    expect(compare(fromCurl, fromExport)).toEqual([]);
  });
});
