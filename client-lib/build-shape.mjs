// The shape of dist/ after esbuild and tsc (used by build.mjs): the ESM Node entry as a thin
// wrapper over the CommonJS one (undici and the engine bundled once, one instance of the
// library in a process), source maps whose sources are files of the package, and only the
// declarations the public entries reach.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

/**
 * dist/node.mjs: re-exports every name of dist/node.cjs (the same objects, so `instanceof` agrees).
 * `namesFrom`: the CommonJS file whose export names to list, when loading `cjsName` itself at
 * build time would have a side effect (dist/angular-node.cjs registers module `client`).
 */
export function writeEsmWrapper(dist, cjsName, mjsName, namesFrom = cjsName) {
  const names = Object.keys(createRequire(import.meta.url)(path.join(dist, namesFrom))).filter((n) => n !== '__esModule' && n !== 'default').sort();
  const text = [
    `// The Node entry as an ES module: the CommonJS build ${cjsName}, loaded once (undici bundled once).`,
    "import { createRequire } from 'node:module';",
    `const cjs = createRequire(import.meta.url)('./${cjsName}');`,
    `export const { ${names.join(', ')} } = cjs;`,
    'export default cjs;',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dist, mjsName), text);
  return names;
}

/**
 * Point the sources of each map at copies inside the package (`dist/sources/<path in the
 * repository>`), so they resolve where the package is installed (the TypeScript, not inlined).
 */
export function relocateSources(dist, repoRoot, mapNames) {
  for (const name of mapNames) {
    const file = path.join(dist, name);
    const map = JSON.parse(fs.readFileSync(file, 'utf8'));
    map.sources = map.sources.map((s) => {
      const abs = path.resolve(dist, map.sourceRoot || '', s);
      const rel = path.relative(repoRoot, abs);
      if (rel.startsWith('..')) throw new Error(`${name}: source outside the repository: ${s}`);
      const copy = path.join(dist, 'sources', rel);
      fs.mkdirSync(path.dirname(copy), { recursive: true });
      fs.copyFileSync(abs, copy);
      return path.relative(dist, copy).split(path.sep).join('/');
    });
    delete map.sourceRoot;
    delete map.sourcesContent;
    fs.writeFileSync(file, JSON.stringify(map));
  }
}

/** Delete the declarations no entry reaches (tsc emits one per file of the program). */
export function pruneDeclarations(typesDir, entries) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !fs.existsSync(file)) return;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      visit(path.resolve(path.dirname(file), m[1].replace(/\.js$/, '.d.ts')));
    }
  };
  for (const e of entries) visit(path.join(typesDir, e));
  const walk = (dir) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) {
        walk(p);
        if (!fs.readdirSync(p).length) fs.rmdirSync(p);
      } else if (!seen.has(p)) fs.rmSync(p);
    }
  };
  walk(typesDir);
}

/**
 * dist/angular.mjs and dist/angular.cjs (bundlers, the export conditions `import` and `require`):
 * the main entry, plus module `client` registered on the `angular` they import (issue 38: with a
 * global looked up at evaluation time instead, Rolldown's vendor chunks and shared chunks ran the
 * registration before angular's CommonJS code, and module `client` was silently missing). The
 * import makes every bundler run angular first; registerClientModule throws NO_ANGULAR when what
 * it gets is not AngularJS. src/angular-entry.ts is the same entry for the repository's tests.
 */
export function writeAngularEntries(dist) {
  const head = '// angular-client-rest/angular: the main entry, and module `client` registered on the angular it imports.\n';
  fs.writeFileSync(path.join(dist, 'angular.mjs'), head + "import angular from 'angular';\nimport { registerClientModule } from './index.mjs';\nexport * from './index.mjs';\nregisterClientModule(angular);\n");
  fs.writeFileSync(path.join(dist, 'angular.cjs'), head + "'use strict';\nconst m = require('./index.cjs');\nmodule.exports = m;\nm.registerClientModule(require('angular'));\n");
}

/**
 * dist/angular-node.cjs and .mjs (export condition `node`: jsdom unit tests, server-side
 * tools): module `client` registered over the Node entry dist/node.cjs, the one instance of the
 * library that `angular-client-rest` also resolves to in Node, so `err instanceof
 * ClientHttpError` holds whichever entry is imported first (the dual-package hazard, issue 38).
 * The angular already loaded (a global, as angular-mocks setups leave it) is taken first;
 * else `require('angular')` when there is a DOM; without one, registerClientModule throws
 * NO_ANGULAR. Call after node.cjs is built.
 */
export function writeAngularNodeEntries(dist) {
  const text = [
    '// angular-client-rest/angular in Node: dist/node.cjs (one instance with angular-client-rest), and module `client` registered.',
    "'use strict';",
    "const m = require('./node.cjs');",
    'module.exports = m;',
    'const g = globalThis;',
    "const loaded = g.angular && typeof g.angular.module === 'function' ? g.angular : undefined;",
    "m.registerClientModule(loaded || (typeof g.window === 'object' && g.window ? require('angular') : undefined));",
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dist, 'angular-node.cjs'), text);
  writeEsmWrapper(dist, 'angular-node.cjs', 'angular-node.mjs', 'node.cjs');
}

/**
 * dist/client.d.ts and client.min.d.ts: types for the <script> builds (issue 38: attw found none).
 * The scripts export nothing; they set the global `ClientLib`, which these declare, so
 * `import 'angular-client-rest/dist/client.js'` (or a `/// <reference path>` to the file) types
 * `ClientLib.createClient(...)`. Call after the declarations are emitted.
 */
export function writeScriptTypes(dist) {
  const text = [
    '// Types of the <script> build dist/client.js (and client.min.js): the global ClientLib it sets.',
    "import type * as lib from './types/client-lib/src/index.js';",
    '',
    'declare global {',
    '  /** Set by dist/client.js: the library without AngularJS, and registerClientModule for a later angular. */',
    '  var ClientLib: {',
    '    createClient: typeof lib.createClient;',
    '    fetchTransport: typeof lib.fetchTransport;',
    '    ClientError: typeof lib.ClientError;',
    '    ClientHttpError: typeof lib.ClientHttpError;',
    '    registerClientModule: typeof lib.registerClientModule;',
    '  };',
    '}',
    '',
    'export {};',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dist, 'client.d.ts'), text);
  fs.writeFileSync(path.join(dist, 'client.min.d.ts'), "// Types of dist/client.min.js: those of dist/client.js.\nimport './client.js';\n\nexport {};\n");
}
