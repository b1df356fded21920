import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['src/server/test/global-setup.ts'],
    setupFiles: ['src/server/test/setup-env.ts'],
    // Two cores here and in CI; integration tests open real databases and servers.
    maxWorkers: 2,
    testTimeout: 20_000,
    // A test app's set-up migrates a fresh database and opens the geo databases: seconds on a
    // quiet machine, more when the two cores are shared.
    hookTimeout: 30_000,
  },
});
