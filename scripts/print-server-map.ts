// Prints the server's map: the plugin tree (infrastructure, then features), the background jobs
// and the route table, from the real app built on a throwaway SQLite database. The README keeps a
// copy, which src/server/server-map.test.ts holds to the app: run `npm run server-map` after
// changing app.ts and paste the result there.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { loadEnv } from '../src/server/env.ts';
import { createGeoLookup } from '../src/server/geo/geo-lookup.ts';
import { loadSiteBuild } from '../src/server/features/site/index.ts';
import { serverMap } from '../src/server/server-map.ts';
import { openStore } from '../src/server/store/database.ts';
import { migrateToLatest } from '../src/server/store/migrate.ts';
import { dataKey, SecretBox } from '../src/server/store/secret-box.ts';
import { randomBytes } from 'node:crypto';

const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-map-'));
try {
  const store = await openStore(`sqlite:${path.join(dir, 'map.sqlite')}`);
  // A throwaway database: a throwaway data key.
  const secrets = new SecretBox(dataKey(randomBytes(32)));
  await migrateToLatest(store.db, { secrets });
  const geo = await createGeoLookup();
  const app = await buildApp({
    env: loadEnv({ LOG_LEVEL: 'silent', OUTBOX_DIR: path.join(dir, 'outbox') }),
    build: await loadSiteBuild(path.resolve(import.meta.dirname, '../dist')),
    store,
    geo,
    secrets,
  });
  await app.ready();
  console.log(serverMap(app));
  await app.close();
  geo.close();
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
