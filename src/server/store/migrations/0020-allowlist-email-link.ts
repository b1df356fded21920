import type { Kysely, Migration } from 'kysely';

// An allowlist entry linked to a subscriber (docs/decisions/0045-wallet-allowlist.md,
// Consequences 2026-11-26). The allowlist side holds the subscriber's id, never an email address;
// erasing the subscriber drops the link (ON DELETE SET NULL), removing the entry drops it with the
// row. The link token is the join's proof carried forward: a keyed digest of a short-lived value
// the join reply gave the signer, spent by the one link request it allows.
export const allowlistEmailLinkMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('allowlist_entries')
      .addColumn('subscriber_id', 'text', (c) => c.references('subscribers.id').onDelete('set null'))
      .execute();
    await db.schema.alterTable('allowlist_entries').addColumn('link_asked_at', 'text').execute();
    await db.schema.alterTable('allowlist_entries').addColumn('link_token_hash', 'text').execute();
    await db.schema.alterTable('allowlist_entries').addColumn('link_token_expires_at', 'text').execute();
    // The foreign key's own lookups (an erasure) and the console's join use it.
    await db.schema
      .createIndex('allowlist_entries_subscriber')
      .on('allowlist_entries')
      .column('subscriber_id')
      .execute();
    await db.schema
      .createIndex('allowlist_entries_link_token')
      .on('allowlist_entries')
      .column('link_token_hash')
      .unique()
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('allowlist_entries_link_token').execute();
    await db.schema.dropIndex('allowlist_entries_subscriber').execute();
    for (const column of ['link_token_expires_at', 'link_token_hash', 'link_asked_at', 'subscriber_id'])
      await db.schema.alterTable('allowlist_entries').dropColumn(column).execute();
  },
};
