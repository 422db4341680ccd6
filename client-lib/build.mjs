// Build dist/: the browser script (IIFE, angular as a global; client.min.js with its source map),
// the ES module, the CommonJS module, and .d.ts files.
//   node build.mjs
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pruneDeclarations, relocateSources, writeAngularEntries, writeAngularNodeEntries, writeEsmWrapper, writeScriptTypes } from './build-shape.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
fs.rmSync(dist, { recursive: true, force: true });
const common = { bundle: true, target: 'es2017', logLevel: 'warning', legalComments: 'none' };
// Browser-side builds carry source maps; their sources are copied into dist/sources (below).
const mapped = { ...common, sourcemap: true, sourcesContent: false };
await build({ ...mapped, entryPoints: [path.join(here, 'src/browser.ts')], outfile: path.join(dist, 'client.js'), format: 'iife', banner: { js: '/* angular-client-rest: module `client` (Client, ClientProvider). MIT */' } });
await build({ ...mapped, entryPoints: [path.join(here, 'src/browser.ts')], outfile: path.join(dist, 'client.min.js'), format: 'iife', minify: true });
// process.env.NODE_ENV left for the app's bundler to set (esbuild would fix it to "development").
await build({ ...mapped, entryPoints: [path.join(here, 'src/index.ts')], outfile: path.join(dist, 'index.mjs'), format: 'esm', define: { 'process.env.NODE_ENV': 'process.env.NODE_ENV' } });
// require('angular-client-rest') on every Node of "engines" (and bundlers that pick "require").
await build({ ...mapped, entryPoints: [path.join(here, 'src/index.ts')], outfile: path.join(dist, 'index.cjs'), format: 'cjs', platform: 'neutral' });
relocateSources(dist, path.resolve(here, '..'), ['client.js.map', 'client.min.js.map', 'index.mjs.map', 'index.cjs.map']);
writeAngularEntries(dist);
// The Node entry (package export condition `node`): the engine's HTTP layer (undici, the cookie
// jar) bundled in, so the package needs no dependencies; the browser builds above never import it.
// One bundle (CommonJS, unminified, no map: undici's sources would triple it); node.mjs wraps it.
await build({ ...common, entryPoints: [path.join(here, 'src/node.ts')], platform: 'node', target: 'node18', outfile: path.join(dist, 'node.cjs'), format: 'cjs' });
writeEsmWrapper(dist, 'node.cjs', 'node.mjs');
writeAngularNodeEntries(dist);
const tsc = path.resolve(here, '../node_modules/typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json'), '--emitDeclarationOnly'], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
pruneDeclarations(path.join(dist, 'types'), ['client-lib/src/index.d.ts', 'client-lib/src/node.d.ts', 'client-lib/src/angular-entry.d.ts']);
// The same declarations for require(): a package.json of "type": "commonjs" makes TypeScript
// read them as CommonJS (the package itself is "type": "module", which makes dist/types ESM).
fs.cpSync(path.join(dist, 'types'), path.join(dist, 'types-cjs'), { recursive: true });
fs.writeFileSync(path.join(dist, 'types-cjs/package.json'), '{ "type": "commonjs" }\n');
writeScriptTypes(dist);
