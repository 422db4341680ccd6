// @vitest-environment node
// Types for Node users (issue 23 item 2), on the built package (make build-client-lib first):
// the README's Node example type-checks with module nodenext from an ES module and from a .cts
// file, moduleResolution node10 finds angular-client-rest/node, and @arethetypeswrong/cli on the
// packed tarball reports no problem for node10, node16 (CJS and ESM) and bundler.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const attw = path.join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');
const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });

describe('types for Node users', () => {
  it('createClient({ baseUrl, cookieJar }) type-checks with module nodenext, from .mts and .cts', () => {
    const r = run([tsc, '-p', path.join(__dirname, 'types/tsconfig.nodenext.json')]);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);

  it('moduleResolution node10 resolves angular-client-rest and angular-client-rest/node', () => {
    const r = run([tsc, '-p', path.join(__dirname, 'types/tsconfig.node10.json')]);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);

  it('attw --pack: no problem for node10, node16 (CJS, ESM) and bundler', () => {
    // dist/client.js and client.min.js are <script> files (an IIFE that registers the AngularJS
    // module), not modules: they have no types by design and are left out.
    const r = run([attw, '--pack', 'client-lib', '--format', 'json', '--exclude-entrypoints', './dist/client.js', './dist/client.min.js']);
    const out = JSON.parse(r.stdout);
    const a = out.analysis;
    expect(a.problems).toEqual([]);
    expect(Object.keys(a.entrypoints).sort()).toEqual(['.', './angular', './node', './package.json']);
    const files = (sub: string) =>
      Object.fromEntries(Object.entries(a.entrypoints[sub].resolutions).map(([k, v]: [string, any]) => [k, v.resolution?.fileName?.replace(/^.*\/dist\//, '')]));
    expect(files('.')).toEqual({
      node10: 'types-cjs/client-lib/src/index.d.ts',
      'node16-cjs': 'types-cjs/client-lib/src/node.d.ts',
      'node16-esm': 'types/client-lib/src/node.d.ts',
      bundler: 'types/client-lib/src/index.d.ts',
    });
    expect(files('./node').node10).toBe('types-cjs/client-lib/src/node.d.ts');
    expect(r.status).toBe(0);
  }, 120000);
});
