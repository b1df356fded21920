import type { Kysely, Migration } from 'kysely';
import { linkKeyContext, SecretBox, totpSecretContext } from '../secret-box.ts';

// Authenticator secrets and link-signing keys were stored as they are (migrations 0003, 0004):
// anyone with the database file or a backup could sign in with a password alone, or sign links.
// This migration encrypts every one of them under the data key (secret-box.ts), in the migration's
// transaction, so no plaintext row can be left behind: without the key the migration fails, and the
// server with it (docs/decisions/0031-data-key-and-erasure-ledger.md).
type Rows = {
  operators: { id: string; totp_secret: string };
  link_keys: { id: string; secret: string };
};

export function secretsAtRestMigration(secrets: SecretBox | undefined): Migration {
  return {
    async up(untyped: Kysely<unknown>) {
      const db = untyped as Kysely<Rows>;
      const operators = await db.selectFrom('operators').select(['id', 'totp_secret']).execute();
      const keys = await db.selectFrom('link_keys').select(['id', 'secret']).execute();
      const plain = [...operators.map((o) => o.totp_secret), ...keys.map((k) => k.secret)].filter(
        (v) => !SecretBox.isSealed(v),
      );
      if (plain.length === 0) return;
      if (!secrets) {
        throw new Error(
          `Migration 0009 encrypts the ${plain.length} stored secret(s) and needs the data key: set DATA_KEY (or APP_SECRET) as the server has it, and run again.`,
        );
      }
      for (const o of operators) {
        if (SecretBox.isSealed(o.totp_secret)) continue;
        await db
          .updateTable('operators')
          .set({ totp_secret: secrets.seal(o.totp_secret, totpSecretContext(o.id)) })
          .where('id', '=', o.id)
          .execute();
      }
      for (const k of keys) {
        if (SecretBox.isSealed(k.secret)) continue;
        await db
          .updateTable('link_keys')
          .set({ secret: secrets.seal(k.secret, linkKeyContext(k.id)) })
          .where('id', '=', k.id)
          .execute();
      }
    },
    async down() {
      // Decrypting back into the table would undo the point; going back is a restore of a backup.
      throw new Error('Migration 0009 (secrets at rest) is not reversible.');
    },
  };
}
