import type { Kysely, Migration } from 'kysely';

// How many second-factor answers a pending sign-in has had checked: five wrong ones end it, and
// the password is asked again (docs/decisions/0013, the second factor's limits). A column on the
// row the pending cookie names, so every instance counts the same tries without Redis, and one
// conditional UPDATE claims each try (two instances racing cannot both take the fifth).
export const signInTriesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('operator_challenges')
      .addColumn('tries', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('operator_challenges').dropColumn('tries').execute();
  },
};
