import { type Kysely, type Migration, sql } from 'kysely';

// Operator roles (docs/decisions/0028-roles-and-four-eyes.md). Operators made before roles could
// do everything, so they become owners; the command line sets anyone else's role.
export const operatorRolesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('operators')
      .addColumn('role', 'text', (c) =>
        c
          .notNull()
          .defaultTo('owner')
          .check(sql`role in ('viewer', 'sender', 'owner')`),
      )
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('operators').dropColumn('role').execute();
  },
};
