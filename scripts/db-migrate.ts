// `npm run db:migrate`: apply pending migrations to DATABASE_URL (the server also does this at start).
import { loadEnv } from '../src/server/env.ts';
import { openStore } from '../src/server/store/database.ts';
import { migrateToLatest } from '../src/server/store/migrate.ts';
import { errorText } from '../src/server/lib/log-safe.ts';
import { secretBoxFromEnv } from '../src/server/store/data-keys.ts';

const env = loadEnv();
const store = await openStore(env.DATABASE_URL, { longStatements: true });
try {
  const applied = await migrateToLatest(store.db, { secrets: secretBoxFromEnv(env) });
  console.log(
    applied.length ? `Applied ${applied.join(', ')} to ${store.description}.` : `${store.description} is up to date.`,
  );
} catch (error) {
  console.error(errorText(error));
  process.exitCode = 1;
} finally {
  await store.close();
}
