#!/usr/bin/env node
// Client library vs Restangular 1.6.1, side by side in one jsdom window with angular 1.8 +
// angular-mocks ($httpBackend answers with JSON text, so both pay the same $http parsing).
//   (a) getList of 10,000 elements x 10 fields, until the promise resolves
//   (b) 1,000 x one('accounts', 1).get(), until all promises resolve; 5 rounds, each its own
//       ratio (the target is met in every round). Beside the two libraries, `$http` alone
//       (`$http({method, url}).then(r => r.data)`): the floor of any $http-based library.
// Median of 7 runs after one warm-up, the contestants taking turns in a new order each run
// (client-lib-measure.mjs `alternate`). Then a CPU profile (node:inspector) of client-lib's
// (b) runs: the share of the samples spent in the
// library's own code (self time in its bundle) against AngularJS $http/$q/$digest,
// angular-mocks and jsdom; per-call counts of what each contestant makes AngularJS do
// (client-lib-counts.mjs, a process of its own); and (b) again in headless Chromium
// (client-lib-chromium.mjs), where URL parsing is native. Prints one Markdown section on stdout.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import inspector from 'node:inspector';
import { BUNDLE_URL, alternate, clientBundle, jsdomWindow, median, oneGetRun, profileShares } from './client-lib-measure.mjs';
import { chromiumRounds } from './client-lib-chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (...a) => process.stderr.write(a.join(' ') + '\n');
const RUNS = 7;
const ROUNDS_B = 5;
const LIBS_B = ['restangular', 'client', 'http'];

const clientJs = await clientBundle();
const w = jsdomWindow(clientJs);
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

function runGetList(lib) {
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
const runOneGet = (lib) => oneGetRun(angular, lib, oneJson, 1000);
/** Case (b) with the process's CPU time beside the wall time (CPU time leaves out waiting for a core). */
function runOneGetCpu(lib) {
  const u0 = process.cpuUsage();
  const ms = runOneGet(lib);
  const u = process.cpuUsage(u0);
  return { ms, cpu: (u.user + u.system) / 1000 };
}

log(`client-lib bench: (a) getList x ${N}, Restangular and client alternating`);
const [a] = await alternate(['restangular', 'client'], 1, RUNS, runGetList);
const load0 = os.loadavg()[0];
const roundsB = await alternate(LIBS_B, ROUNDS_B, RUNS, runOneGetCpu, (round) => log(`client-lib bench: (b) 1000 x one().get(), round ${round} of ${ROUNDS_B} (jsdom)`));
const load1 = os.loadavg()[0];
const ratioA = a.restangular / a.client;
const ratiosB = roundsB.map((r) => r.restangular / r.client);
const floorsB = roundsB.map((r) => r.restangular / r.http);
const ratioB = Math.min(...ratiosB);
const med = (rounds, lib) => median(rounds.map((r) => r[lib]));

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
const shares = profileShares(profile, BUNDLE_URL);
log(`client-lib bench: (b) ratios ${ratiosB.map((x) => x.toFixed(2)).join(' ')}; own code ${(shares.own * 100).toFixed(1)}% of the samples`);
w.close();

log('client-lib bench: counting what each contestant makes AngularJS do (precise coverage)');
const counted = spawnSync(process.execPath, [path.join(here, 'client-lib-counts.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (counted.status !== 0) throw new Error('client-lib-counts.mjs failed (exit ' + counted.status + ')');
const counts = JSON.parse(counted.stdout);

const chromium = await chromiumRounds({ libs: LIBS_B, rounds: ROUNDS_B, runs: RUNS, json: oneJson, n: 1000, clientJs, onRound: (round) => log(`client-lib bench: (b) round ${round} of ${ROUNDS_B} (Chromium)`) });

const ms = (x) => x.toFixed(1) + ' ms';
const xs = (list) => list.map((x) => x.toFixed(1) + 'x').join(', ');
const pct = (x) => (x * 100).toFixed(1) + '%';
const ok = ratioA >= 10 && ratioB >= 3;
const floorMin = Math.min(...floorsB);
const countRow = (name, pick) => `| ${name} | ${LIBS_B.map((l) => pick(counts.libs[l])).join(' | ')} |`;
const countNames = Object.keys(counts.libs.client.counts);
let chromiumText;
if (chromium.error) chromiumText = `Not measured: ${chromium.error}.`;
else {
  const cr = chromium.rounds.map((r) => r.restangular / r.client);
  const cf = chromium.rounds.map((r) => r.restangular / r.http);
  const cpu = (lib) => ms(med(chromium.rounds, lib + ' cpu'));
  const cpuRatio = (lib) => xs(chromium.rounds.map((r) => r['restangular cpu'] / r[lib + ' cpu']));
  chromiumText = `| (b) in ${chromium.version} (headless), ${ROUNDS_B} rounds | ${ms(med(chromium.rounds, 'restangular'))} | ${ms(med(chromium.rounds, 'client'))} | ${xs(cr)} | ${ms(med(chromium.rounds, 'http'))} | ${xs(cf)} |
| (b) in Chromium, the same runs in the renderer's CPU time | ${cpu('restangular')} | ${cpu('client')} | ${cpuRatio('client')} | ${cpu('http')} | ${cpuRatio('http')} |

In Chromium, client-lib's own code is ${pct(chromium.shares.own)} of the samples of 3 more runs, the garbage collector ${pct(chromium.shares.gc)}.`;
}
process.stdout.write(`## Client library (client-lib) vs Restangular 1.6.1

jsdom 26 + angular ${angular.version.full} + angular-mocks (\`$httpBackend\` answers with JSON text); median of ${RUNS} runs after one warm-up, the contestants in the same window, taking turns in a new order each run (every rotation, then every reversed rotation), a fresh injector for every run.

| Case | Restangular 1.6.1 | client-lib | Ratio | Target |
|---|---|---|---|---|
| (a) \`all('accounts').getList()\` of ${N} elements x 10 fields, until resolved | ${ms(a.restangular)} | ${ms(a.client)} | ${ratioA.toFixed(1)}x | >= 10x ${ratioA >= 10 ? 'met' : 'NOT met'} |
| (b) 1,000 x \`one('accounts', 1).get()\`, until all resolved; ${ROUNDS_B} rounds, medians of the rounds | ${ms(med(roundsB, 'restangular'))} | ${ms(med(roundsB, 'client'))} | ${xs(ratiosB)} | >= 3x in every round: ${ratioB >= 3 ? 'met' : 'NOT met'} (lowest ${ratioB.toFixed(2)}x) |

${ok ? 'Both targets met.' : 'A target was not met in this run.'}

### (b): the floor, and the same case in a real browser

The machine's load average (1 min) was ${load0.toFixed(1)} when the jsdom rounds of (b) began and ${load1.toFixed(1)} when they ended, on ${os.cpus().length} cores: wall times on a shared machine move with it, CPU times less. \`$http\` alone is \`$http({ method: 'GET', url: '/accounts/1' }).then(r => r.data)\`, measured in the same rounds, the three taking turns: what any library that sends through \`$http\` pays at least, with no element made. Restangular over \`$http\` alone is the most any such library can show against Restangular in that round.

| Where | Restangular 1.6.1 | client-lib | Restangular / client-lib | \`$http\` alone | Restangular / \`$http\` alone |
|---|---|---|---|---|---|
| (b) in jsdom (the rounds above) | ${ms(med(roundsB, 'restangular'))} | ${ms(med(roundsB, 'client'))} | ${xs(ratiosB)} | ${ms(med(roundsB, 'http'))} | ${xs(floorsB)} |
| (b) in jsdom, the same runs in CPU time (user + system of the process) | ${ms(med(roundsB, 'restangular cpu'))} | ${ms(med(roundsB, 'client cpu'))} | ${xs(roundsB.map((r) => r['restangular cpu'] / r['client cpu']))} | ${ms(med(roundsB, 'http cpu'))} | ${xs(roundsB.map((r) => r['restangular cpu'] / r['http cpu']))} |
${chromiumText}

In jsdom, client-lib's own code is ${pct(shares.own)} of the samples of 3 more (b) runs (self time in its bundle: elements, URLs, the request config, filling \`$object\`), the garbage collector ${pct(shares.gc)}; the rest is AngularJS \`$http\`/\`$q\`/\`$digest\`, angular-mocks' \`$httpBackend\` and jsdom (\`$http\` resolves every URL through an anchor element, which jsdom parses again for each property read). ${floorMin < 3 ? `Even \`$http\` alone was under 3x Restangular in a jsdom round (lowest ${floorMin.toFixed(2)}x): there, 3x in every round is out of reach of any library on \`$http\`.` : `\`$http\` alone reached 3x Restangular in every jsdom round (lowest ${floorMin.toFixed(2)}x).`}

What each makes AngularJS do per \`get()\` (V8 precise coverage, call counts over ${counts.n} gets in jsdom; client-lib-counts.mjs):

| Calls per get | Restangular 1.6.1 | client-lib | \`$http\` alone |
|---|---|---|---|
${countNames.map((n) => countRow(`angular.js \`${n}\``, (x) => +x.counts[n].toFixed(2))).join('\n')}
${countRow('all angular.js functions', (x) => x.angularCalls.toFixed(0))}
${countRow("the library's own functions", (x) => x.ownCalls.toFixed(0))}
`);
