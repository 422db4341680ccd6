import { defineConfig } from 'vitest/config';

// Every suite under test/ declares itself as a vitest project (test/<area>/vitest*.config.ts),
// so one `vitest run` here covers the engine and the client library.
export default defineConfig({
  test: {
    projects: ['test/*/vitest*.config.ts'],
  },
});
