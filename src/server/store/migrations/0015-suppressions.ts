import { type Kysely, type Migration, sql } from 'kysely';

// Bounces, complaints and the suppression list
// (docs/decisions/0035-bounces-complaints-and-suppression.md). An address is kept only as a keyed
// hash (HMAC-SHA256 under a key derived from the data key, naming that key), so the list can match
// a future sign-up of the same address without holding the address itself.
export const suppressionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('suppressions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('address_hash', 'text', (c) => c.notNull())
      // Known when the address belonged to a subscriber; cleared when that person is erased.
      .addColumn('subscriber_id', 'text', (c) => c.references('subscribers.id').onDelete('set null'))
      .addColumn('reason', 'text', (c) =>
        c.notNull().check(sql`reason in ('hard-bounce', 'complaint', 'soft-bounce-limit', 'manual')`),
      )
      // Where it was heard: smtp, dsn, arf, postmark, mailgun, sendgrid, ses, console.
      .addColumn('source', 'text', (c) => c.notNull())
      // The mail server's status (e.g. "5.1.1") or the provider's bounce type; never an address.
      .addColumn('detail', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('lifted_at', 'text')
      .addColumn('lifted_by', 'text')
      .execute();
    // One standing suppression per address (under one key); lifted ones stay as history.
    await db.schema
      .createIndex('suppressions_standing')
      .on('suppressions')
      .columns(['key_id', 'address_hash'])
      .unique()
      .where(sql.ref('lifted_at'), 'is', null)
      .execute();
    await db.schema.createIndex('suppressions_subscriber').on('suppressions').column('subscriber_id').execute();

    // Every bounce or complaint heard, once: (source, event_id) is unique, so a webhook delivered
    // twice, or a DSN read twice, counts once. Soft bounces are counted here (3 in 7 days).
    await db.schema
      .createTable('bounce_events')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('hard', 'soft', 'complaint')`))
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('address_hash', 'text', (c) => c.notNull())
      .addColumn('outbox_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('bounce_events_pk', ['source', 'event_id'])
      .execute();
    await db.schema
      .createIndex('bounce_events_address')
      .on('bounce_events')
      .columns(['address_hash', 'kind', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('bounce_events').execute();
    await db.schema.dropTable('suppressions').execute();
  },
};
