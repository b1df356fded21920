import type { Kysely, Migration } from 'kysely';

// A broadcast that stops itself (docs/decisions/0035-bounces-complaints-and-suppression.md, "A
// broadcast that stops itself"): who paused it last ('automatic', or the operator), why (in words,
// naming the rate and the sample, for an automatic pause), when, and who resumed it over an
// automatic pause. Bounce events are found by their outbox row, to count a broadcast's bounces.
export const broadcastBrakeMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('broadcasts').addColumn('paused_by', 'text').execute();
    await db.schema.alterTable('broadcasts').addColumn('paused_reason', 'text').execute();
    await db.schema.alterTable('broadcasts').addColumn('paused_at', 'text').execute();
    await db.schema.alterTable('broadcasts').addColumn('pause_overridden_by', 'text').execute();
    await db.schema.createIndex('bounce_events_outbox').on('bounce_events').columns(['outbox_id', 'kind']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('bounce_events_outbox').execute();
    for (const c of ['pause_overridden_by', 'paused_at', 'paused_reason', 'paused_by']) {
      await db.schema.alterTable('broadcasts').dropColumn(c).execute();
    }
  },
};
