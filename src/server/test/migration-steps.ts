import { Migrator } from 'kysely';
import { migrateToLatest, migrationsWith } from '../store/migrate.ts';
import { testSecrets, type TestStore, withLongStatements } from './test-store.ts';

// A migration's test: a bare store (openTestStore with `migrate: false`) taken as far as a
// deployment stood before the migration, rows written as the code of then wrote them, then the
// rest of the migrations, as the deployment's next start runs them.

/** Runs the migrations up to and including `last`, and no further; throws when one fails. */
export async function migrateUpTo(store: TestStore, last: string): Promise<void> {
  await withLongStatements(store, async (db) => {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrationsWith(testSecrets()) },
      // The migrator's bookkeeping in the store's own schema, as migrateToLatest keeps it.
      ...(store.pgSchema ? { migrationTableSchema: store.pgSchema } : {}),
    });
    const { error } = await migrator.migrateTo(last);
    if (error) throw error;
  });
}

/** Runs every migration still pending: the names of those it ran. */
export const migrateTheRest = (store: TestStore): Promise<string[]> =>
  withLongStatements(store, (db) =>
    migrateToLatest(db, { ...(store.pgSchema ? { pgSchema: store.pgSchema } : {}), secrets: testSecrets() }),
  );
