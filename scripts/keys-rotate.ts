// `npm run keys:rotate`: after setting a new DATA_KEY (the old one in DATA_KEY_PREVIOUS) on every
// instance, re-encrypts every stored secret (authenticator secrets, link keys) under the new key,
// so the old one can then be dropped. Uses DATABASE_URL like the server. See docs/deploy.md, "Keys".
import { EnvError, loadEnv } from '../src/server/env.ts';
import { errorText } from '../src/server/lib/log-safe.ts';
import { DataKeyError, secretBoxFromEnv } from '../src/server/store/data-keys.ts';
import { openStore, type Store } from '../src/server/store/database.ts';
import { migrateToLatest } from '../src/server/store/migrate.ts';
import { SecretBoxError } from '../src/server/store/secret-box.ts';
import { resealAll } from '../src/server/store/secret-rotation.ts';

let store: Store | undefined;
try {
  const env = loadEnv();
  const secrets = secretBoxFromEnv(env);
  store = await openStore(env.DATABASE_URL, { longStatements: true });
  await migrateToLatest(store.db, { secrets });
  const { resealed, total } = await resealAll(store.db, secrets);
  console.log(
    `${resealed} of ${total} stored secret(s) re-encrypted under data key ${secrets.current.id} (from ${secrets.source}) in ${store.description}; ` +
      `the others were under it already. ${secrets.previous.length ? 'The previous key(s) may now be removed from DATA_KEY_PREVIOUS (keep them while backups taken before today may be restored).' : ''}`,
  );
} catch (error) {
  const known = error instanceof EnvError || error instanceof DataKeyError || error instanceof SecretBoxError;
  console.error(known ? (error as Error).message : `The rotation failed: ${errorText(error)}`);
  process.exitCode = 1;
} finally {
  await store?.close();
}
