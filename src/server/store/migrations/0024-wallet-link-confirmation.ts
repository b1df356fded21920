import { sql, type Kysely, type Migration } from 'kysely';

// A wallet's email link counts only once the email's owner pressed the button of an email sent for
// that link, naming the wallet (an outside review found that a wallet could borrow any confirmed
// address: the link counted at once, and a pending person's ordinary confirmation confirmed it).
//
// - `allowlist_entries.subscriber_id` now means a link its email's owner confirmed. One email
//   backs one wallet at most: a unique index (NULLs, no link, are not counted by it).
// - `allowlist_link_requests`: a link asked for and not yet confirmed, one per wallet (a newer ask
//   replaces it); the email sent for it (`outbox_id`), and the digest of the token in that email,
//   written when the email is made. It goes with the wallet's entry and with the person.
// - `allowlist_link_mail`: when an email was last sent a link request, whoever asked: at most one
//   such email per address per cool-down, however many wallets ask. It goes with the person.
//
// Links made before this migration never asked the email's owner, so none of them counts: they
// are dropped (the wallet stays on the list; its holder can ask again).
export const walletLinkConfirmationMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`update allowlist_entries set subscriber_id = null`.execute(db);
    await db.schema.alterTable('allowlist_entries').addColumn('email_linked_at', 'text').execute();
    await db.schema.alterTable('allowlist_entries').dropColumn('link_asked_at').execute();
    await db.schema.dropIndex('allowlist_entries_subscriber').execute();
    await db.schema
      .createIndex('allowlist_entries_one_per_subscriber')
      .on('allowlist_entries')
      .column('subscriber_id')
      .unique()
      .execute();

    await db.schema
      .createTable('allowlist_link_requests')
      .addColumn('address', 'text', (c) => c.primaryKey().references('allowlist_entries.address').onDelete('cascade'))
      .addColumn('subscriber_id', 'text', (c) => c.notNull().references('subscribers.id').onDelete('cascade'))
      .addColumn('outbox_id', 'text', (c) => c.notNull())
      .addColumn('asked_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text')
      .execute();
    await db.schema
      .createIndex('allowlist_link_requests_token')
      .on('allowlist_link_requests')
      .column('token_hash')
      .unique()
      .execute();
    await db.schema
      .createIndex('allowlist_link_requests_outbox')
      .on('allowlist_link_requests')
      .column('outbox_id')
      .execute();
    // The foreign key's own lookups (an erasure).
    await db.schema
      .createIndex('allowlist_link_requests_subscriber')
      .on('allowlist_link_requests')
      .column('subscriber_id')
      .execute();
    await db.schema
      .createIndex('allowlist_link_requests_expiry')
      .on('allowlist_link_requests')
      .column('expires_at')
      .execute();

    await db.schema
      .createTable('allowlist_link_mail')
      .addColumn('subscriber_id', 'text', (c) => c.primaryKey().references('subscribers.id').onDelete('cascade'))
      .addColumn('mailed_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('allowlist_link_mail').execute();
    await db.schema.dropTable('allowlist_link_requests').execute();
    await db.schema.dropIndex('allowlist_entries_one_per_subscriber').execute();
    await db.schema
      .createIndex('allowlist_entries_subscriber')
      .on('allowlist_entries')
      .column('subscriber_id')
      .execute();
    await db.schema.alterTable('allowlist_entries').addColumn('link_asked_at', 'text').execute();
    await db.schema.alterTable('allowlist_entries').dropColumn('email_linked_at').execute();
  },
};
