// @vitest-environment node
// The published package (make test builds dist/ first): require() and import on Node, the
// "engines" it claims, and the source map of client.min.js.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(__dirname, '../..');
const pkgDir = path.join(root, 'client-lib');
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const node = (args: string[]) => spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });

describe('package angular-client-rest', () => {
  it('says which Node it needs, and this Node is one of them', () => {
    const min = /^>=(\d+)$/.exec(pkg.engines.node);
    expect(min).not.toBeNull();
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(Number(min![1]));
    // createClient's default is the global fetch, which Node has from 18 on.
    expect(Number(min![1])).toBeGreaterThanOrEqual(18);
  });

  it('require() resolves through "exports" to a CommonJS build with the whole surface', () => {
    expect(pkg.exports['.'].require.default).toBe('./dist/index.cjs');
    const r = node(['-e', "const m = require('angular-client-rest'); const c = m.createClient({ baseUrl: 'http://127.0.0.1:1' }); process.stdout.write([typeof m.registerClientModule, typeof c.all('x').getList, m.ClientHttpError.name].join(' '))"]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('function function ClientHttpError');
  });

  it('import resolves to the ES module with the same surface', () => {
    const r = node(['--input-type=module', '-e', "const m = await import('angular-client-rest'); process.stdout.write(Object.keys(m).sort().join(','))"]);
    expect(r.stderr).toBe('');
    expect(r.stdout.split(',')).toEqual(expect.arrayContaining(['createClient', 'registerClientModule', 'ClientError', 'ClientHttpError', 'fetchTransport']));
  });

  it('client.min.js ships a source map that points back to the TypeScript sources', () => {
    const min = fs.readFileSync(path.join(pkgDir, 'dist/client.min.js'), 'utf8');
    expect(min.trimEnd().endsWith('//# sourceMappingURL=client.min.js.map')).toBe(true);
    const map = JSON.parse(fs.readFileSync(path.join(pkgDir, 'dist/client.min.js.map'), 'utf8'));
    expect(map.version).toBe(3);
    expect(map.sources.some((s: string) => s.endsWith('src/core/requests.ts'))).toBe(true);
    // The TypeScript ships beside the map (dist/sources), so the sources resolve where installed.
    for (const s of map.sources) expect(fs.existsSync(path.join(pkgDir, 'dist', s)), s).toBe(true);
    expect(pkg.files).toContain('dist/');
  });
});
