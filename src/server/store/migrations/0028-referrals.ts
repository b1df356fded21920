import { type Kysely, type Migration, sql } from 'kysely';

// Invite links (docs/decisions/0060-referral-invites.md). A confirmed person's code, and
// who came through whose code with what became of it. No count is stored: counts are computed
// from the attributions, so erasing a person (the cascades) makes them fall. Network keys are
// keyed hashes of a client network (lib/client-network.ts), never an address.
export const referralsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('referral_codes')
      .addColumn('subscriber_id', 'text', (c) => c.primaryKey().references('subscribers.id').onDelete('cascade'))
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('network_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('referral_attributions')
      .addColumn('invited_id', 'text', (c) => c.primaryKey().references('subscribers.id').onDelete('cascade'))
      .addColumn('referrer_id', 'text', (c) => c.notNull().references('subscribers.id').onDelete('cascade'))
      .addColumn('network_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .check(sql`status in ('pending', 'counted', 'same_network', 'same_mailbox', 'disposable', 'capped')`),
      )
      .addColumn('decided_at', 'text')
      .addColumn('invited_domain', 'text')
      .execute();
    // A referrer's counts and the per-referrer cap read (referrer, status, day decided).
    await db.schema
      .createIndex('referral_attributions_referrer')
      .on('referral_attributions')
      .columns(['referrer_id', 'status', 'decided_at'])
      .execute();
    // The per-network cap reads (network, status, day decided).
    await db.schema
      .createIndex('referral_attributions_network')
      .on('referral_attributions')
      .columns(['network_key', 'status', 'decided_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('referral_attributions').execute();
    await db.schema.dropTable('referral_codes').execute();
  },
};
