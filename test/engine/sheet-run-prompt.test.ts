// `# @prompt name [description]` in `sheet run x.http` (docs/sheet-run.md "Prompts"): asked on
// a real terminal (a pty driven by test/engine/pty-answer.py; no echo for secret names), read
// from `--prompts-from FILE` and `--prompts-from -`, a usage error naming the line otherwise.
// Real bin, real bundle, the example API's /echo route on 127.0.0.1: the response handlers
// check that the answers reached the server.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root, runSheet, SHEET_BIN, startApi, tempDir, type Api, type CliRun } from './helpers.js';
import { SECRET_PROMPT_NAME } from '../../engine/src/resolve/resolve-http.js';

const PTY = path.join(root, 'test/engine/pty-answer.py');
let api: Api;
let dir: string;

/** `sheet ARGS` with pipes (not a terminal), `input` on its stdin. */
const sheet = (args: string[], input = ''): Promise<CliRun> => runSheet(args, { cwd: dir, input });

interface PtyRun {
  ok: boolean;
  missed: string | null;
  status: number;
  transcript: string;
}

/** `sheet ARGS` on a pseudo-terminal, typing each `send` once its `expect` is seen. */
function onTerminal(args: string[], steps: { expect: string; send: string }[]): Promise<PtyRun> {
  return new Promise((resolve, reject) => {
    const p = execFile('/usr/bin/python3', [PTY, '40', 'env', 'NO_COLOR=1', process.execPath, SHEET_BIN, ...args], { cwd: dir, timeout: 60000 }, (e, out, err) => {
      if (e) reject(new Error(`${e.message}\n${err}`));
      else resolve(JSON.parse(out) as PtyRun);
    });
    p.stdin!.end(JSON.stringify(steps));
  });
}

// The handler checks what the echo route received: the path, the query and a header.
const FILE = `# @prompt user The user name
# @prompt apiToken
GET BASE/echo/{{user}}?t={{apiToken}}
X-Token: {{apiToken}}

> {%
  client.test("user reached the server", function () { client.assert(response.body.path === "/echo/" + client.global.get("wantUser"), response.body.path); });
  client.test("token reached the server", function () { client.assert(response.body.headers["x-token"] === client.global.get("wantToken"), response.body.headers["x-token"]); });
%}

###
# @prompt user
GET BASE/echo/again/{{user}}
`;

/** The file, with the expected answers set first as client.global values (a request above). */
function promptFile(name: string, user: string, token: string): string {
  const setup = `GET BASE/echo/setup\n\n> {%\n  client.global.set("wantUser", ${JSON.stringify(user)});\n  client.global.set("wantToken", ${JSON.stringify(token)});\n%}\n\n###\n`;
  const p = path.join(dir, name);
  fs.writeFileSync(p, (setup + FILE).replaceAll('BASE', api.url));
  return p;
}

const report = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('sheet-run-prompt-');
}, 60000);

afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet run on a terminal', () => {
  it('asks each prompt on the terminal when its request comes, secrets without echo, each name once', async () => {
    promptFile('t.http', 'ada', 't0k en');
    const r = await onTerminal(['run', 't.http', '--report', 'json:t.json'], [
      { expect: 'The user name \\(user\\): $', send: 'ada\r' },
      { expect: 'apiToken: $', send: 't0k en\r' },
    ]);
    expect(r.missed).toBeNull();
    expect(r.status).toBe(0);
    // The setup request ran before the first question: asked when its request comes.
    expect(r.transcript).toMatch(/✓ 200 GET \/echo\/setup[^\n]*\n+The user name \(user\): ada\napiToken: \n/);
    // Not echoed (the progress line shows the URL as sent, encoded: t0k%20en).
    expect(r.transcript).not.toContain('t0k en');
    expect(r.transcript.match(/\(user\)/g)).toHaveLength(1);
    expect(r.transcript).toContain('3 of 3 requests, 2 assertions, 0 failed');
    const results = report('t.json').files[0].results;
    expect(results[1].request.url).toBe(`${api.url}/echo/ada?t=t0k%20en`);
    expect(results[1].assertions.map((a: { passed: boolean }) => a.passed)).toEqual([true, true]);
    expect(results[2].request.url).toBe(`${api.url}/echo/again/ada`);
  }, 60000);

  it('asks nothing a --var answers', async () => {
    promptFile('v.http', 'bob', 'zz');
    const r = await onTerminal(['run', 'v.http', '--var', 'user=bob'], [{ expect: 'apiToken: $', send: 'zz\r' }]);
    expect(r.missed).toBeNull();
    expect(r.status).toBe(0);
    expect(r.transcript).not.toContain('(user)');
    expect(r.transcript).toContain('3 of 3 requests, 2 assertions, 0 failed');
  }, 60000);

  it('end of input (Ctrl-D) at a question is a located sheet error; Ctrl-C stops the run (130)', async () => {
    promptFile('d.http', 'x', 'y');
    const d = await onTerminal(['run', 'd.http'], [{ expect: '\\(user\\): $', send: '\x04' }]);
    expect(d.status).toBe(2);
    expect(d.transcript).toContain('d.http:9: # @prompt user got no answer (the input ended)');
    const c = await onTerminal(['run', 'd.http'], [
      { expect: '\\(user\\): $', send: 'x\r' },
      { expect: 'apiToken: $', send: 'half\x03' },
    ]);
    expect(c.status).toBe(130);
    expect(c.transcript).not.toContain('half');
    expect(c.transcript).not.toMatch(/requests, /);
  }, 60000);
});

describe('sheet run --prompts-from', () => {
  it('reads the answers from a file', async () => {
    promptFile('f.http', 'cy', 'sec ret');
    fs.writeFileSync(path.join(dir, 'answers.json'), JSON.stringify({ user: 'cy', apiToken: 'sec ret', unused: 'x' }));
    const r = await sheet(['run', 'f.http', '--prompts-from', 'answers.json', '--report', 'json:f.json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('3 of 3 requests, 2 assertions, 0 failed');
    expect(report('f.json').files[0].results[1].request.url).toBe(`${api.url}/echo/cy?t=sec%20ret`);
  });

  it('reads the answers from standard input with -, and they come before --var', async () => {
    promptFile('s.http', 'dee', 'p@ss');
    const r = await sheet(['run', 's.http', '--prompts-from', '-', '--var', 'user=other', '--report', 'json:s.json'], '{"user": "dee", "apiToken": "p@ss"}\n');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(report('s.json').files[0].results[2].request.url).toBe(`${api.url}/echo/again/dee`);
  });

  it('without a terminal, a prompt nothing answers is a usage error naming its line; nothing is sent', async () => {
    promptFile('m.http', 'x', 'y');
    const r = await sheet(['run', 'm.http', '--prompts-from', '-'], '{"user": "x"}');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('m.http:10: # @prompt apiToken needs a value: give it with --var apiToken=VALUE or --prompts-from FILE ({"apiToken": "..."}), or run sheet on a terminal to be asked');
  });

  it('bad answers are usage errors saying what to give', async () => {
    promptFile('b.http', 'x', 'y');
    fs.writeFileSync(path.join(dir, 'bad.json'), '{"user": ');
    const cases: [string[], string, string][] = [
      [['--prompts-from', 'bad.json'], '', '--prompts-from bad.json: not JSON ('],
      [['--prompts-from', '-'], '["x"]', '--prompts-from -: give one JSON object of answers, {"name": "value"}, not an array'],
      [['--prompts-from', '-'], '{"user": 5}', '--prompts-from -: the answer to "user" is a number; answers are strings: {"user": "5"}'],
      [['--prompts-from', 'missing.json'], '', '--prompts-from missing.json: cannot read it (ENOENT)'],
      [['--prompts-from', '.'], '', '--prompts-from . is a directory'],
    ];
    for (const [args, input, message] of cases) {
      const r = await sheet(['run', 'b.http', ...args], input);
      expect(r.code, message).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toContain(message);
    }
  });
});

describe('secret prompt names', () => {
  it('password, passwd, token, secret in any case; the same words as Emacs\'s sheet-prompt-secret-regexp', () => {
    for (const n of ['password', 'dbPassword', 'passwd', 'TOKEN', 'client_secret']) expect(SECRET_PROMPT_NAME.test(n), n).toBe(true);
    for (const n of ['user', 'code', 'otp']) expect(SECRET_PROMPT_NAME.test(n), n).toBe(false);
    const elisp = fs.readdirSync(path.join(root, 'elisp')).filter((f) => f.endsWith('.el')).map((f) => fs.readFileSync(path.join(root, 'elisp', f), 'utf8')).join('\n');
    const m = /\(defcustom sheet-prompt-secret-regexp "((?:[^"\\]|\\.)*)"/.exec(elisp);
    expect(m).not.toBeNull();
    // The Emacs regexp as a JavaScript one: \\( -> (, \\| -> |, \\) -> ).
    const js = m![1]!.replaceAll('\\\\', '\\').replaceAll('\\(', '(').replaceAll('\\|', '|').replaceAll('\\)', ')');
    expect(js).toBe(SECRET_PROMPT_NAME.source);
  });
});
