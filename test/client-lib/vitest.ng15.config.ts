import { defineProject } from 'vitest/config';

// The client library's suite on AngularJS 1.5.x (setup.ng15.ts loads angular15 + angular-mocks15 into jsdom).
export default defineProject({
  test: {
    name: 'client-lib-ng15',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/client-lib/**/*.test.ts'],
    // The packed package with the repository's angular 1.8, whatever the project: run once (client-lib-ng18).
    exclude: ['test/client-lib/bundlers.test.ts', 'test/client-lib/dual-package.test.ts'],
    environment: 'jsdom',
    environmentOptions: { jsdom: { url: 'http://localhost/' } },
    setupFiles: ['test/client-lib/setup.ng15.ts'],
    testTimeout: 20000,
    hookTimeout: 20000,
    // A directory per run for the results both AngularJS projects share (type checks run once),
    // and the run's shared servers (test/fixtures/shared-httpbin.ts).
    globalSetup: ['test/client-lib/global-setup.ts', 'test/fixtures/shared-servers-setup.ts'],
  },
});
