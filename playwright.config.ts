import { defineConfig, devices } from '@playwright/test';
import { chromiumFlags, chromiumPath } from './scripts/chromium.ts';

// The server the browser tests run against: the production build (`npm run build` makes dist/;
// `npm test` builds before it runs these tests, so this config never builds). Every setting the
// server is started with lives here; add database / mail outbox settings to this object.
// E2E_PORT lets two checkouts on one machine run their browser tests side by side.
const PORT = Number(process.env.E2E_PORT ?? 4173);
const HOST = '127.0.0.1';
const BASE_URL = `http://${HOST}:${PORT}`;

// The server's data lives in .e2e-data/ (emptied by the start command below): its own SQLite
// file and an outbox of .eml files the sign-up tests read the confirmation links from.
export const E2E_DATA_DIR = '.e2e-data';
export const E2E_OUTBOX_DIR = `${E2E_DATA_DIR}/outbox`;

const serverEnv: Record<string, string> = {
  PORT: String(PORT),
  HOST,
  PUBLIC_URL: BASE_URL,
  LOG_LEVEL: 'warn',
  DATABASE_URL: `sqlite:${E2E_DATA_DIR}/dh.sqlite`,
  OUTBOX_DIR: E2E_OUTBOX_DIR,
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
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: chromiumPath,
          args: chromiumFlags,
        },
      },
    },
  ],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && node dist/server/main.js`,
    url: `${BASE_URL}/`,
    env: serverEnv,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
