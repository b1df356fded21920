import { sql, type Kysely, type Migration } from 'kysely';

// The outbox worker claims every other kind of email before broadcast rows, with
// `status = 'pending' AND broadcast_id IS NULL … ORDER BY next_attempt_at`. On outbox_due alone
// that walks past every pending broadcast row first: about 3 ms per claim behind a
// 10,000-recipient broadcast on SQLite, in the event loop, for every confirmation. This index holds
// only the rows that are not a broadcast's (a partial index: both engines take it for a query whose
// WHERE says `broadcast_id IS NULL`), so a confirmation's claim costs the same during a broadcast.
export const outboxClaimIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('outbox_due_others')
      .on('outbox')
      .columns(['status', 'next_attempt_at'])
      .where(sql.ref('broadcast_id'), 'is', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('outbox_due_others').execute();
  },
};
