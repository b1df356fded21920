// The whole app (src/server/app.ts buildApp) in the test process, on the production build and
// the project's own database (the one its main server uses), with a clock the test moves forward.
// Sessions expire after 30 idle minutes and 12 hours; a browser test cannot wait that long, and
// production takes no clock from outside, so the expiry tests build the app as main.ts does and
// inject the clock through buildApp's `clock`, the same seam the server tests use.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { loadEnv } from '../src/server/env.ts';
import { createGeoLookup } from '../src/server/geo/geo-lookup.ts';
import { loadSiteBuild } from '../src/server/features/site/site-build.ts';
import { openStore } from '../src/server/store/database.ts';

export interface ClockedConsoleServer {
  origin: string;
  /** Moves the server's clock forward; it keeps ticking with the real one in between. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function startClockedConsoleServer(databaseUrl: string): Promise<ClockedConsoleServer> {
  // Real time plus what the test added: TOTP codes made from the real clock still work at the start.
  let offset = 0;
  const outbox = mkdtempSync(path.join(os.tmpdir(), 'dh-e2e-clocked-'));
  const env = loadEnv({
    NODE_ENV: 'production',
    // Refused sign-ins (401, 429) are logged at warn: the back-off test makes them on purpose, and
    // they would fill the run's output. Errors still show.
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl,
    OUTBOX_DIR: outbox,
    TRUST_PROXY: 'true',
    DATA_KEY: process.env.E2E_DATA_KEY,
  });
  const build = await loadSiteBuild(path.resolve(import.meta.dirname, '../dist'));
  const store = await openStore(databaseUrl);
  const geo = await createGeoLookup();
  // No background jobs: the main server runs them on this database already.
  const app = await buildApp({ env, build, store, geo, clock: () => new Date(Date.now() + offset) });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    origin,
    advance(ms) {
      offset += ms;
    },
    async close() {
      await app.close();
      geo.close();
      await store.close();
      rmSync(outbox, { recursive: true, force: true });
    },
  };
}
