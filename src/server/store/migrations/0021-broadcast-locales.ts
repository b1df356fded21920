import type { Kysely, Migration } from 'kysely';

// A broadcast per locale (docs/decisions/0048-broadcast-and-console-per-locale.md).
// `subject` and `body` stay the English version, so every broadcast written before this is an
// English one as it was; `translations` holds the other locales' versions as JSON
// (`{"es":{"subject":…,"body":…}}`, read back through broadcast-schema.ts's schema), and
// `english_fallback` (1 or 0) says whether a locale without a version of its own gets English.
// Existing rows: no translations, English to everyone, which is what they did. The index serves
// the Subscribers list filtered by language, in sign-up order as the list's other filters are.
export const broadcastLocalesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('broadcasts')
      .addColumn('translations', 'text', (col) => col.notNull().defaultTo('{}'))
      .execute();
    await db.schema
      .alterTable('broadcasts')
      .addColumn('english_fallback', 'integer', (col) => col.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createIndex('subscribers_locale_created')
      .on('subscribers')
      .columns(['locale', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('subscribers_locale_created').execute();
    await db.schema.alterTable('broadcasts').dropColumn('english_fallback').execute();
    await db.schema.alterTable('broadcasts').dropColumn('translations').execute();
  },
};
