// JetBrains response handlers (engine/src/http-file/handlers.ts): the client/response API, and
// the sandbox: no require, no process, no file system or network, a time limit.
import { describe, expect, it } from 'vitest';
import { runHandlerScript, runHandlers } from '../../engine/src/http-file/handlers.js';
import { parseForFile, syntaxFor } from '../../engine/src/http-file/index.js';
import { tempDir } from './helpers.js';

const res = { status: 201, headers: [['Content-Type', 'application/json'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']] as [string, string][], body: '{"token":"t1","items":[1,2]}' };
const run = (src: string, globals = new Map<string, string>()) => runHandlerScript(src, 10, res, globals, 500);

describe('response handler API', () => {
  it.each([
    ['status and parsed JSON body', 'client.test("s", () => client.assert(response.status === 201 && response.body.items[1] === 2, "bad"));', true],
    ['headers.valueOf is case-insensitive', 'client.test("h", () => client.assert(response.headers.valueOf("content-type") === "application/json"));', true],
    ['headers.valuesOf', 'client.test("v", () => client.assert(response.headers.valuesOf("set-cookie").join() === "a=1,b=2"));', true],
    ['contentType.mimeType', 'client.test("m", () => client.assert(response.contentType.mimeType === "application/json"));', true],
    ['a failed assert names its message', 'client.test("f", () => client.assert(response.status === 200, "status is " + response.status));', false],
  ])('%s', async (_, src, passed) => {
    const r = await run(src);
    expect(r.tests).toHaveLength(1);
    expect(r.tests[0]!.passed).toBe(passed);
    if (!passed) expect(r.tests[0]).toMatchObject({ message: 'status is 201', line: 10 });
  });

  it('client.global set/get/clear carry over, values as strings', async () => {
    const r = await run('client.global.set("token", response.body.token); client.global.set("n", 5); client.global.clear("old"); client.log("got", client.global.get("token"));', new Map([['old', 'x']]));
    expect([...r.globals]).toEqual([['token', 't1'], ['n', '5']]);
    expect(r.cleared).toEqual(['old']);
    expect(r.logs).toEqual(['got t1']);
  });

  it('a top-level return ends the script without failing (kulala.nvim docs/static/import/demos/5.script.http)', async () => {
    const r = await run('const results = client.global.get("results");\nif (!results) { return; }\nclient.test("never", () => {});');
    expect(r.tests).toEqual([]);
  });

  it('client.exit() stops the script without failing', async () => {
    const r = await run('client.test("a", () => {}); client.exit(); client.test("b", () => {});');
    expect(r.tests.map((t) => t.name)).toEqual(['a']);
  });

  it('a script error is a failed test with the handler line', async () => {
    expect((await run('response.body.nope.x;')).tests).toEqual([expect.objectContaining({ passed: false, line: 10, name: 'response handler (line 10)' })]);
  });
});

describe('sandbox', () => {
  it.each([
    ['require', 'require("fs")'],
    ['process', 'process.exit(1)'],
    ['fetch', 'fetch("http://127.0.0.1:1/")'],
    ['eval of a string', 'eval("1")'],
    ['the Function constructor through an object', 'client.test.constructor("return process")()'],
    ['an outer-realm escape through the prototype chain', 'response.constructor.constructor("return process")().exit(1)'],
    ['an outer-realm escape through the global object', 'this.constructor.constructor("return process")().exit(1)'],
    ['an outer-realm escape through globalThis', 'globalThis.constructor.constructor("return process")().exit(1)'],
    ['an outer-realm escape through performance.now', 'performance.now.constructor("return process")().exit(1)'],
  ])('%s is not reachable', async (_, src) => {
    const r = await run(src);
    expect(r.tests).toEqual([expect.objectContaining({ passed: false })]);
  });

  it('performance.now() and timeOrigin give fractional milliseconds on the wall clock', async () => {
    const before = Date.now();
    const r = await run('const t = performance.timeOrigin + performance.now(); client.global.set("t", t); client.global.set("frac", [1, 2, 3, 4, 5].some(() => performance.now() % 1 !== 0));');
    const t = Number(r.globals.get('t'));
    expect(t).toBeGreaterThanOrEqual(before - 1);
    expect(t).toBeLessThanOrEqual(Date.now() + 1);
    expect(r.globals.get('frac')).toBe('true');
  });

  it('a stream feed\'s __items cannot become a setter (it would run outside the time limit)', async () => {
    const r = await run('Object.defineProperty(globalThis, "__items", { set() { for (;;) {} } });');
    expect(r.tests).toEqual([expect.objectContaining({ passed: false, message: expect.stringMatching(/Cannot redefine property: __items/) })]);
  });

  it('an endless loop is stopped at the time limit', async () => {
    const t0 = Date.now();
    const r = await run('for (;;) {}');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.tests[0]).toMatchObject({ passed: false, message: 'the handler ran longer than 500 ms' });
  });

  it('an endless promise chain is stopped too', async () => {
    const r = await run('const f = () => Promise.resolve().then(f); f();');
    expect(r.tests[0]).toMatchObject({ passed: false });
  });

  it('a missing handler file is a located error', async () => {
    await expect(runHandlers([{ kind: 'file', path: './nope.js', line: 4, endLine: 4 }], res, new Map(), tempDir())).rejects.toMatchObject({ code: 'file-unreadable', line: 4 });
  });
});

describe('parseForFile', () => {
  it.each([
    ['a.http', 'GET http://h/', 'http'],
    ['dir/A.REST', 'GET http://h/', 'http'],
    ['a.sheet', '# -*- sheet-syntax: http -*-\nGET http://h/', 'sheet'],
    ['notes.txt', '# -*- sheet-syntax: http -*-\nGET http://h/', 'http'],
    ['notes.txt', 'GET http://h/', 'sheet'],
    [undefined, '// -*- mode: sheet; sheet-syntax: http -*-\nGET {{h}}', 'http'],
  ])('%s: %j is %s', (name, text, syntax) => {
    expect(syntaxFor(text, name)).toBe(syntax);
    expect(parseForFile(text, name).syntax ?? 'sheet').toBe(syntax);
  });
});

describe('sandbox memory (issue 36 item 10)', () => {
  it('a handler that allocates without bound is stopped at the memory limit, says so, and the next one runs', async () => {
    const before = process.memoryUsage().rss;
    const t0 = Date.now();
    const r = await runHandlerScript('const a = []; for (;;) a.push(new Array(1e6).fill(1));', 10, res, new Map(), 10000);
    expect(r.tests).toEqual([expect.objectContaining({ passed: false, name: 'response handler (line 10)', message: 'the script used more than 64 MiB of memory (the script memory limit) and was stopped' })]);
    // Stopped by memory, long before its 10 s time limit; this process grew by far less than the 1.9 GiB of before.
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
    expect((await run('client.test("after", () => {});')).tests).toEqual([expect.objectContaining({ name: 'after', passed: true })]);
  }, 30000);
});
