import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'shell-engine',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/shell-engine/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20000,
    hookTimeout: 20000,
    // The run's shared servers (test/fixtures/shared-httpbin.ts).
    globalSetup: ['test/fixtures/shared-servers-setup.ts'],
  },
});
