import type { Kysely, Migration } from 'kysely';

// Dialect-neutral DDL: text ids (UUIDs made in Node), text ISO times, integers.
export const signupsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('consent_wordings')
      .addColumn('version', 'text', (c) => c.primaryKey())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('subscribers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // As stored (domain lower-cased); email_key (all lower-case) is what makes two sign-ups
      // "the same address", so case variants never create a second row.
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_key', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('confirmed_at', 'text')
      .addColumn('unsubscribed_at', 'text')
      .addColumn('last_confirmation_at', 'text')
      .addColumn('consent_version', 'text', (c) => c.notNull().references('consent_wordings.version'))
      .addColumn('consent_at', 'text', (c) => c.notNull())
      .addColumn('consent_page', 'text', (c) => c.notNull())
      .addColumn('country', 'text')
      .addColumn('region', 'text')
      .addColumn('city', 'text')
      .execute();
    await db.schema
      .createIndex('subscribers_status_created')
      .on('subscribers')
      .columns(['status', 'created_at'])
      .execute();

    await db.schema
      .createTable('outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('subscriber_id', 'text', (c) => c.notNull().references('subscribers.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.unique())
      .addColumn('token_expires_at', 'text')
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('outbox_subscriber').on('outbox').column('subscriber_id').execute();

    await db.schema
      .createTable('abuse_counters')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('abuse_counters_pk', ['day', 'reason'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['abuse_counters', 'outbox', 'subscribers', 'consent_wordings', 'settings']) {
      await db.schema.dropTable(t).execute();
    }
  },
};
