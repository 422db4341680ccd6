/**
 * Entry `angular-client-rest/angular`: the whole surface of the main entry, and module `client`
 * registered on import. The one module entry with a side effect (package.json `sideEffects`).
 * The built entries are this file with the `angular` they register on taken by import, so every
 * bundler runs angular before the registration whatever its chunks (build-shape.mjs:
 * dist/angular.mjs and .cjs over dist/index.*, dist/angular-node.* over dist/node.cjs in Node).
 * This source, used by the repository's own tests, takes the global that their setup loads.
 * @throws ClientError `NO_ANGULAR` on import when there is no AngularJS to register on.
 */
import { registerClientModule } from './index.js';

export * from './index.js';

registerClientModule((globalThis as any).angular);
