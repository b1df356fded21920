import type { Kysely, Migration } from 'kysely';

// The language a subscriber signed up in (content/messages/locales.ts), so their emails, link
// pages and errors can follow it (docs/decisions/0043-messages-as-codes.md). Every sign-up before
// this was made on the English page, so existing rows are 'en'.
export const subscriberLocaleMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('subscribers')
      .addColumn('locale', 'text', (col) => col.notNull().defaultTo('en'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('subscribers').dropColumn('locale').execute();
  },
};
