import { sql, type Kysely, type Migration } from 'kysely';

// outbox_broadcast_status (broadcast_id, status) counts a broadcast's rows by status. It held every
// confirmation too (broadcast_id NULL), and that made it a trap for PostgreSQL's planner: right
// after a burst, before autovacuum has analysed the grown table, the planner guesses one pending
// confirmation and claims through this index, fetching every pending confirmation and sorting
// them on disk for each claim: 26–60 ms per claim behind 37,000 of them, inside the group commit,
// so every sign-up batch of the moment waited for it (docs/decisions/0051). Every query that reads
// it names a broadcast (`broadcast_id = ?`, or `IS NOT NULL`), which implies the partial index's
// predicate on both stores; the confirmation claim is left with only the indexes that already
// hold its order (outbox_due, outbox_due_others), whatever the statistics say. A sign-up's outbox
// row is also one index entry cheaper.
export const outboxBroadcastStatusPartialMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('outbox_broadcast_status').execute();
    await db.schema
      .createIndex('outbox_broadcast_status')
      .on('outbox')
      .columns(['broadcast_id', 'status'])
      .where(sql.ref('broadcast_id'), 'is not', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('outbox_broadcast_status').execute();
    await db.schema.createIndex('outbox_broadcast_status').on('outbox').columns(['broadcast_id', 'status']).execute();
  },
};
