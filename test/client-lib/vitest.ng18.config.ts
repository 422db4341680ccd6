import { defineProject } from 'vitest/config';

// The client library's suite on AngularJS 1.8.x (setup.ng18.ts loads angular + angular-mocks into jsdom).
export default defineProject({
  test: {
    name: 'client-lib-ng18',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/client-lib/**/*.test.ts'],
    environment: 'jsdom',
    environmentOptions: { jsdom: { url: 'http://localhost/' } },
    setupFiles: ['test/client-lib/setup.ng18.ts'],
    testTimeout: 20000,
    hookTimeout: 20000,
    // A directory per run for the results both AngularJS projects share (type checks run once),
    // and the run's shared servers (test/fixtures/shared-httpbin.ts).
    globalSetup: ['test/client-lib/global-setup.ts', 'test/fixtures/shared-servers-setup.ts'],
  },
});
