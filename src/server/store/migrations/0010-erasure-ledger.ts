import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

// Who was erased, as keyed hashes only (never the address): HMAC-SHA256 of the lower-cased address
// under a key derived from the data key, named by `key_id`. Restoring a backup re-applies it, so an
// erased person never comes back (store/erasure-ledger.ts). A copy lives outside the database too,
// so an older backup that predates an erasure cannot take it away.
export const erasureLedgerMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('erasure_ledger')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('erased_at', 'text', (c) => c.notNull())
      .execute();
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      // The console's search index (FTS5, migration 0005) keeps a deleted row's words in its
      // segments until they are merged; with secure-delete a delete removes them at once
      // (https://www.sqlite.org/fts5.html#the_secure_delete_configuration_option). 'optimize'
      // merges away what earlier erasures left behind.
      await sql`insert into subscribers_search(subscribers_search, rank) values ('secure-delete', 1)`.execute(db);
      await sql`insert into subscribers_search(subscribers_search) values ('optimize')`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('erasure_ledger').execute();
  },
};
