// Parser fuzz over JSON-RPC (issue 11, "A probe of our own"): a fixed seed, a few thousand
// sheets mutated from a corpus of restclient.el syntax (tokens inserted, text deleted, lines
// duplicated and swapped, arbitrary characters including NUL, CR and lone surrogates), each
// sent to the real engine over stdio as sheet-mode would: sheet/outline, then sheet/variables,
// sheet/curl and, when the request goes to the example API on 127.0.0.1, sheet/send. Every call
// must be answered (within a time limit) with a result or a coded engine error, never
// `internal-error`. The numbers go into docs/reliability.md ("Parser fuzz over JSON-RPC").
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { spawnEngine, startApi, tempDir, type Api, type EngineProcess } from './helpers.js';

/** Fixed seed and number of sheets: the same sheets on every run. */
const SEED = 20261123;
const SHEETS = 3000;
/** One call that takes longer than this counts as "the engine did not answer". */
const CALL_LIMIT_MS = 10_000;

const corpus = (base: string) => [
  `:base = ${base}\n:id = 1\n# users\nGET :base/users/:id\nAccept: application/json\n`,
  `:base = ${base}\n:body = <<\n{\n  "name": ":name",\n  "id": :id\n}\n#\n:name = Ada\n:id = 7\nPOST :base/echo\nContent-Type: application/json\n\n:body\n`,
  `:base = ${base}\n:hs = <<\nAccept: text/plain\nX-Id: :id\n#\n:id = 3\nGET :base/echo/h\n:hs\nX-More: 1\n`,
  `:base = ${base}\nPOST :base/login\n-> jq-set-var :token .token\n-> run-hook (message "hi %s"\n   (sheet-get-var ":token"))\nContent-Type: application/json\n\n{"user": "ada", "password": "secret"}\n#\nGET :base/me\nAuthorization: Bearer :token\n`,
  `:base = ${base}\n:t := (format-time-string "%s")\n:n := <<\n(+ 1\n   2)\n#\nGET :base/echo/:t/:n\n`,
  `:base = ${base}\n:a = :b\n:b = :a\n:c = x:c\nGET :base/echo/:a/:c\n`,
  `:base = ${base}\n:dir = .\nPUT :base/echo/file\nContent-Type: application/octet-stream\n\n< :dir/body.json\nignored line\n`,
  `# comment\n:base = ${base}\nGET :base/engine/json-exact\n#\nDELETE :base/echo/1?x=1&y=caf\u00e9\n#\nHEAD :base/users\n`,
  `:base = ${base}\n:q = a b\nGET :base/echo?q=:q&r=\u65e5\u672c\n-> jq-set-var :p .path\n-> nope x\n#\nGET :base/echo/:p\n`,
];

const tokens = [
  '\n', '\r\n', '#', '# ', ':', '=', ' = ', ':=', '<<', '< ', '-> ', 'jq-set-var ', 'run-hook ', '(', ')', '"', '{', '}',
  ' ', '\t', ':a', ':b', ':base', ':id', 'GET ', 'POST ', 'get ', 'FETCH ', 'http://', 'https://', '?', '&', '%', '%zz',
  'Content-Type: ', ':a = :a', ':a = :b\n:b = :a', ':x := (+ 1 2)', ':x := (error "boom")', '\\', '\u0000', '\u00e9',
  '\u{1f600}', '\ud800', '\udc00', '\u2028', '\ufeff', '..', '~/', '<<\n', '\n#\n', '@', "'", '[', ']',
];

type Mutation =
  | { kind: 'insert'; at: number; token: string }
  | { kind: 'delete'; at: number; len: number }
  | { kind: 'dupLine'; at: number }
  | { kind: 'swapLines'; a: number; b: number }
  | { kind: 'chars'; at: number; text: string };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token: fc.constantFrom(...tokens) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 24 }) }),
  fc.record({ kind: fc.constant('dupLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('chars' as const), at: fc.nat(), text: fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }) }),
);

function mutate(text: string, m: Mutation): string {
  const at = (n: number) => n % (text.length + 1);
  const lines = () => text.split('\n');
  switch (m.kind) {
    case 'insert':
      return text.slice(0, at(m.at)) + m.token + text.slice(at(m.at));
    case 'chars':
      return text.slice(0, at(m.at)) + m.text + text.slice(at(m.at));
    case 'delete':
      return text.slice(0, at(m.at)) + text.slice(at(m.at) + m.len);
    case 'dupLine': {
      const l = lines();
      const i = m.at % l.length;
      l.splice(i, 0, l[i]!);
      return l.join('\n');
    }
    case 'swapLines': {
      const l = lines();
      const a = m.a % l.length;
      const b = m.b % l.length;
      [l[a], l[b]] = [l[b]!, l[a]!];
      return l.join('\n');
    }
  }
}

const caseArb = fc.record({
  seed: fc.nat(),
  mutations: fc.array(mutationArb, { minLength: 1, maxLength: 6 }),
  line: fc.nat(),
  raw: fc.boolean(),
});

interface Outcome {
  sheet: string;
  method: string;
  problem: string;
}

let api: Api;
let engine: EngineProcess;
let dir: string;
beforeAll(async () => {
  api = await startApi();
  dir = tempDir('rpc-fuzz-');
  fs.writeFileSync(path.join(dir, 'body.json'), '{"file": true}\n');
  engine = spawnEngine();
  // Lisp answers depend only on the form, so sheet/curl and sheet/send see the same values.
  engine.conn.onRequest('lisp/eval', (p: { form: string }) => {
    if (p.form.includes('error') || p.form.length % 7 === 0) return new ResponseError(-32000, `(error "${p.form.length}")`);
    return { value: p.form.length % 3 === 0 ? `:id${p.form.length}` : String(p.form.length) };
  });
  await engine.conn.sendRequest('initialize', { clientName: 'fuzz', lisp: true, settings: { timeoutMs: 2000 } });
});
afterAll(async () => {
  expect(await engine.close()).toBe(0);
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A call's answer, or what went wrong: no answer in time, internal-error, a non-engine error. */
async function call(method: string, params: unknown): Promise<{ result?: any; problem?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CALL_LIMIT_MS} ms`)), CALL_LIMIT_MS);
  });
  try {
    return { result: await Promise.race([engine.conn.sendRequest(method, params), late]) };
  } catch (e) {
    if (e instanceof ResponseError && e.code === -32001 && e.data?.code && e.data.code !== 'internal-error') return {};
    return { problem: e instanceof ResponseError ? `${e.code} ${e.data?.code ?? ''}: ${e.message}` : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

describe('parser fuzz over JSON-RPC', () => {
  it(`${SHEETS} mutated sheets (seed ${SEED}): every call answered, no internal-error`, async () => {
    const seeds = corpus(api.url);
    const cases = fc.sample(caseArb, { seed: SEED, numRuns: SHEETS });
    const local = `${api.url}/`;
    const failures: Outcome[] = [];
    let survived = 0;
    let calls = 0;
    let sends = 0;
    const started = Date.now();
    for (const c of cases) {
      const text = c.mutations.reduce(mutate, seeds[c.seed % seeds.length]!);
      const lineCount = text.split('\n').length;
      const line = 1 + (c.line % lineCount);
      const params = { text, line, path: path.join(dir, 'fuzz.sheet') };
      const before = failures.length;
      const check = async (method: string, p: unknown) => {
        calls++;
        const r = await call(method, p);
        if (r.problem) failures.push({ sheet: text, method, problem: r.problem });
        return r.result;
      };
      await check('sheet/outline', { text });
      await check('sheet/variables', params);
      const curl = (await check('sheet/curl', params)) as { command: string } | undefined;
      // Only requests to the example API are sent (127.0.0.1, its port): the URL is curl's last word.
      const url = curl ? /'?(https?:\/\/[^' ]*)'?$/.exec(curl.command)?.[1] : undefined;
      if (url?.startsWith(local)) {
        sends++;
        await check('sheet/send', { ...params, raw: c.raw });
      }
      if (failures.length === before) survived++;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(`parser fuzz: ${SHEETS} sheets tried, ${survived} survived; ${calls} calls (${sends} sheet/send) in ${seconds} s\n`);
    expect(failures.slice(0, 5)).toEqual([]);
    expect(survived).toBe(SHEETS);
    expect(engine.proc.exitCode).toBeNull();
  }, 240_000);
});
