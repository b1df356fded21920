import { defineConfig } from 'vitest/config';
import MarginsReporter from './scripts/test-margins/vitest-reporter.ts';

const testTimeout = 20_000;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'content/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['src/server/test/global-setup.ts'],
    setupFiles: ['src/server/test/setup-env.ts'],
    // Two cores here and in CI; integration tests open real databases and servers.
    maxWorkers: 2,
    // Test files in one worker share modules, so the geo databases (half a second to open) and the
    // page rendered from source are made once per worker, not once per file (decision 0034).
    // Nothing in src/ keeps state in a module that one file could leave behind for another: apps,
    // stores and registries are made per test.
    isolate: false,
    testTimeout,
    // After the usual report, the ten tests nearest their own time limits (issue 42).
    reporters: ['default', new MarginsReporter(testTimeout)],
    // A test app's set-up migrates a fresh database (and, first in a worker, opens the geo
    // databases and renders the page from source): seconds on a quiet machine, more when the two
    // cores are shared.
    hookTimeout: 30_000,
  },
});
