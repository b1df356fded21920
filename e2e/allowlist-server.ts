// The whole app (buildApp) in the test process, on the production build, with the content file's
// wallet in a mode the test picks (the shipped file stays 'coming-soon'), on a throwaway SQLite
// database. Production takes its content only from content/site-content.ts; the tests pass theirs
// through buildApp's `content`, the seam the server tests use too.
import { test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { siteContent } from '../content/site-content.ts';
import { buildApp } from '../src/server/app.ts';
import { loadEnv } from '../src/server/env.ts';
import { createGeoLookup } from '../src/server/geo/geo-lookup.ts';
import { loadSiteBuild } from '../src/server/features/site/site-build.ts';
import { openStore, type Store } from '../src/server/store/database.ts';
import { migrateToLatest } from '../src/server/store/migrate.ts';
import { secretBoxFromEnv } from '../src/server/store/data-keys.ts';
import { parseSiteContent, type WalletMode } from '../src/shared/content-schema.ts';

export interface AllowlistServer {
  origin: string;
  store: Store;
  /** Where its emails are written as .eml files (it has no SMTP_URL). */
  outboxDir: string;
  /** Sends what the outbox holds now (its background jobs are not started). */
  sendMail(): Promise<void>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startAllowlistServer(
  mode: WalletMode,
  chainId = 1,
  /**
   * Countries whose residents may not join; with them the server trusts X-Forwarded-For, so a test
   * can place its browser in one (the lookup is the real local database's).
   */
  restrictedCountries: string[] = [],
): Promise<AllowlistServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-e2e-allowlist-'));
  // The message names the site's public host, so the server must know its port before it listens.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const outboxDir = path.join(dir, 'outbox');
  const env = loadEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: origin,
    DATABASE_URL: `sqlite:${path.join(dir, 'dh.sqlite')}`,
    OUTBOX_DIR: outboxDir,
    ERASURE_LEDGER: path.join(dir, 'erasure-ledger'),
    // Playwright is quicker than any person; the time trap has its server tests.
    SIGNUP_MIN_FILL_SECONDS: '0',
    DATA_KEY: process.env.E2E_DATA_KEY,
    ...(restrictedCountries.length > 0 ? { TRUST_PROXY: 'true' } : {}),
  });
  const secrets = secretBoxFromEnv(env);
  const store = await openStore(env.DATABASE_URL ?? '');
  await migrateToLatest(store.db, { secrets });
  const build = await loadSiteBuild(path.resolve(import.meta.dirname, '../dist'));
  const geo = await createGeoLookup();
  const content = parseSiteContent({
    ...siteContent,
    wallet: { mode, chainId },
    presaleTerms: { ...siteContent.presaleTerms, restrictedCountries },
  });
  const app = await buildApp({ env, build, store, geo, secrets, content });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    origin,
    store,
    outboxDir,
    sendMail: () => app.jobs.runOnce('outbox'),
    async close() {
      // The test's page is closed by now: whatever socket its browser still holds is cut rather
      // than waited for. Two layout tests' teardown took 29 s of a 30 s limit in one-core runs,
      // and never alone; each part's time is printed when closing takes more than 2 s, so a run
      // that shows it again names the part.
      const started = performance.now();
      const parts: string[] = [];
      const timed = async (name: string, part: () => unknown) => {
        const at = performance.now();
        await part();
        parts.push(`${name} ${Math.round(performance.now() - at)} ms`);
      };
      await timed('app', () => {
        const closing = app.close();
        app.server.closeAllConnections();
        return closing;
      });
      await timed('geo', () => geo.close());
      await timed('store', () => store.close());
      await timed('files', () => rmSync(dir, { recursive: true, force: true }));
      if (performance.now() - started > 2000) console.warn(`allowlist test server closed slowly: ${parts.join(', ')}`);
    },
  };
}

/**
 * A server per test, closed with the test's page after it: call in a spec file's body, then start
 * each test's server with what it returns.
 */
export function allowlistServerPerTest(): (
  ...args: Parameters<typeof startAllowlistServer>
) => Promise<AllowlistServer> {
  let server: AllowlistServer | undefined;
  test.afterEach(async ({ page }) => {
    await page.close();
    await server?.close();
    server = undefined;
  });
  return async (...args) => (server = await startAllowlistServer(...args));
}
