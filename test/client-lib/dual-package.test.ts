// @vitest-environment node
// One instance of the library per Node process (issue 38 item 3): an AngularJS unit test under
// jsdom imports `angular-client-rest/angular` (module `client`) and the error classes from
// `angular-client-rest`; both must be the Node entry's, whichever comes first, from ES modules
// and from require(), or `err instanceof ClientHttpError` is false (the dual-package hazard).
// And the angular entry without any AngularJS says so at once (item 1) instead of registering
// nothing. From the packed package, in plain Node processes, with angular and angular-mocks
// evaluated in a jsdom window as <script> tags (and jsdom-based test setups) load them.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { installPacked } from './helpers/packed';

let packed: { dir: string; remove(): void };

beforeAll(() => {
  packed = installPacked(['angular', 'angular-mocks', 'jsdom']);
}, 60000);
afterAll(() => packed?.remove());

/** Lines that put a jsdom window, angular and angular-mocks on globalThis (as vitest's jsdom environment and <script> tags do). */
const DOM = `const { JSDOM } = require('jsdom');
const dom = new JSDOM('<!doctype html><body></body>', { url: 'http://127.0.0.1/', runScripts: 'outside-only' });
globalThis.window = dom.window; globalThis.document = dom.window.document;
for (const f of ['angular/angular.js', 'angular-mocks/angular-mocks.js']) dom.window.eval(require('fs').readFileSync(require.resolve(f), 'utf8'));
globalThis.angular = dom.window.angular;`;

/** A 404 through Client with $httpBackend; prints whether the rejection is the main entry's ClientHttpError. */
const TRIAL = `const inj = angular.injector(['ng', 'ngMock', 'client']);
const Client = inj.get('Client'), HB = inj.get('$httpBackend');
HB.whenGET('/users/1').respond(404, {});
let err; Client.one('users', 1).get().catch((e) => { err = e; }); HB.flush();
process.stdout.write([err && err.code, err instanceof main.ClientHttpError, err instanceof main.ClientError].join(' '));`;

function run(file: string, text: string) {
  fs.writeFileSync(path.join(packed.dir, file), text);
  return spawnSync(process.execPath, [file], { cwd: packed.dir, encoding: 'utf8' });
}

const cases: [string, string, string][] = [
  ['ES modules, angular entry first', 'esm-angular-first.mjs', `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${DOM}\nawait import('angular-client-rest/angular');\nconst main = await import('angular-client-rest');\n${TRIAL}`],
  ['ES modules, main entry first', 'esm-main-first.mjs', `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${DOM}\nconst main = await import('angular-client-rest');\nawait import('angular-client-rest/angular');\n${TRIAL}`],
  ['require(), angular entry first', 'cjs-angular-first.cjs', `${DOM}\nrequire('angular-client-rest/angular');\nconst main = require('angular-client-rest');\n${TRIAL}`],
  ['require(), main entry first', 'cjs-main-first.cjs', `${DOM}\nconst main = require('angular-client-rest');\nrequire('angular-client-rest/angular');\n${TRIAL}`],
  ['import of the main entry, require() of the angular entry', 'mixed.mjs', `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${DOM}\nconst main = await import('angular-client-rest');\nrequire('angular-client-rest/angular');\n${TRIAL}`],
];

describe('the packed package in Node: one instance of the library', () => {
  for (const [name, file, text] of cases) {
    it(`${name}: a failed request rejects with the main entry's ClientHttpError`, () => {
      const r = run(file, text);
      expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: 'HTTP_ERROR true true', stderr: '' });
    });
  }

  it('angular-client-rest/angular with no AngularJS (no DOM, no global angular) throws NO_ANGULAR on import, naming what to load', () => {
    const r = run('no-angular.mjs', "await import('angular-client-rest/angular').then(() => process.stdout.write('registered nothing'), (e) => process.stdout.write(e.code + ': ' + e.message));");
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^NO_ANGULAR: module 'client' cannot be registered: expected AngularJS's angular object, got undefined; load AngularJS first/);
  });
});
