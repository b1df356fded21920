import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The keys behind signed cookies, newest first. APP_SECRET wins when set (a comma-separated ring:
 * the first signs, the others still verify, so visitors' cookies are re-signed rather than
 * refused during a rotation); otherwise one key is made on first start and kept in the database,
 * so every instance sharing the database shares it and a fresh clone needs no set-up.
 * Links in emails do not use these keys (link-keys.ts).
 */
export async function loadAppSecrets(db: Kysely<Database>, fromEnv: readonly string[] | undefined): Promise<string[]> {
  if (fromEnv?.length) return [...fromEnv];
  await db
    .insertInto('settings')
    .values({ key: 'app_secret', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'app_secret').executeTakeFirstOrThrow();
  return [row.value];
}
