#!/usr/bin/env node
// Client library vs Restangular 1.6.1, side by side in one jsdom window with angular 1.8 +
// angular-mocks ($httpBackend answers with JSON text, so both pay the same $http parsing).
//   (a) getList of 10,000 elements x 10 fields, until the promise resolves
//   (b) 1,000 x one('accounts', 1).get(), until all promises resolve; 5 rounds, each its own
//       ratio (the target is met in every round)
// Median of 7 runs after one warm-up, the two libraries alternating run by run. Then a CPU
// profile (node:inspector) of client-lib's (b) runs: the share of the samples spent in the
// library's own code (self time in its bundle) against AngularJS $http/$q/$digest,
// angular-mocks and jsdom. Prints one Markdown section on stdout.
import { JSDOM } from 'jsdom';
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import inspector from 'node:inspector';

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
// Named, so that the profile tells the library's own code from angular's.
w.eval(clientJs + '\n//# sourceURL=client-lib-bundle.js');
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
const ROUNDS_B = 5;
const res = {};
const times = { restangularA: [], clientA: [] };
const roundsB = [];
/** RUNS runs of `run` for each library after a warm-up, alternating; the medians. */
function measure(run) {
  const t = { restangular: [], client: [] };
  for (let r = 0; r <= RUNS; r++) {
    for (const lib of r % 2 ? ['client', 'restangular'] : ['restangular', 'client']) {
      const dt = run(lib);
      if (r > 0) t[lib].push(dt);
    }
  }
  return { restangular: median(t.restangular), client: median(t.client) };
}
log(`client-lib bench: (a) getList x ${N}, Restangular and client alternating`);
const a = measure(runGetList);
res.restangularA = a.restangular;
res.clientA = a.client;
for (let round = 1; round <= ROUNDS_B; round++) {
  log(`client-lib bench: (b) 1000 x one().get(), round ${round} of ${ROUNDS_B}`);
  roundsB.push(measure(runOneGet));
}
const ratioA = res.restangularA / res.clientA;
const ratiosB = roundsB.map((r) => r.restangular / r.client);
const ratioB = Math.min(...ratiosB);
res.restangularB = median(roundsB.map((r) => r.restangular));
res.clientB = median(roundsB.map((r) => r.client));

// Where client-lib's (b) time goes: 3 runs under the V8 sampling profiler.
const session = new inspector.Session();
session.connect();
const post = (m, p) => new Promise((resolve, reject) => session.post(m, p, (e, r) => (e ? reject(e) : resolve(r))));
await post('Profiler.enable');
await post('Profiler.setSamplingInterval', { interval: 200 });
await post('Profiler.start');
for (let i = 0; i < 3; i++) runOneGet('client');
const { profile } = await post('Profiler.stop');
session.disconnect();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
let ownSamples = 0;
let runSamples = 0;
for (const id of profile.samples) {
  const n = byId.get(id);
  if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') continue;
  runSamples++;
  if (n.callFrame.url.endsWith('client-lib-bundle.js')) ownSamples++;
}
const ownShare = ownSamples / runSamples;
log(`client-lib bench: (b) ratios ${ratiosB.map((x) => x.toFixed(2)).join(' ')}; own code ${(ownShare * 100).toFixed(1)}% of the samples`);
const ms = (x) => x.toFixed(1) + ' ms';
const ok = ratioA >= 10 && ratioB >= 3;
process.stdout.write(`## Client library (client-lib) vs Restangular 1.6.1

jsdom 26 + angular ${angular.version.full} + angular-mocks (\`$httpBackend\` answers with JSON text); median of ${RUNS} runs after one warm-up, both libraries in the same window and alternating run by run, a fresh injector for every run.

| Case | Restangular 1.6.1 | client-lib | Ratio | Target |
|---|---|---|---|---|
| (a) \`all('accounts').getList()\` of ${N} elements x 10 fields, until resolved | ${ms(res.restangularA)} | ${ms(res.clientA)} | ${ratioA.toFixed(1)}x | >= 10x ${ratioA >= 10 ? 'met' : 'NOT met'} |
| (b) 1,000 x \`one('accounts', 1).get()\`, until all resolved; ${ROUNDS_B} rounds, medians of the rounds | ${ms(res.restangularB)} | ${ms(res.clientB)} | ${ratiosB.map((x) => x.toFixed(1) + 'x').join(', ')} | >= 3x in every round: ${ratioB >= 3 ? 'met' : 'NOT met'} (lowest ${ratioB.toFixed(2)}x) |

Where client-lib's time in (b) goes (a V8 CPU profile of 3 more runs, self time): ${(ownShare * 100).toFixed(1)}% in the library's own code (enhancing elements, URLs, the request config, filling \`$object\`); the rest in AngularJS \`$http\`/\`$q\`/\`$digest\`, angular-mocks' \`$httpBackend\` and jsdom (\`$http\` resolves every URL through an anchor element, which jsdom parses again for each property read), which Restangular pays alike. With its own code at nothing, client-lib's (b) would take ${ms(res.clientB * (1 - ownShare))}: a ratio of ${(res.restangularB / (res.clientB * (1 - ownShare))).toFixed(1)}x on these medians, the most this case can show.

${ok ? 'Both targets met.' : 'A target was not met in this run.'}
`);
w.close();
