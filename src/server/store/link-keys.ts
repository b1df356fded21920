import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { linkKeyContext, type SecretBox } from './secret-box.ts';

// Before the link-key ring existed (migration 0003), unsubscribe links were signed with the app
// secret: APP_SECRET when set, else the one generated into `settings`. On the first start after
// that migration those secrets join the ring as verify-only keys, so every link already sent keeps
// working whatever later happens to APP_SECRET. The settings flag makes this happen once, in one
// transaction, so a second instance starting at the same moment waits and then reads the result.
const LEGACY_FLAG = 'link_keys_legacy_seeded';
const LEGACY_DATE = '1970-01-01T00:00:00.000Z';

const legacyId = (secret: string) => `legacy-${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;

/**
 * The link-signing keys, newest (the one that signs) first. Stored encrypted (secret-box.ts,
 * migration 0009); a key that cannot be opened stops the start with the box's sentence, since
 * links could then be neither signed nor checked.
 */
export async function loadLinkKeys(
  db: Kysely<Database>,
  secrets: SecretBox,
  appSecretFromEnv: readonly string[] | undefined,
): Promise<string[]> {
  await db.transaction().execute(async (trx) => {
    const flagged = await trx
      .insertInto('settings')
      .values({ key: LEGACY_FLAG, value: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (Number(flagged.numInsertedOrUpdatedRows ?? 0n) === 0) return;
    const generated = await trx
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'app_secret')
      .executeTakeFirst();
    const legacy = appSecretFromEnv?.length ? appSecretFromEnv : generated ? [generated.value] : [];
    for (const secret of legacy) {
      const id = legacyId(secret);
      await trx
        .insertInto('link_keys')
        .values({ id, secret: secrets.seal(secret, linkKeyContext(id)), created_at: LEGACY_DATE })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
  });
  const rows = await db
    .selectFrom('link_keys')
    .select(['id', 'secret'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (rows.length === 0) throw new Error('The link_keys table is empty: run the migrations (npm run db:migrate).');
  return rows.map((r) => secrets.open(r.secret, linkKeyContext(r.id)));
}
