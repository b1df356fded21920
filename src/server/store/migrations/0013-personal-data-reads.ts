import { type Kysely, type Migration, sql } from 'kysely';

// Personal records each operator has read per UTC day (docs/decisions/0029): person's details
// opened, searches, rows exported. Past the daily allowance a read needs fresh proof. In the
// database, not in memory, so every instance counts against the same allowance.
export const personalDataReadsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('personal_data_reads')
      .addColumn('operator_id', 'text', (c) => c.notNull())
      // YYYY-MM-DD, UTC.
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('records', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`records >= 0`),
      )
      .addPrimaryKeyConstraint('personal_data_reads_pk', ['operator_id', 'day'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('personal_data_reads').execute();
  },
};
