import type { Kysely, Migration } from 'kysely';

// Wrong authenticator codes per operator, from every network and every instance together (issue
// 38): ten, each within an hour of the one before, hold the operator's codes for an hour. A counter
// row per operator, so one INSERT … ON CONFLICT DO UPDATE … RETURNING takes each try on SQLite and
// PostgreSQL alike, and every instance counts the same tries with or without Redis
// (features/operators/code-tries.ts).
export const operatorCodeTriesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operator_code_tries')
      .addColumn('operator_id', 'text', (c) => c.primaryKey().references('operators.id').onDelete('cascade'))
      // Tries taken and not given back: wrong codes, and codes being checked right now.
      .addColumn('tries', 'integer', (c) => c.notNull())
      .addColumn('last_try_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('operator_code_tries').execute();
  },
};
