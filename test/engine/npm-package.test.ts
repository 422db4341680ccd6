// The npm package `sheet-rest` (engine/package.json) as a user gets it, with the real npm and
// no network: `npm pack` (its prepack copies shell/rest, LICENSE and elisp/sheet-batch.el in),
// `npm install -g --prefix TMP tarball --offline` into a temporary prefix, then the installed
// `sheet` (--version, run on the example sheet against the example API and httpbin, import-curl,
// engine --stdio, elisp-path and a C-c C-c in real Emacs from the packaged sheet-mode),
// `source "$(sheet shell-path)"` and a GET in real bash and zsh, and npx with
// the tarball in a fresh folder. Needs `make build` first (the bundles; prepack refuses stale ones).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../engine/src/version.js';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';
import { root, spawnEngine, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let hb: { url: string };
let tmp: string;
let tarball: string;
let packed: { name: string; version: string; files: { path: string }[] };
let prefix: string;
let sheetBin: string;
let pkgDir: string;
let home: string;
let runtime: string;
/** The repository's elisp/*.el, as the package must hold them (issue 37 item 12). */
const elispFiles = fs.readdirSync(path.join(root, 'elisp')).filter((f) => f.endsWith('.el')).map((f) => `elisp/${f}`);

interface Result {
  code: number;
  out: string;
  err: string;
}

/** Run a program with a clean environment: PATH = the prefix's bin, node's, /usr/bin:/bin. */
function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Result> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {
      PATH: [path.join(prefix ?? tmp, 'bin'), path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
      HOME: home,
      TMPDIR: tmp,
      NO_COLOR: '1',
      REST_RUNTIME_DIR: runtime,
      npm_config_update_notifier: 'false',
      npm_config_cache: path.join(tmp, 'npm-cache'),
      NODE_JQ_SKIP_INSTALL_BINARY: 'true',
      ...opts.env,
    };
    const child = execFile(cmd, args, { cwd: opts.cwd ?? tmp, env, timeout: 90000, maxBuffer: 64 * 1024 * 1024 }, (e, out, err) => {
      resolve({ code: e ? ((e as { code?: number }).code ?? -1) : 0, out, err });
    });
    child.stdin!.end(opts.input ?? '');
  });
}

beforeAll(async () => {
  tmp = fs.realpathSync(tempDir('npm-package-'));
  home = path.join(tmp, 'home');
  runtime = path.join(tmp, 'run');
  fs.mkdirSync(home);
  [api, hb] = await Promise.all([startApi(), sharedHttpbin()]);
  // From the repository root, as `npm publish -w engine` would (the root .gitignore ignores
  // engine/dist/; engine/.npmignore keeps it from applying).
  const pack = await run('npm', ['pack', '-w', 'engine', '--json', '--pack-destination', tmp], { cwd: root });
  if (pack.code !== 0) throw new Error(`npm pack failed (run make build first?):\n${pack.err}`);
  packed = JSON.parse(pack.out.slice(pack.out.indexOf('[')))[0];
  tarball = path.join(tmp, (packed as unknown as { filename: string }).filename);
  prefix = path.join(tmp, 'prefix');
  const install = await run('npm', ['install', '-g', '--prefix', prefix, tarball, '--offline', '--no-audit', '--no-fund']);
  if (install.code !== 0) throw new Error(`npm install -g of the tarball failed:\n${install.err}`);
  sheetBin = path.join(prefix, 'bin/sheet');
  pkgDir = path.join(prefix, 'lib/node_modules/sheet-rest');
}, 180000);

afterAll(async () => {
  // The daemon the shell verbs started, if any is still there.
  try {
    process.kill(Number(fs.readFileSync(path.join(runtime, 'engine.pid'), 'utf8')), 'SIGTERM');
  } catch {
    // stopped by rest --stop already
  }
  await api?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('holds only what runs: the bundles, the launcher, shell/rest and its completion files, every elisp/*.el (sheet-mode), README, LICENSE', () => {
    expect(packed.name).toBe('sheet-rest');
    expect(packed.version).toBe(VERSION);
    expect(packed.files.map((f) => f.path).sort()).toEqual(
      ['LICENSE', 'README.md', 'bin/package.json', 'bin/sheet', 'dist/convert.cjs', 'dist/engine.cjs', 'dist/rest-cli.cjs', 'dist/sheet.cjs', 'dist/shell-path.cjs', ...elispFiles, 'package.json', 'shell/_rest', 'shell/rest', 'shell/rest-completion', 'shell/rest-daemon', 'shell/rest-verbs', 'shell/rest-wire'].sort(),
    );
    expect(elispFiles).toContain('elisp/sheet-mode.el');
    expect(elispFiles).toContain('elisp/sheet-batch.el');
  });

  it('needs nothing from the network: no dependencies, and the bundles require only Node built-ins', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.optionalDependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
    expect(pkg.bin).toEqual({ sheet: 'bin/sheet' });
    const builtins = new Set(builtinModules);
    for (const b of ['engine.cjs', 'rest-cli.cjs', 'sheet.cjs']) {
      const text = fs.readFileSync(path.join(pkgDir, 'dist', b), 'utf8');
      const foreign = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!).filter((m) => !m.startsWith('node:') && !builtins.has(m));
      expect({ b, foreign }).toEqual({ b, foreign: [] });
    }
  });

  it('packing inside engine/ gives the same files (npm pack --dry-run)', async () => {
    const dry = await run('npm', ['pack', '--dry-run', '--json'], { cwd: path.join(root, 'engine') });
    expect(dry.code).toBe(0);
    const files = JSON.parse(dry.out.slice(dry.out.indexOf('[')))[0].files.map((f: { path: string }) => f.path);
    expect(files.sort()).toEqual(packed.files.map((f) => f.path).sort());
  });

  it('the copies prepack made are gone from engine/ after packing', () => {
    for (const f of ['shell/rest', 'shell/rest-verbs', 'shell/rest-daemon', 'shell/rest-wire', 'shell/rest-completion', 'shell/_rest', 'LICENSE', ...elispFiles]) expect(fs.existsSync(path.join(root, 'engine', f))).toBe(false);
    expect(fs.existsSync(path.join(root, 'engine/elisp'))).toBe(false);
  });

  it('the LICENSE matches the license field', () => {
    expect(JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).license).toBe('MIT');
    expect(fs.readFileSync(path.join(pkgDir, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  });
});

describe('the installed sheet', () => {
  it('sheet --version and -V', async () => {
    expect(await run('sheet', ['--version'])).toEqual({ code: 0, out: `sheet ${VERSION}\n`, err: '' });
    expect((await run('sheet', ['-V'])).out).toBe(`sheet ${VERSION}\n`);
  });

  it('sheet run on the example sheet against the example API and httpbin', async () => {
    fs.copyFileSync(path.join(root, 'examples/assertions.sheet'), path.join(tmp, 'assertions.sheet'));
    const r = await run('sheet', ['run', 'assertions.sheet', '--var', `:base=${api.url}`, '--var', `:httpbin=${hb.url}`]);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/✓ 200 GET \/users/);
    expect(r.out).toMatch(/\d+ of \d+ requests, \d+ assertions, 0 failed/);
    expect(r.code).toBe(0);
  });

  it(':= Lisp values through the packaged sheet-batch.el, not the checkout', async () => {
    fs.writeFileSync(path.join(tmp, 'lisp.sheet'), `:n := (number-to-string (+ 40 2))\nGET ${api.url}/echo?n=:n\n-> expect-status 200\n-> expect-body n=42\n`);
    const r = await run('sheet', ['run', 'lisp.sheet'], { env: { EMACS: 'emacs' } });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('sheet import-curl prints the request', async () => {
    const r = await run('sheet', ['import-curl', `curl -H 'Accept: application/json' -d name=Ada ${api.url}/users`]);
    expect(r).toEqual({ code: 0, out: `POST ${api.url}/users\nAccept: application/json\nContent-Type: application/x-www-form-urlencoded\n\nname=Ada\n`, err: '' });
  });

  it('sheet engine --stdio is the JSON-RPC server', async () => {
    const engine = spawnEngine({ argv: [sheetBin, 'engine', '--stdio'], cwd: tmp });
    try {
      expect(await engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false })).toEqual({ serverName: 'sheet-engine', version: VERSION });
      const r = (await engine.conn.sendRequest('sheet/send', { text: `GET ${api.url}/users/1\n`, line: 1 })) as { response: { status: number } };
      expect(r.response.status).toBe(200);
    } finally {
      expect(await engine.close()).toBe(0);
    }
  });

  it('sheet shell-path is the packaged shell/rest', async () => {
    expect(await run('sheet', ['shell-path'])).toEqual({ code: 0, out: `${path.join(pkgDir, 'shell/rest')}\n`, err: '' });
  });

  it('sheet elisp-path is the packaged elisp/, whose sheet-mode sends C-c C-c with the engine beside it', async () => {
    expect(await run('sheet', ['elisp-path'])).toEqual({ code: 0, out: `${path.join(pkgDir, 'elisp')}\n`, err: '' });
    // Emacs as README.md says, the load-path from `sheet elisp-path`; no `sheet` on PATH, so the
    // engine can only be the package's own dist/engine.cjs.
    const lisp = `(progn
      (add-to-list 'load-path (string-trim (shell-command-to-string "${sheetBin} elisp-path")))
      (require 'sheet-mode)
      (princ (format "ENGINE %S\n" (sheet-engine-find-command)))
      (let* ((done nil)
             (sheet-response-loaded-hook (list (lambda () (setq done (buffer-string)))))
             (deadline (+ (float-time) 30)))
        (with-temp-buffer
          (insert "GET ${api.url}/users/1\n")
          (sheet-mode)
          (goto-char (point-min))
          (sheet-http-send-current-stay-in-window)
          (while (and (not done) (< (float-time) deadline)) (accept-process-output nil 0.05)))
        (princ (format "RESPONSE %s\n" done))
        (sheet-engine-shutdown)))`;
    const r = await run('emacs', ['--batch', '-Q', '--eval', lisp], { env: { PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(':') } });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`ENGINE ("node" "${path.join(pkgDir, 'dist/engine.cjs')}" "--stdio")`);
    expect(r.out).toMatch(/RESPONSE \{\n {2}"id": 1,\n {2}"name": "Ada Lovelace"/);
  });
});

describe.each(['bash', 'zsh'])('source "$(sheet shell-path)" in %s', (shell) => {
  const script = (verb: string) =>
    `source "$(sheet shell-path)" || exit 90\nrest ${api.url} >/dev/null || exit 91\n${verb}\nst=$?\nprintf '\\nstatus=%s\\n' "$st"\n`;
  const shellArgs = shell === 'zsh' ? ['-f', '-c'] : ['--noprofile', '--norc', '-c'];

  it('GET through the daemon, started from the packaged engine', async () => {
    const r = await run(shell, [...shellArgs, script('GET /users/1')]);
    expect(r.err).toBe('');
    expect(r.out).toBe(`{"id":1,"name":"Ada Lovelace","email":"ada@example.org"}\nstatus=0\n`);
    // The first call starts the daemon, which writes its pid file once it listens.
    const pidFile = path.join(runtime, 'engine.pid');
    for (let i = 0; i < 100 && !fs.existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain(path.join(pkgDir, 'dist/rest-cli.cjs'));
    expect((await run(shell, [...shellArgs, 'source "$(sheet shell-path)" && rest --stop'])).code).toBe(0);
  });

  it('an interactive shell gets the packaged completion of the verbs', async () => {
    const ask = shell === 'zsh'
      ? 'autoload -Uz compinit && compinit -u -D; source "$(sheet shell-path)" || exit 90; print -r -- "${_comps[GET]}"'
      : 'source "$(sheet shell-path)" || exit 90; complete -p GET';
    const r = await run(shell, [shell === 'zsh' ? '-fi' : '-i', '-c', ask], { env: { HOME: tmp } });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(shell === 'zsh' ? /_rest/ : /complete -F \S+ GET/);
  });

  it('GET without the daemon (REST_NO_DAEMON=1), and a 404 exits 4', async () => {
    const ok = await run(shell, [...shellArgs, script('GET /users/2')], { env: { REST_NO_DAEMON: '1' } });
    expect(ok.out).toBe(`{"id":2,"name":"Alan Turing","email":"alan@example.org"}\nstatus=0\n`);
    const missing = await run(shell, [...shellArgs, script('GET /no/such/path')], { env: { REST_NO_DAEMON: '1' } });
    expect(missing.out).toMatch(/status=4\n$/);
  });
});

describe('npx', () => {
  it('npx with the tarball runs sheet run api.sheet in a fresh folder (a fresh npx cache)', async () => {
    const fresh = path.join(tmp, 'fresh');
    fs.mkdirSync(fresh);
    fs.writeFileSync(path.join(fresh, 'api.sheet'), `GET ${api.url}/users\n-> expect-status 200\n-> expect-jq 'length == 3'\n`);
    const r = await run('npx', ['--yes', '--offline', `file:${tarball}`, 'run', 'api.sheet'], {
      cwd: fresh,
      env: { npm_config_cache: path.join(tmp, 'npx-cache'), PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(':') },
    });
    expect(r.out).toMatch(/✓ 200 GET \/users \(api\.sheet:1\)/);
    expect(r.out).toMatch(/1 of 1 requests, 2 assertions, 0 failed/);
    expect(r.code).toBe(0);
  });

  it('npx sheet-rest in a folder that installed the tarball picks the one bin, sheet', async () => {
    const proj = path.join(tmp, 'proj');
    fs.mkdirSync(proj);
    expect((await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: proj })).code).toBe(0);
    fs.writeFileSync(path.join(proj, 'api.sheet'), `GET ${api.url}/users/3\n-> expect-body Grace\n`);
    const r = await run('npx', ['--offline', 'sheet-rest', 'run', 'api.sheet'], { cwd: proj });
    expect(r.out).toMatch(/1 of 1 requests, 1 assertions, 0 failed/);
    expect(r.code).toBe(0);
  });
});
