import { type Kysely, type Migration } from 'kysely';

// Launch broadcasts (docs/decisions/0015-launch-broadcast.md): the broadcast itself, and on each
// outbox row the broadcast it belongs to, so a send is a snapshot of outbox rows queued in the
// same transaction that moves the broadcast from draft to sending.
export const broadcastsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('broadcasts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('subject', 'text', (c) => c.notNull())
      // Markdown, as the operator wrote it; rendered at send time.
      .addColumn('body', 'text', (c) => c.notNull())
      // draft → sending ⇄ paused → (sending with nothing left = done) | cancelled
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('sent_by', 'text')
      .addColumn('sent_at', 'text')
      // How many rows the send queued (the confirmed subscribers at that instant).
      .addColumn('recipients', 'integer')
      .execute();
    await db.schema.alterTable('outbox').addColumn('broadcast_id', 'text').execute();
    await db.schema.createIndex('outbox_broadcast_status').on('outbox').columns(['broadcast_id', 'status']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('outbox_broadcast_status').execute();
    await db.schema.alterTable('outbox').dropColumn('broadcast_id').execute();
    await db.schema.dropTable('broadcasts').execute();
  },
};
