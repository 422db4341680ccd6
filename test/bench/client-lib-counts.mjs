#!/usr/bin/env node
// What each contestant of case (b) makes AngularJS do per call, counted rather than timed: V8's
// precise coverage (call counts, node:inspector) over N x one('accounts', 1).get() in a fresh
// jsdom window, for Restangular 1.6.1, client-lib and `$http` alone. Coverage starts before any
// script is compiled (counts of code compiled earlier can be lost to inlining), so this runs in
// a process of its own: client-lib.bench.mjs spawns it and reads one JSON object on stdout:
//   { n, libs: { restangular|client|http: { counts: { name: calls per get }, angularCalls,
//     ownCalls } } }
// `ownCalls`: calls into the library's own scripts per get (restangular.js + lodash.js, or the
// client-lib bundle).
import inspector from 'node:inspector';
import path from 'node:path';
import { BUNDLE_URL, clientBundle, jsdomWindow, oneGetRun } from './client-lib-measure.mjs';

/** AngularJS functions counted (angular.js, by function name): promises, digests, $http's work. */
export const COUNTED = ['$http', 'defer', 'Deferred', 'then', '$digest', '$apply', 'copy', 'extend', 'mergeHeaders', 'transformData', 'urlResolve', 'fromJson'];
const N = 1000;

const session = new inspector.Session();
session.connect();
const post = (m, p) => new Promise((resolve, reject) => session.post(m, p, (e, r) => (e ? reject(e) : resolve(r))));
await post('Profiler.enable');
await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const w = jsdomWindow(await clientBundle());
const json = JSON.stringify({ id: 1, field1: 'value 1.1', field2: 'value 1.2', field3: 3 });
const libs = {};
for (const lib of ['restangular', 'client', 'http']) {
  oneGetRun(w.angular, lib, json, 10);
  await post('Profiler.takePreciseCoverage'); // resets the counts
  oneGetRun(w.angular, lib, json, N);
  const { result } = await post('Profiler.takePreciseCoverage');
  const counts = Object.fromEntries(COUNTED.map((name) => [name, 0]));
  let angularCalls = 0;
  let ownCalls = 0;
  for (const script of result) {
    const file = path.basename(script.url);
    const own = lib === 'client' ? file === BUNDLE_URL : lib === 'restangular' && (file === 'restangular.js' || file === 'lodash.js');
    for (const f of script.functions) {
      const calls = f.ranges[0].count;
      if (file === 'angular.js') {
        angularCalls += calls;
        if (Object.hasOwn(counts, f.functionName)) counts[f.functionName] += calls;
      } else if (own) ownCalls += calls;
    }
  }
  for (const k of Object.keys(counts)) counts[k] /= N;
  libs[lib] = { counts, angularCalls: angularCalls / N, ownCalls: ownCalls / N };
}
process.stdout.write(JSON.stringify({ n: N, libs }) + '\n');
w.close();
