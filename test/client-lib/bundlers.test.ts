// @vitest-environment node
// The packed package as an AngularJS app bundles it (issue 38 item 1): `npm pack` of client-lib,
// extracted into a fresh node_modules beside angular (as `npm install <tarball>` lays it out),
// then one small app per bundler and shape: Vite 8 (one chunk, a vendor chunk through
// manualChunks, two HTML entries sharing a chunk), Vite 6 (one chunk, a vendor chunk), webpack 5,
// esbuild, and a plain <script> page. Each page is opened in Debian's Chromium against a server on
// 127.0.0.1; the app must find module `client` and make a request. Rolldown (Vite 8) runs
// angular's CommonJS code only when a module that imports it runs, so a registration that looked
// for a global `angular` found none and module `client` was missing ($injector:nomod).
// One pack, one browser and one server for the file; the builds run two at a time.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { Browser } from 'puppeteer-core';
// @ts-expect-error plain JS fixture
import { launchChromium } from '../fixtures/chromium.mjs';
import { installPacked } from './helpers/packed';

const root = path.resolve(__dirname, '../..');
const mod = (name: string) => path.join(root, 'node_modules', name);

/** The app every bundle carries: module `client` by import, then one GET through Client. */
const APP = `import angular from 'angular';
import 'angular-client-rest/angular';
window.__trial = new Promise(function (resolve) {
  try {
    angular.module('app', ['client']).run(['Client', function (Client) {
      Client.setBaseUrl('/api');
      Client.one('items', 1).get().then(function (item) {
        resolve({ ok: item.name, url: item.getClientUrl() });
      }, function (e) { resolve({ failed: String(e && e.message) }); });
    }]);
    angular.bootstrap(document.body, ['app']);
  } catch (e) {
    resolve({ failed: String(e && e.message).split('\\n').slice(0, 2).join(' ') });
  }
});
`;
const html = (script: string, module = true) =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body><script ${module ? 'type="module" ' : ''}src="${script}"></script></body></html>\n`;

const vendor = "function (id) { if (id.includes('node_modules')) return 'vendor'; }";
const viteScript = (pkg: string, optionsKey: string, pages: string[], split: boolean) => `
import { build } from ${JSON.stringify(path.join(mod(pkg), 'dist/node/index.js'))};
await build({ root: process.cwd(), configFile: false, logLevel: 'error', base: './',
  build: { outDir: 'dist', minify: false, ${optionsKey}: { input: ${JSON.stringify(pages)}.map((p) => process.cwd() + '/' + p),
    output: ${split ? `{ manualChunks: ${vendor} }` : '{}'} } } });
`;

interface Case {
  name: string;
  /** Files of the project (paths relative to it). */
  files: Record<string, string>;
  /** The build script (an ES module run with node in the project), if any. */
  build?: string;
  /** Pages to open, relative to the project. */
  pages: string[];
}

const cases: Case[] = [
  { name: 'vite8-one-chunk', files: { 'index.html': html('./main.js'), 'main.js': APP }, build: viteScript('vite', 'rolldownOptions', ['index.html'], false), pages: ['dist/index.html'] },
  { name: 'vite8-vendor-chunk', files: { 'index.html': html('./main.js'), 'main.js': APP }, build: viteScript('vite', 'rolldownOptions', ['index.html'], true), pages: ['dist/index.html'] },
  {
    name: 'vite8-two-entries',
    // Each entry imports angular and the package itself: both land in a chunk the pages share.
    files: { 'a.html': html('./a.js'), 'b.html': html('./b.js'), 'a.js': APP, 'b.js': APP + "window.__page = 'b';\n" },
    build: viteScript('vite', 'rolldownOptions', ['a.html', 'b.html'], false),
    pages: ['dist/a.html', 'dist/b.html'],
  },
  { name: 'vite6-one-chunk', files: { 'index.html': html('./main.js'), 'main.js': APP }, build: viteScript('vite6', 'rollupOptions', ['index.html'], false), pages: ['dist/index.html'] },
  { name: 'vite6-vendor-chunk', files: { 'index.html': html('./main.js'), 'main.js': APP }, build: viteScript('vite6', 'rollupOptions', ['index.html'], true), pages: ['dist/index.html'] },
  {
    name: 'webpack5',
    files: { 'main.js': APP, 'dist/index.html': html('./main.js', false) },
    build: `
import webpack from ${JSON.stringify(path.join(mod('webpack'), 'lib/index.js'))};
webpack({ mode: 'development', devtool: false, context: process.cwd(), entry: './main.js',
  output: { path: process.cwd() + '/dist', filename: 'main.js' } }, (err, stats) => {
  if (err || stats.hasErrors()) { console.error(err || stats.toString('errors-only')); process.exit(1); }
});
`,
    pages: ['dist/index.html'],
  },
  {
    name: 'esbuild',
    files: { 'main.js': APP, 'dist/index.html': html('./main.js', false) },
    build: `
import { build } from ${JSON.stringify(path.join(mod('esbuild'), 'lib/main.js'))};
await build({ entryPoints: ['main.js'], bundle: true, format: 'iife', outfile: 'dist/main.js', logLevel: 'error' });
`,
    pages: ['dist/index.html'],
  },
  {
    name: 'script-tags',
    files: {
      'index.html': `<!doctype html><html><head><script src="../node_modules/angular/angular.js"></script><script src="../node_modules/angular-client-rest/dist/client.js"></script><script src="app.js"></script></head><body></body></html>\n`,
      'app.js': APP.replace(/^import .*\n/gm, ''),
    },
    pages: ['index.html'],
  },
];

let packed: { dir: string; remove(): void } | undefined;
let tmp = '';
let site: http.Server;
let origin = '';
let chromium: { browser: Browser; close(): Promise<void> };
const built = new Map<string, Promise<string>>();

/** Run `script` with node in `cwd`; resolves with '' or what it printed when it failed. */
function runNode(script: string, cwd: string): Promise<string> {
  fs.writeFileSync(path.join(cwd, 'build.mjs'), script);
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['build.mjs'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('close', (code) => resolve(code === 0 ? '' : `exit ${code}: ${out}`));
  });
}

beforeAll(async () => {
  packed = installPacked(['angular']);
  tmp = packed.dir;
  for (const c of cases) {
    const dir = path.join(tmp, c.name);
    for (const [f, text] of Object.entries(c.files)) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), text);
    }
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: c.name, private: true, type: 'module' }));
  }
  // Two builds at a time: each bundler is a process of its own, the machine is shared.
  let slots = 2;
  const waiting: (() => void)[] = [];
  const acquire = () => (slots > 0 ? (slots--, Promise.resolve()) : new Promise<void>((r) => waiting.push(r)));
  const release = () => (waiting.length ? waiting.shift()!() : slots++);
  for (const c of cases.filter((x) => x.build)) {
    built.set(c.name, acquire().then(() => runNode(c.build!, path.join(tmp, c.name))).finally(release));
  }
  site = http.createServer((req, res) => {
    const url = new URL(req.url || '/', 'http://127.0.0.1');
    if (url.pathname === '/api/items/1') return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":1,"name":"first"}');
    const file = path.join(tmp, decodeURIComponent(url.pathname));
    if (!file.startsWith(tmp + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': file.endsWith('.html') ? 'text/html' : 'text/javascript' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as any).port}`;
  chromium = await launchChromium();
}, 120000);

afterAll(async () => {
  await chromium?.close();
  await new Promise((r) => site?.close(r));
  packed?.remove();
});

/** Open `page` of case `name` in Chromium; resolves with what the app reported and the page errors. */
async function trial(name: string, page: string): Promise<{ result: any; errors: string[] }> {
  const p = await chromium.browser.newPage();
  const errors: string[] = [];
  p.on('pageerror', (e) => errors.push(String(e).split('\n')[0]));
  try {
    await p.goto(`${origin}/${name}/${page}`, { waitUntil: 'load' });
    const ready = await p.waitForFunction(() => (window as any).__trial, { timeout: 15000 }).then(() => true, () => false);
    return { result: ready ? await p.evaluate(() => (window as any).__trial) : 'the app did not start', errors };
  } finally {
    await p.close();
  }
}

describe('the packed package in bundled AngularJS apps, in Chromium', () => {
  for (const c of cases) {
    it(`${c.name}: module client is registered and Client makes its request`, async () => {
      if (c.build) expect(await built.get(c.name)).toBe('');
      for (const page of c.pages) {
        const { result, errors } = await trial(c.name, page);
        expect({ page, result, errors }).toEqual({ page, result: { ok: 'first', url: '/api/items/1' }, errors: [] });
      }
    }, 120000);
  }
});
