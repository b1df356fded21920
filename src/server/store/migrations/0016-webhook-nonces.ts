import type { Kysely, Migration } from 'kysely';

// Providers' webhooks (docs/decisions/0035-bounces-complaints-and-suppression.md): the one-time
// value of each signed delivery (Mailgun's token, SendGrid's signature, SNS's MessageId), kept
// past the freshness window so the same signed request sent again is refused as a replay.
export const webhookNoncesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_nonces')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('received_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('webhook_nonces_pk', ['provider', 'nonce'])
      .execute();
    await db.schema.createIndex('webhook_nonces_received').on('webhook_nonces').column('received_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webhook_nonces').execute();
  },
};
