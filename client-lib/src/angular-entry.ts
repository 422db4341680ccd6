/**
 * Entry `angular-client-rest/angular`: the whole surface of the main entry, and module `client`
 * registered on import when a global `angular` exists (after `import 'angular'`). The one
 * module entry with a side effect (package.json `sideEffects`); dist/angular.mjs and
 * dist/angular.cjs are this file over dist/index.mjs and dist/index.cjs (build-shape.mjs).
 */
import { registerClientModule } from './index.js';

export * from './index.js';

const g: any = typeof globalThis !== 'undefined' ? globalThis : undefined;
if (g && g.angular && typeof g.angular.module === 'function') registerClientModule(g.angular);
