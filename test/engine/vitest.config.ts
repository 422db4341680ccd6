import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'engine',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/engine/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20000,
    hookTimeout: 20000,
    // Builds engine/dist/engine.cjs (the stdio server the RPC tests spawn); the run's shared
    // servers (test/fixtures/shared-httpbin.ts).
    globalSetup: ['test/engine/global-setup.ts', 'test/fixtures/shared-servers-setup.ts'],
  },
});
