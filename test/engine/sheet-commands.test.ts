// `sheet import-curl`, `sheet engine --stdio`, `sheet shell-path` and `sheet -V` end to end: the
// real launcher engine/bin/sheet and its bundle (engine/dist/sheet.cjs, built by make build),
// real stdin, a real JSON-RPC conversation and a request to the example API on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../engine/src/version.js';
import { packagedFile } from '../../engine/src/sheet-command/shell-path.js';
import { root, runSheet, SHEET_BIN, spawnEngine, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;

const sheet = (args: string[], input?: string) => runSheet(args, { cwd: dir, input, timeoutMs: 30000 });

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('sheet-commands-');
}, 60000);

afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet -V / --version', () => {
  it.each([['-V'], ['--version']])('%s prints the one version', async (flag) => {
    expect(await sheet([flag])).toEqual({ code: 0, out: `sheet ${VERSION}\n`, err: '' });
  });
});

describe('sheet import-curl', () => {
  it('one argument, as pasted: the sheet request on stdout, exit 0', async () => {
    const r = await sheet(['import-curl', `curl -X PUT -H 'Accept: application/json' --json '{"a":1}' ${api.url}/echo`]);
    expect(r).toEqual({
      code: 0,
      out: `PUT ${api.url}/echo\nAccept: application/json\nContent-Type: application/json\n\n{"a":1}\n`,
      err: '',
    });
  });

  it('words the shell split already, after --', async () => {
    const r = await sheet(['import-curl', '--', 'curl', '-H', "X-Note: it's here", '-d', 'a=1 2', `${api.url}/echo`]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`POST ${api.url}/echo\nX-Note: it's here\nContent-Type: application/x-www-form-urlencoded\n\na=1 2\n`);
  });

  it('- reads a Copy as cURL over several lines from stdin', async () => {
    const r = await sheet(['import-curl', '-'], `curl '${api.url}/users?page=2' \\\n  -H 'accept: application/json' \\\n  --compressed\n`);
    expect(r).toMatchObject({ code: 0, out: `GET ${api.url}/users?page=2\naccept: application/json\nAccept-Encoding: deflate, gzip, br, zstd\n` });
    expect(r.err).toMatch(/^sheet import-curl: note: --compressed: /);
  });

  it('options that leave the request as curl sends it are notes on stderr, exit 0', async () => {
    const r = await sheet(['import-curl', `curl --connect-timeout 3 -N -s -o out.json --max-time 5 ${api.url}/x`]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`GET ${api.url}/x\n`);
    for (const o of ['--connect-timeout 3', '-N', '-o out.json', '--max-time 5']) expect(r.err).toContain(`sheet import-curl: note: ${o}: `);
    expect(r.err).not.toMatch(/left out/);
  });

  it('what makes the request differ from curl\'s is named on stderr, the request still printed, exit 1', async () => {
    // -F is carried now (issue 27); an empty Host header is what a sheet still cannot send.
    const r = await sheet(['import-curl', `curl -N -H 'Host:' ${api.url}/x`]);
    expect(r.code).toBe(1);
    expect(r.out).toBe(`GET ${api.url}/x\n`);
    expect(r.err).toMatch(/note: -N\b/);
    expect(r.err).toMatch(/left out: -H "Host:"/);
  });

  it('an error names the option, gives a hint, prints nothing and exits 2', async () => {
    const r = await sheet(['import-curl', `curl ${api.url}/x -X`]);
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toMatch(/^sheet import-curl: -X needs an argument\nhint: /);
    const m = await sheet(['import-curl', `curl -X BREW ${api.url}/x`]);
    expect(m).toMatchObject({ code: 2, out: '' });
    expect(m.err).toMatch(/-X BREW: a sheet request cannot use this method/);
  });

  it('usage errors: nothing given, empty stdin, not a curl command', async () => {
    expect(await sheet(['import-curl'])).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/give the curl command/) });
    expect(await sheet(['import-curl', '-'], '  \n')).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/standard input is empty/) });
    expect(await sheet(['import-curl', 'wget http://h/'])).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/not a curl command: it starts with "wget"/) });
  });

  it('the printed request runs: import-curl then sheet run against the example API', async () => {
    const r = await sheet(['import-curl', `curl -H 'X-Trace: t1' ${api.url}/echo`]);
    fs.writeFileSync(path.join(dir, 'imported.sheet'), `${r.out}-> expect-status 200\n-> expect-body X-Trace|x-trace\n`);
    const run = await sheet(['run', 'imported.sheet']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/✓ 200 GET .*\/echo/);
  });
});

describe('sheet engine --stdio', () => {
  it('is the JSON-RPC server: initialize answers the version, sheet/send reaches the API', async () => {
    const engine = spawnEngine({ argv: [SHEET_BIN, 'engine', '--stdio'] });
    try {
      expect(await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false })).toEqual({ serverName: 'sheet-engine', version: VERSION });
      const r = (await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/users\n`, line: 1 })) as { response: { status: number } };
      expect(r.response.status).toBe(200);
    } finally {
      expect(await engine.close()).toBe(0);
    }
    expect(engine.stderr()).toBe('');
  });

  it('an unknown argument is a usage error, exit 2, nothing on stdout', async () => {
    const r = await sheet(['engine', '--tcp']);
    expect(r).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/unknown argument --tcp.*sheet engine --stdio/) });
  });
});

describe('sheet shell-path', () => {
  it('in a checkout: the repository shell/rest, absolute', async () => {
    const r = await sheet(['shell-path']);
    expect(r).toEqual({ code: 0, out: `${path.join(root, 'shell/rest')}\n`, err: '' });
  });

  it('in the package layout: <package>/shell/rest beside dist/ wins over anything above', () => {
    const pkg = path.join(dir, 'lib/node_modules/sheet-rest');
    fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
    fs.mkdirSync(path.join(pkg, 'shell'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'shell/rest'), '# rest\n');
    fs.mkdirSync(path.join(dir, 'lib/node_modules/shell'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'lib/node_modules/shell/rest'), '# not this one\n');
    expect(packagedFile('shell/rest', [path.join(pkg, 'dist')])).toBe(path.join(pkg, 'shell/rest'));
    expect(packagedFile('shell/rest', [path.join(dir, 'nowhere/dist')])).toBeUndefined();
  });

  it('extra arguments are a usage error', async () => {
    expect(await sheet(['shell-path', 'x'])).toMatchObject({ code: 2, out: '' });
  });
});

describe('sheet elisp-path (issue 37 item 12)', () => {
  it("in a checkout: the repository's elisp/, absolute", async () => {
    expect(await sheet(['elisp-path'])).toEqual({ code: 0, out: `${path.join(root, 'elisp')}\n`, err: '' });
  });

  it('extra arguments are a usage error naming the command', async () => {
    expect(await sheet(['elisp-path', 'x'])).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/sheet elisp-path: takes no arguments \(got x\)/) });
  });
});
