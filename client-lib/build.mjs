// Build dist/: the browser script (IIFE, angular as a global; client.min.js with its source map),
// the ES module, the CommonJS module, and .d.ts files.
//   node build.mjs
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
fs.rmSync(dist, { recursive: true, force: true });
const common = { bundle: true, target: 'es2017', logLevel: 'warning', legalComments: 'none' };
await build({ ...common, entryPoints: [path.join(here, 'src/browser.ts')], outfile: path.join(dist, 'client.js'), format: 'iife', banner: { js: '/* angular-client-rest: module `client` (Client, ClientProvider). MIT */' } });
await build({ ...common, entryPoints: [path.join(here, 'src/browser.ts')], outfile: path.join(dist, 'client.min.js'), format: 'iife', minify: true, sourcemap: true, sourcesContent: true });
await build({ ...common, entryPoints: [path.join(here, 'src/index.ts')], outfile: path.join(dist, 'index.mjs'), format: 'esm' });
// require('angular-client-rest') on every Node of "engines" (and bundlers that pick "require").
await build({ ...common, entryPoints: [path.join(here, 'src/index.ts')], outfile: path.join(dist, 'index.cjs'), format: 'cjs', platform: 'neutral' });
// The Node entry (package export condition `node`): the engine's HTTP layer (undici, the cookie
// jar) bundled in, so the package needs no dependencies; the browser builds above never import it.
const nodeCommon = { ...common, entryPoints: [path.join(here, 'src/node.ts')], platform: 'node', target: 'node18' };
await build({ ...nodeCommon, outfile: path.join(dist, 'node.mjs'), format: 'esm', banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" } });
await build({ ...nodeCommon, outfile: path.join(dist, 'node.cjs'), format: 'cjs' });
const tsc = path.resolve(here, '../node_modules/typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json'), '--emitDeclarationOnly'], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
// The same declarations for require(): a package.json of "type": "commonjs" makes TypeScript
// read them as CommonJS (the package itself is "type": "module", which makes dist/types ESM).
fs.cpSync(path.join(dist, 'types'), path.join(dist, 'types-cjs'), { recursive: true });
fs.writeFileSync(path.join(dist, 'types-cjs/package.json'), '{ "type": "commonjs" }\n');
