import { randomBytes } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

// The keys that sign links in our emails (unsubscribe), kept apart from APP_SECRET so that
// rotating the cookie key never breaks a link already sent. The ring only grows: a key that ever
// signed a link keeps verifying it. The first signing key is made here, under the migrator's lock,
// so instances starting together on one database all agree on it.
// See docs/decisions/0011-links-keys-and-fields.md.
export const linkKeysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('link_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('secret', 'text', (c) => c.notNull())
      // The newest key signs; every key verifies. Keys carried over from APP_SECRET (links sent
      // before this migration) are dated 1970 so they never sign again.
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await (db as Kysely<{ link_keys: { id: string; secret: string; created_at: string } }>)
      .insertInto('link_keys')
      .values({ id: 'k1', secret: randomBytes(32).toString('base64url'), created_at: new Date().toISOString() })
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('link_keys').execute();
  },
};
