import type { Kysely, Migration } from 'kysely';

// Visitor analytics: raw visits (kept VISIT_RETENTION_DAYS), daily roll-ups maintained at ingest,
// a short-lived per-day set of visitor hashes (for uniques), and the daily salts.
// See docs/decisions/0007-analytics.md.
export const analyticsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('visits')
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('referrer_host', 'text', (c) => c.notNull())
      .addColumn('visitor_hash', 'text', (c) => c.notNull())
      .addColumn('city', 'text', (c) => c.notNull())
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('loc', 'text', (c) => c.notNull())
      .addColumn('org', 'text', (c) => c.notNull())
      .addColumn('postal', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('client_timezone', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('visits_day').on('visits').column('day').execute();

    await db.schema
      .createTable('daily_counts')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('dimension', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('views', 'integer', (c) => c.notNull())
      .addColumn('visitors', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('daily_counts_pk', ['dimension', 'day', 'value'])
      .execute();

    await db.schema
      .createTable('daily_visitors')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('visitor_hash', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('daily_visitors_pk', ['day', 'visitor_hash'])
      .execute();

    await db.schema
      .createTable('analytics_salts')
      .addColumn('day', 'text', (c) => c.primaryKey())
      .addColumn('salt', 'text', (c) => c.notNull())
      .execute();

    await db.schema.createIndex('subscribers_created').on('subscribers').column('created_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('subscribers_created').execute();
    for (const t of ['analytics_salts', 'daily_visitors', 'daily_counts', 'visits'])
      await db.schema.dropTable(t).execute();
  },
};
