import { sql } from 'kysely';
import { migrateToLatest } from '../../src/server/store/migrate.ts';
import { openStore, type Store } from '../../src/server/store/database.ts';
import type { SecretBox } from '../../src/server/store/secret-box.ts';
import { CliError } from './cli-errors.ts';

/**
 * The store DATABASE_URL names, said first. Without --create it must exist and hold the app's
 * tables: a missing SQLite file is not created, and a PostgreSQL database (or schema) without the
 * operators table is not migrated from nothing. Pending migrations of a store that has them are
 * applied, as the server applies them at start.
 */
export async function openExistingStore(
  url: string | undefined,
  create: boolean,
  keys: () => SecretBox,
): Promise<{ store: Store; secrets: SecretBox }> {
  const store = await openStore(url, create ? {} : { create: false });
  // PostgreSQL: the schema first on the search path (a URL's `options=-c search_path=…` may name
  // one), whose tables and migration bookkeeping are the ones meant.
  const pgSchema =
    store.dialect === 'postgres'
      ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(store.db)).rows[0]?.schema
      : undefined;
  console.error(`Store: ${store.description}${pgSchema && pgSchema !== 'public' ? ` (schema ${pgSchema})` : ''}`);
  if (!create) {
    const present =
      store.dialect === 'postgres'
        ? await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = ${pgSchema ?? ''} AND table_name = 'operators'`.execute(
            store.db,
          )
        : await sql<{
            n: number;
          }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'operators'`.execute(store.db);
    if (Number(present.rows[0]?.n ?? 0) === 0) {
      await store.close();
      throw new CliError(
        `${store.description} holds no Diamond Hand tables: nothing was changed. Check DATABASE_URL; to start a new store there, run again with --create.`,
      );
    }
  }
  try {
    const secrets = keys();
    await migrateToLatest(store.db, { secrets, ...(pgSchema && pgSchema !== 'public' ? { pgSchema } : {}) });
    return { store, secrets };
  } catch (error) {
    await store.close();
    throw error;
  }
}
