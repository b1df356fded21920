import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { linkKeyContext, SecretBox, SecretBoxError, totpSecretContext } from './secret-box.ts';

// `npm run keys:rotate` and the restore's check: every stored secret, opened with any configured
// key and sealed again under the current one (docs/deploy.md, "Keys").

interface StoredSecret {
  context: string;
  value: string;
  write: (db: Kysely<Database>, sealed: string) => Promise<unknown>;
}

async function storedSecrets(db: Kysely<Database>): Promise<StoredSecret[]> {
  const operators = await db.selectFrom('operators').select(['id', 'totp_secret']).execute();
  const links = await db.selectFrom('link_keys').select(['id', 'secret']).execute();
  return [
    ...operators.map((o) => ({
      context: totpSecretContext(o.id),
      value: o.totp_secret,
      write: (on: Kysely<Database>, sealed: string) =>
        on.updateTable('operators').set({ totp_secret: sealed }).where('id', '=', o.id).execute(),
    })),
    ...links.map((k) => ({
      context: linkKeyContext(k.id),
      value: k.secret,
      write: (on: Kysely<Database>, sealed: string) =>
        on.updateTable('link_keys').set({ secret: sealed }).where('id', '=', k.id).execute(),
    })),
  ];
}

/** The sentences of the stored secrets this configuration cannot open (empty when all open). */
export async function unreadableSecrets(db: Kysely<Database>, secrets: SecretBox): Promise<string[]> {
  const problems: string[] = [];
  for (const s of await storedSecrets(db)) {
    try {
      secrets.open(s.value, s.context);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      problems.push(error.message);
    }
  }
  return problems;
}

/**
 * Seals every stored secret again under the current data key, in one transaction. When any cannot
 * be opened nothing is changed, and the error lists each one in words: rotating around a secret
 * nobody can read would only hide that it is lost.
 */
export async function resealAll(
  db: Kysely<Database>,
  secrets: SecretBox,
): Promise<{ resealed: number; total: number }> {
  return db.transaction().execute(async (trx) => {
    const all = await storedSecrets(trx);
    const problems: string[] = [];
    let resealed = 0;
    for (const s of all) {
      if (secrets.isCurrent(s.value)) {
        continue;
      }
      let plain: string;
      try {
        // A value from before migration 0009 is in the clear: sealed now as well.
        plain = SecretBox.isSealed(s.value) ? secrets.open(s.value, s.context) : s.value;
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        problems.push(error.message);
        continue;
      }
      await s.write(trx, secrets.seal(plain, s.context));
      resealed++;
    }
    if (problems.length)
      throw new SecretBoxError(
        `Nothing was re-encrypted; ${problems.length} stored secret(s) cannot be opened:\n  - ${problems.join('\n  - ')}`,
      );
    return { resealed, total: all.length };
  });
}
