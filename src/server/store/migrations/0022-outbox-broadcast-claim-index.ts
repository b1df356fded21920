import { sql, type Kysely, type Migration } from 'kysely';

// The outbox worker's every claim also looks for due broadcast rows, with `status = 'pending' AND
// broadcast_id IS NOT NULL … ORDER BY next_attempt_at`. With only outbox_due to go by, that walks
// past every pending confirmation first: measured at 3.2 ms per claim behind 30,000 queued
// confirmations on SQLite, in the event loop, and 15–17 % of the server's busy main thread under
// the sign-up bench, whose burst queues confirmations faster than the worker sends them
// (docs/decisions/0047-signup-cost-round-trips.md, second session). Migration 0007's index serves the
// claim of the other kinds; this one is the broadcast claim's: only the broadcast rows, so the broadcast claim costs the same however many
// confirmations wait, and nothing when no broadcast is being sent.
//
// Numbered 0022, not 0021: a branch in flight (console-locale) adds 0021, and Kysely refuses
// migrations applied out of order, so this one must come after it.
export const outboxBroadcastClaimIndexMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('outbox_due_broadcast')
      .on('outbox')
      .columns(['status', 'next_attempt_at'])
      .where(sql.ref('broadcast_id'), 'is not', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('outbox_due_broadcast').execute();
  },
};
