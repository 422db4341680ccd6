// @vitest-environment node
// The package's weight and shape (issue 23 item 4), from `npm pack --dry-run` of the built
// client-lib/ (make build-client-lib first): undici bundled once (node.mjs wraps node.cjs, one
// instance of the library whichever way Node loads it), LICENSE and the registry fields, the
// source maps' sources inside the package, side effects only where the AngularJS module is
// registered (dist/client*.js, angular-client-rest/angular), a <script> tag without AngularJS.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(__dirname, '../..');
const pkgDir = path.join(root, 'client-lib');
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const pack = () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: pkgDir, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout)[0] as { unpackedSize: number; files: { path: string; size: number }[] };
};

describe('package weight and shape', () => {
  it('bundles undici once: dist/node.mjs is a thin ES module over dist/node.cjs', () => {
    const { files, unpackedSize } = pack();
    const big = files.filter((f) => f.size > 500_000).map((f) => f.path);
    expect(big).toEqual(['dist/node.cjs']);
    expect(files.find((f) => f.path === 'dist/node.mjs')!.size).toBeLessThan(2000);
    expect(unpackedSize).toBeLessThan(2_500_000);
  }, 60000);

  it('import and require of the Node entry give the same classes (one copy loaded)', () => {
    const code = [
      "import { createRequire } from 'node:module';",
      'const require = createRequire(import.meta.url);',
      "const esm = await import('angular-client-rest'); const cjs = require('angular-client-rest');",
      "const node = await import('angular-client-rest/node');",
      "process.stdout.write(String(esm.ClientHttpError === cjs.ClientHttpError && node.createClient === cjs.createClient && typeof esm.engineFetch === 'function'));",
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('true');
  });

  it('ships LICENSE, and names its repository, homepage and bugs', () => {
    const paths = pack().files.map((f) => f.path);
    expect(paths).toContain('LICENSE');
    expect(fs.readFileSync(path.join(pkgDir, 'LICENSE'), 'utf8')).toBe(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'));
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository).toEqual(expect.objectContaining({ type: 'git', directory: 'client-lib' }));
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
  }, 60000);

  it('every source map of the package has its sources inside the package, as files it ships', () => {
    const paths = new Set(pack().files.map((f) => f.path));
    const maps = [...paths].filter((p) => p.endsWith('.map')).sort();
    expect(maps).toEqual(['dist/client.js.map', 'dist/client.min.js.map', 'dist/index.cjs.map', 'dist/index.mjs.map']);
    for (const m of maps) {
      const map = JSON.parse(fs.readFileSync(path.join(pkgDir, m), 'utf8'));
      expect(map.sources.length).toBeGreaterThan(10);
      for (const s of map.sources) {
        const inPackage = path.posix.normalize(path.posix.join(path.posix.dirname(m), s));
        expect(paths.has(inPackage), `${m}: ${s}`).toBe(true);
      }
      const js = fs.readFileSync(path.join(pkgDir, m.replace(/\.map$/, '')), 'utf8');
      expect(js.trimEnd().endsWith(`//# sourceMappingURL=${path.basename(m)}`)).toBe(true);
    }
  }, 60000);

  it('sideEffects: only the <script> files and angular-client-rest/angular register anything', () => {
    expect(pkg.sideEffects).toEqual(['./dist/client.js', './dist/client.min.js', './dist/angular.mjs', './dist/angular.cjs', './dist/angular-node.mjs', './dist/angular-node.cjs']);
    // A fake global angular records registrations: the main entry registers nothing on import.
    const code = (entry: string) =>
      [
        'const seen = []; const chain = new Proxy({}, { get: () => () => chain });',
        "globalThis.angular = { module: (name, deps) => (deps && seen.push(name), chain) };",
        `const m = await import('${entry}');`,
        "process.stdout.write(seen.join(',') + ' ' + typeof m.createClient);",
      ].join('\n');
    const run = (entry: string) => spawnSync(process.execPath, ['--input-type=module', '-e', code(entry)], { cwd: root, encoding: 'utf8' });
    const indexMjs = new URL('file://' + path.join(pkgDir, 'dist/index.mjs')).href;
    for (const entry of [indexMjs, 'angular-client-rest', 'angular-client-rest/node']) expect(run(entry).stdout).toBe(' function');
    const ng = run('angular-client-rest/angular');
    expect(ng.stderr).toBe('');
    expect(ng.stdout).toBe('client function');
  });

  it('dist/client.js in a page without AngularJS sets ClientLib, a working createClient', async () => {
    const { JSDOM } = await import('jsdom');
    const dom = new JSDOM('<!doctype html>', { runScripts: 'outside-only', url: 'http://localhost/app/' });
    const w: any = dom.window;
    w.eval(fs.readFileSync(path.join(pkgDir, 'dist/client.js'), 'utf8'));
    expect(Object.keys(w.ClientLib).sort()).toEqual(['ClientError', 'ClientHttpError', 'createClient', 'fetchTransport', 'registerClientModule']);
    const client = w.ClientLib.createClient({ baseUrl: '/api' });
    expect(client.one('users', 1).getClientUrl()).toBe('/api/users/1');
    dom.window.close();
  });

  it("the README's links resolve on the registry page: absolute, or an anchor of the README itself", () => {
    const readme = fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(1);
    for (const l of links) expect(/^https:\/\//.test(l) || /^#[a-z-]+$/.test(l), l).toBe(true);
    // Paths of the repository named as code would be dead text there: link them instead.
    expect(readme).not.toMatch(/`docs\/[\w.-]+\.md`/);
  });
});
