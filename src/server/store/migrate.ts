import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { signupsMigration } from './migrations/0001-signups.ts';
import { analyticsMigration } from './migrations/0002-analytics.ts';
import { linkKeysMigration } from './migrations/0003-link-keys.ts';
import { operatorsMigration } from './migrations/0004-operators.ts';
import { consoleQueriesMigration } from './migrations/0005-console-queries.ts';
import { broadcastsMigration } from './migrations/0006-broadcasts.ts';
import type { Database } from './schema.ts';
import { errorText } from '../lib/log-safe.ts';

// Versioned, in order, never edited once shipped: add a new file for each change.
const migrations: Record<string, Migration> = {
  '0001-signups': signupsMigration,
  '0002-analytics': analyticsMigration,
  '0003-link-keys': linkKeysMigration,
  '0004-operators': operatorsMigration,
  '0005-console-queries': consoleQueriesMigration,
  '0006-broadcasts': broadcastsMigration,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>, opts: { pgSchema?: string } = {}): Promise<string[]> {
  // With a schema of our own, the migrator's bookkeeping must live there too: it looks tables up
  // across schemas and would otherwise find another schema's and skip creating its own.
  const migrator = new Migrator({ db, provider, ...(opts.pgSchema ? { migrationTableSchema: opts.pgSchema } : {}) });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error) {
    const reason = errorText(error);
    throw new Error(failed ? `Database migration ${failed.migrationName} failed: ${reason}` : `Database migrations could not run: ${reason}`);
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
