#!/usr/bin/env node
// Client library vs Restangular 1.6.1, side by side in one jsdom window with angular 1.8 +
// angular-mocks ($httpBackend answers with JSON text, so both pay the same $http parsing).
//   (a) getList of 10,000 elements x 10 fields, until the promise resolves
//   (b) 1,000 x one('accounts', 1).get(), until all promises resolve
// Median of 7 runs after one warm-up, the two libraries alternating run by run. Prints one
// Markdown section on stdout.
import { JSDOM } from 'jsdom';
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const log = (...a) => process.stderr.write(a.join(' ') + '\n');
const RUNS = 7;

const bundled = await build({ entryPoints: [path.join(root, 'client-lib/src/browser.ts')], bundle: true, format: 'iife', target: 'es2017', write: false, minify: true });
const clientJs = bundled.outputFiles[0].text;

const dom = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/', runScripts: 'outside-only' });
const w = dom.window;
for (const f of [require.resolve('angular/angular.js'), require.resolve('angular-mocks/angular-mocks.js'), require.resolve('lodash/lodash.js'), require.resolve('restangular/dist/restangular.js')]) {
  w.eval(fs.readFileSync(f, 'utf8'));
}
w.eval(clientJs);
const angular = w.angular;

function injector() {
  const $injector = angular.injector(['ng', 'ngMock', 'client', 'restangular']);
  return { $injector, $httpBackend: $injector.get('$httpBackend'), Client: $injector.get('Client'), Restangular: $injector.get('Restangular') };
}

const N = 10000;
const list = [];
for (let i = 1; i <= N; i++) {
  const o = { id: i };
  for (let f = 1; f < 10; f++) o['field' + f] = f % 3 === 0 ? i * f : 'value ' + i + '.' + f;
  list.push(o);
}
const listJson = JSON.stringify(list);
const oneJson = JSON.stringify(list[0]);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function runGetList(lib) {
  {
    const t = injector();
    t.$httpBackend.whenGET('/accounts').respond(200, listJson, { 'Content-Type': 'application/json' });
    const svc = lib === 'client' ? t.Client : t.Restangular;
    let got = null;
    const t0 = performance.now();
    svc.all('accounts').getList().then((v) => (got = v));
    t.$httpBackend.flush();
    const dt = performance.now() - t0;
    if (!got || got.length !== N || typeof got[5].put !== 'function') throw new Error(lib + ': getList did not resolve with ' + N + ' enhanced elements');
    return dt;
  }
}

function runOneGet(lib) {
  {
    const t = injector();
    t.$httpBackend.whenGET('/accounts/1').respond(200, oneJson, { 'Content-Type': 'application/json' });
    const svc = lib === 'client' ? t.Client : t.Restangular;
    let done = 0;
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) svc.one('accounts', 1).get().then((v) => { if (v.id === 1) done++; });
    t.$httpBackend.flush();
    const dt = performance.now() - t0;
    if (done !== 1000) throw new Error(lib + ': only ' + done + ' of 1000 gets resolved');
    return dt;
  }
}

// The two libraries alternate run by run, so that a change of machine load hits both alike.
const res = {};
const times = { restangularA: [], clientA: [], restangularB: [], clientB: [] };
for (const [kase, run] of [['A', runGetList], ['B', runOneGet]]) {
  log(`client-lib bench: (${kase === 'A' ? 'a' : 'b'}) ${kase === 'A' ? 'getList x ' + N : '1000 x one().get()'}, Restangular and client alternating`);
  for (let r = 0; r <= RUNS; r++) {
    for (const lib of r % 2 ? ['client', 'restangular'] : ['restangular', 'client']) {
      const dt = run(lib);
      if (r > 0) times[lib + kase].push(dt);
    }
  }
}
for (const k of Object.keys(times)) res[k] = median(times[k]);
const ratioA = res.restangularA / res.clientA;
const ratioB = res.restangularB / res.clientB;
const ms = (x) => x.toFixed(1) + ' ms';
const ok = ratioA >= 10 && ratioB >= 3;
process.stdout.write(`## Client library (client-lib) vs Restangular 1.6.1

jsdom 26 + angular ${angular.version.full} + angular-mocks (\`$httpBackend\` answers with JSON text); median of ${RUNS} runs after one warm-up, both libraries in the same window and alternating run by run, a fresh injector for every run.

| Case | Restangular 1.6.1 | client-lib | Ratio | Target |
|---|---|---|---|---|
| (a) \`all('accounts').getList()\` of ${N} elements x 10 fields, until resolved | ${ms(res.restangularA)} | ${ms(res.clientA)} | ${ratioA.toFixed(1)}x | >= 10x ${ratioA >= 10 ? 'met' : 'NOT met'} |
| (b) 1,000 x \`one('accounts', 1).get()\`, until all resolved | ${ms(res.restangularB)} | ${ms(res.clientB)} | ${ratioB.toFixed(1)}x | >= 3x ${ratioB >= 3 ? 'met' : 'NOT met'} |

${ok ? 'Both targets met.' : 'A target was not met in this run.'}
`);
w.close();
