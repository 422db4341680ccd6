// How the client-lib benchmark runs and measures case (b), 1,000 x one('accounts', 1).get()
// until every promise resolves: the case as one self-contained function (client-lib.bench.mjs
// calls it in Node on jsdom's `angular`, client-lib-chromium.mjs hands its source to headless
// Chromium, so both columns time the same code), the jsdom window both the bench and
// client-lib-counts.mjs load, the alternation of the contestants, and a CPU profile's split.
import { JSDOM } from 'jsdom';
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The scripts of the page, in order: AngularJS 1.8, angular-mocks, lodash, Restangular 1.6.1. */
export const PAGE_SCRIPTS = ['angular/angular.js', 'angular-mocks/angular-mocks.js', 'lodash/lodash.js', 'restangular/dist/restangular.js'].map((m) => require.resolve(m));
/** The name the library's bundle is evaluated under, so a CPU profile tells its code apart. */
export const BUNDLE_URL = 'client-lib-bundle.js';

/** client-lib/src/browser.ts as the minified browser script (what dist/client.min.js holds). */
export async function clientBundle() {
  const out = await build({ entryPoints: [path.join(root, 'client-lib/src/browser.ts')], bundle: true, format: 'iife', target: 'es2017', write: false, minify: true });
  return out.outputFiles[0].text + '\n//# sourceURL=' + BUNDLE_URL;
}

/** A jsdom window (http://localhost/) with PAGE_SCRIPTS and `clientJs` evaluated in it. */
export function jsdomWindow(clientJs) {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/', runScripts: 'outside-only' });
  for (const f of PAGE_SCRIPTS) dom.window.eval(fs.readFileSync(f, 'utf8') + '\n//# sourceURL=' + path.basename(f));
  dom.window.eval(clientJs);
  return dom.window;
}

/**
 * The share of a V8 CPU profile's samples (idle and "(program)" left out) whose self time is in
 * a script whose URL ends with `urlSuffix`, and in the garbage collector. `{ own, gc }`, 0..1.
 */
export function profileShares(profile, urlSuffix) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let own = 0;
  let gc = 0;
  let all = 0;
  for (const id of profile.samples) {
    const f = byId.get(id).callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    all++;
    if (f.url.endsWith(urlSuffix)) own++;
    else if (f.functionName === '(garbage collector)') gc++;
  }
  return { own: own / all, gc: gc / all };
}

/**
 * One run of case (b) in a fresh injector (angular + angular-mocks, modules `client` and
 * `restangular` loaded), `$httpBackend` answering `json` (text) for GET /accounts/1.
 * `lib`: 'client', 'restangular', or 'http': `$http` alone (`$http({method, url}).then(r =>
 * r.data)`), the floor any `$http`-based library pays. Returns the wall time in ms from the
 * first call to the end of `$httpBackend.flush()` (`performance.now()` of the window). Throws if
 * a promise did not resolve with the element.
 */
export function oneGetRun(angular, lib, json, n) {
  const $injector = angular.injector(['ng', 'ngMock', 'client', 'restangular']);
  const $httpBackend = $injector.get('$httpBackend');
  $httpBackend.whenGET('/accounts/1').respond(200, json, { 'Content-Type': 'application/json' });
  let done = 0;
  const check = (v) => {
    if (v.id === 1) done++;
  };
  let t0;
  if (lib === 'http') {
    const $http = $injector.get('$http');
    const data = (r) => r.data;
    t0 = performance.now();
    for (let i = 0; i < n; i++) $http({ method: 'GET', url: '/accounts/1' }).then(data).then(check);
  } else {
    const svc = $injector.get(lib === 'client' ? 'Client' : 'Restangular');
    t0 = performance.now();
    for (let i = 0; i < n; i++) svc.one('accounts', 1).get().then(check);
  }
  $httpBackend.flush();
  const dt = performance.now() - t0;
  if (done !== n) throw new Error(lib + ': only ' + done + ' of ' + n + ' gets resolved');
  return dt;
}

/** The median of a list of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * `rounds` rounds of `runs` runs of `run(lib)` for each of `libs` after one warm-up, in a new
 * order each run: every rotation of `libs`, then every rotation of it reversed (for two: A B,
 * B A; for three: A B C, B C A, C A B, C B A, B A C, A C B), so that each contestant runs
 * right after each other one equally often (a change of machine load, and the garbage one leaves
 * to the next, fall on all alike; a rotation alone would put C after A every time). `run`
 * returns ms (or `{ ms, cpu }`) and may be async. Returns per round the medians,
 * `{ [lib]: ms }`, and, when `run` gives `cpu`, `{ [lib + ' cpu']: ms }` too.
 */
export async function alternate(libs, rounds, runs, run, onRound = () => {}) {
  const rotations = (list) => list.map((_, k) => list.slice(k).concat(list.slice(0, k)));
  const orders = libs.length > 2 ? rotations(libs).concat(rotations([...libs].reverse())) : rotations(libs);
  const out = [];
  for (let round = 1; round <= rounds; round++) {
    onRound(round);
    const t = {};
    for (let r = 0; r <= runs; r++) {
      for (const lib of orders[r % orders.length]) {
        const got = await run(lib);
        if (r === 0) continue;
        for (const [key, v] of typeof got === 'number' ? [[lib, got]] : [[lib, got.ms], [lib + ' cpu', got.cpu]]) (t[key] ??= []).push(v);
      }
    }
    out.push(Object.fromEntries(Object.entries(t).map(([key, v]) => [key, median(v)])));
  }
  return out;
}
