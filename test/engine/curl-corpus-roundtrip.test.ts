// Issue 27: the Emacs round trip on a sample of the curl corpus (./curl-wire.ts): each command
// imported as sheet-yank-curl does (`sheet/fromCurl` over the engine's stdio pipe), exported
// back as C-c C-u does (`sheet/curl`), and the exported command run in bash; it must send what
// the original curl command sends to the same raw capture server. The sample is the commands
// the import takes without a difference (exit 0), every third of them; `:=` variables (shell
// variables read from the environment) are evaluated by a real batch Emacs, as in sheet-mode.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { cutShellTail } from '../../engine/src/curl/shell-tail.js';
import { spawnEngine, type EngineProcess } from './helpers.js';
import { compare, CORPUS_DIR, readCorpus, rewriteHost, wireBench } from './curl-wire.js';

const run = promisify(execFile);
/** Values for the variables the corpus's commands expect set, as ./curl-corpus.test.ts sets them. */
let env: NodeJS.ProcessEnv = {};
let engine: EngineProcess;
let bench: Awaited<ReturnType<typeof wireBench>>;
beforeAll(async () => {
  const files = Object.fromEntries(fs.readdirSync(CORPUS_DIR).filter((f) => f !== 'commands.txt').map((f) => [f, fs.readFileSync(path.join(CORPUS_DIR, f), 'utf8')]));
  bench = await wireBench(files);
  env = { HOST: bench.base.replace('http://', ''), LOKI_URL: bench.base, ES_URL: bench.base, OPENAI_API_KEY: 'sk-test', PORTKEY_API_KEY: 'pk-test', PORTKEY_PROVIDER_VIRTUAL_KEY: 'vk-test', SUPABASE_KEY: 'anon-key' };
  engine = spawnEngine({ env });
  // `:=` forms (shell variables read from the environment) are evaluated by a real batch Emacs,
  // as sheet-mode evaluates them in its buffer.
  engine.conn.onRequest('lisp/eval', async (p: { form: string }) => {
    const { stdout } = await run('emacs', ['--batch', '-Q', '--eval', `(princ (format "%s" ${p.form}))`], { env: { ...process.env, ...env } });
    return { value: stdout };
  });
  await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: true });
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
    const fromCurl = await bench.viaBash(cutShellTail(command.trim()).command.replace(/^\$\s+/, ''), env);
    const { text } = (await engine.conn.sendRequest('sheet/fromCurl', { command })) as { text: string };
    const exported = (await engine.conn.sendRequest('sheet/curl', { text, line: 1, path: path.join(bench.dir, 'x.sheet') })) as { command: string };
    const fromExport = await bench.viaBash(exported.command, env);
    expect(compare(fromCurl, fromExport)).toEqual([]);
  });
});
