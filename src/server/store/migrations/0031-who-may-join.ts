import type { Kysely, Migration } from 'kysely';

// Who may join the allowlist (docs/decisions/0068-who-may-join.md):
// - each entry keeps the terms' version its signed message accepted; entries from before any terms
//   have none (null), and the console marks them so;
// - joins refused because the server's own lookup placed them in a restricted country, counted by
//   country only: one row per country, taken up by one upsert (never a read and a later write);
// - a snapshot may hold only the entries that accepted the live terms version: it names that
//   version (null: every entry, as before).
export const whoMayJoinMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('allowlist_entries').addColumn('terms_version', 'text').execute();
    await db.schema
      .createTable('allowlist_country_refusals')
      .addColumn('country', 'text', (col) => col.primaryKey())
      .addColumn('refused', 'integer', (col) => col.notNull())
      .execute();
    await db.schema.alterTable('allowlist_snapshots').addColumn('terms_version', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('allowlist_snapshots').dropColumn('terms_version').execute();
    await db.schema.dropTable('allowlist_country_refusals').execute();
    await db.schema.alterTable('allowlist_entries').dropColumn('terms_version').execute();
  },
};
