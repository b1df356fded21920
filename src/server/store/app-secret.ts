import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The key behind signed cookies and unsubscribe links. APP_SECRET wins when set; otherwise one is
 * made on first start and kept in the database, so every instance sharing the database shares it
 * and a fresh clone needs no set-up.
 */
export async function loadAppSecret(db: Kysely<Database>, fromEnv: string | undefined): Promise<string> {
  if (fromEnv) return fromEnv;
  await db
    .insertInto('settings')
    .values({ key: 'app_secret', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'app_secret').executeTakeFirstOrThrow();
  return row.value;
}
