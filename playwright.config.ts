import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';
import { e2eDatabaseName, e2eDatabaseUrl } from './e2e/postgres-database.ts';
import { chromiumFlags, chromiumPath } from './scripts/chromium.ts';

// The server the browser tests run against: the production build (`npm run build` makes dist/;
// `npm test` builds before it runs these tests, so this config never builds). Every setting the
// server is started with lives here; add database / mail outbox settings to this object.
// E2E_PORT lets two checkouts on one machine run their browser tests side by side.
const PORT = Number(process.env.E2E_PORT ?? 4173);
const HOST = '127.0.0.1';
const BASE_URL = `http://${HOST}:${PORT}`;
// The PostgreSQL twin's port: far enough from E2E_PORT that checkouts given neighbouring ports
// do not collide.
const PG_PORT = Number(process.env.E2E_PG_PORT ?? PORT + 100);
const PG_BASE_URL = `http://${HOST}:${PG_PORT}`;
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: { executablePath: chromiumPath, args: chromiumFlags },
};

// The server's data lives in .e2e-data/ (emptied by the start command below): its own SQLite
// file and an outbox of .eml files the sign-up tests read the confirmation links from.
// A run on its own E2E_PORT has folders of its own too: two runs in one checkout must not empty
// each other's database and outbox.
const dataSuffix = process.env.E2E_PORT ? `-${PORT}` : '';
export const E2E_DATA_DIR = `.e2e-data${dataSuffix}`;
export const E2E_OUTBOX_DIR = `${E2E_DATA_DIR}/outbox`;

// With TEST_POSTGRES_URL set (CI sets it), the console's tests run a second time against a second
// server on PostgreSQL: a database of its own on that server, made by the start command and
// dropped after the run (e2e/postgres-database.ts). Playwright's workers load this file again;
// the name the runner chose reaches them through the environment.
const postgresUrl = process.env.TEST_POSTGRES_URL || undefined;
process.env.E2E_PG_DATABASE ??= e2eDatabaseName(Date.now());
if (!postgresUrl && !process.env.E2E_PG_SKIP_SAID) {
  process.env.E2E_PG_SKIP_SAID = '1';
  console.log(
    "The console's browser tests on PostgreSQL are SKIPPED: TEST_POSTGRES_URL is not set (CI sets it; e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npx playwright test).",
  );
}
const PG_DATA_DIR = `.e2e-data-pg${dataSuffix}`;
// The servers' data key (stored secrets are encrypted under it): one per run, reaching the
// workers through the environment like the database name, so the tests' seeding helpers
// (e2e/e2e-target.ts) seal operators' secrets as the servers will open them.
process.env.E2E_DATA_KEY ??= randomBytes(32).toString('base64');

/** What a test needs to reach its project's server behind the browser: its database and outbox. */
export interface E2eTarget {
  databaseUrl: string;
  outboxDir: string;
}

const sqliteTarget: E2eTarget = { databaseUrl: `sqlite:${E2E_DATA_DIR}/dh.sqlite`, outboxDir: E2E_OUTBOX_DIR };
const postgresTarget: E2eTarget | null = postgresUrl
  ? { databaseUrl: e2eDatabaseUrl(postgresUrl, process.env.E2E_PG_DATABASE), outboxDir: `${PG_DATA_DIR}/outbox` }
  : null;

const serverEnv: Record<string, string> = {
  PORT: String(PORT),
  HOST,
  PUBLIC_URL: BASE_URL,
  LOG_LEVEL: 'warn',
  DATABASE_URL: sqliteTarget.databaseUrl,
  OUTBOX_DIR: sqliteTarget.outboxDir,
  // Playwright types faster than any person; the time trap has its own integration tests.
  SIGNUP_MIN_FILL_SECONDS: '0',
  // Every browser test posts from 127.0.0.1; the rate limit has its own integration test.
  SIGNUP_RATE_LIMIT: '1000',
  // The console's tests each sign in from their own X-Forwarded-For address, so one test's failed
  // sign-ins (the back-off counts per client) never lock out another's.
  TRUST_PROXY: 'true',
  // Slow enough that the broadcast test can pause a send in the middle, fast enough to finish in
  // seconds.
  MAIL_RATE_PER_SEC: '4',
  DATA_KEY: process.env.E2E_DATA_KEY,
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  // One worker per core this run may use, two at most (this machine and CI have two): on one core,
  // two browsers took turns and a 15 s journey took 59 s of its 60 (issue 42).
  workers: Math.min(2, availableParallelism()),
  retries: 0,
  forbidOnly: !!process.env.CI,
  // After the list, the ten tests nearest their own time limits (issue 42).
  reporter: [['list'], ['./scripts/test-margins/playwright-reporter.ts']],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'chromium', use: { ...chromium, baseURL: BASE_URL }, metadata: sqliteTarget },
    // Only the console's tests: the public page's do not touch the database differently.
    ...(postgresTarget
      ? [
          {
            name: 'chromium-postgres',
            testMatch: /admin-.*\.spec\.ts$/,
            use: { ...chromium, baseURL: PG_BASE_URL },
            metadata: postgresTarget,
          },
        ]
      : []),
  ],
  ...(postgresTarget ? { globalTeardown: './e2e/postgres-database.ts' } : {}),
  webServer: [
    {
      command: `rm -rf ${E2E_DATA_DIR} && node dist/server/main.js`,
      url: `${BASE_URL}/`,
      env: serverEnv,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    ...(postgresTarget
      ? [
          {
            command: `rm -rf ${PG_DATA_DIR} && node --import tsx e2e/postgres-database.ts create && node dist/server/main.js`,
            url: `${PG_BASE_URL}/`,
            env: {
              ...serverEnv,
              PORT: String(PG_PORT),
              PUBLIC_URL: PG_BASE_URL,
              DATABASE_URL: postgresTarget.databaseUrl,
              OUTBOX_DIR: postgresTarget.outboxDir,
              // With PostgreSQL the ledger file would default to data/: the run's own folder instead.
              ERASURE_LEDGER: `${PG_DATA_DIR}/erasure-ledger`,
            },
            reuseExistingServer: false,
            timeout: 30_000,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
          },
        ]
      : []),
  ],
});
