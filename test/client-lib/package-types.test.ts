// @vitest-environment node
// Types for Node users (issue 23 item 2), on the built package (make build-client-lib first):
// the README's Node example type-checks with module nodenext from an ES module and from a .cts
// file, moduleResolution node10 finds angular-client-rest/node, and @arethetypeswrong/cli on the
// packed tarball reports no problem for node10, node16 (CJS and ESM) and bundler.
// Each command runs once per vitest run, not once per AngularJS project (helpers/once-per-run.ts).
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { sharedCommands } from './helpers/once-per-run';

const root = path.resolve(__dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const attw = path.join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');
const run = sharedCommands([
  ...['nodenext', 'node10', 'script'].map((c) => ({ key: `package-types-${c}`, argv: [process.execPath, tsc, '-p', path.join(__dirname, `types/tsconfig.${c}.json`)], cwd: root })),
  { key: 'package-types-attw', argv: [process.execPath, attw, '--pack', 'client-lib', '--format', 'json'], cwd: root },
]);

describe('types for Node users', () => {
  it('createClient({ baseUrl, cookieJar }) type-checks with module nodenext, from .mts and .cts', async () => {
    const r = await run('package-types-nodenext');
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);

  it('moduleResolution node10 resolves angular-client-rest and angular-client-rest/node', async () => {
    const r = await run('package-types-node10');
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);

  it("the <script> build's global ClientLib is typed through import 'angular-client-rest/dist/client.js'", async () => {
    const r = await run('package-types-script');
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);

  it('attw --pack: types for every entry under node10, node16 (CJS, ESM) and bundler, the <script> builds included', async () => {
    // dist/client.js and client.min.js are <script> files that set the global ClientLib; their
    // types (dist/client.d.ts) declare that global (issue 38: attw found no types for them).
    const r = await run('package-types-attw');
    const out = JSON.parse(r.stdout);
    const a = out.analysis;
    // The one warning left is true: the scripts are files of a "type": "module" package, so
    // require() from CommonJS would load them as ES modules; they are for <script> tags.
    expect(a.problems).toEqual(['./dist/client.js', './dist/client.min.js'].map((entrypoint) => ({ kind: 'CJSResolvesToESM', entrypoint, resolutionKind: 'node16-cjs' })));
    expect(Object.keys(a.entrypoints).sort()).toEqual(['.', './angular', './dist/client.js', './dist/client.min.js', './node', './package.json']);
    for (const script of ['./dist/client.js', './dist/client.min.js']) {
      for (const [kind, v] of Object.entries(a.entrypoints[script].resolutions) as [string, any][]) expect(v.resolution?.isTypeScript, `${script} ${kind}`).toBe(true);
    }
    const files = (sub: string) =>
      Object.fromEntries(Object.entries(a.entrypoints[sub].resolutions).map(([k, v]: [string, any]) => [k, v.resolution?.fileName?.replace(/^.*\/dist\//, '')]));
    expect(files('.')).toEqual({
      node10: 'types-cjs/client-lib/src/index.d.ts',
      'node16-cjs': 'types-cjs/client-lib/src/node.d.ts',
      'node16-esm': 'types/client-lib/src/node.d.ts',
      bundler: 'types/client-lib/src/index.d.ts',
    });
    expect(files('./node').node10).toBe('types-cjs/client-lib/src/node.d.ts');
    // attw exits 1 when it lists a problem (the warning above).
    expect(r.status).toBe(1);
  }, 120000);
});
