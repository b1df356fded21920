import { type Kysely, type Migration, sql } from 'kysely';

// Passkeys (WebAuthn) beside TOTP (docs/decisions/0030-passkeys.md): the operators' credentials,
// and the ceremonies' challenges, stored so any instance can finish what another began.
export const passkeysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operator_passkeys')
      // Public id, for renaming and removing; the credential's own id is the authenticator's.
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      // base64url, as the browser sends it; one credential belongs to one operator.
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      // The COSE public key, base64url (text reads the same on both databases).
      .addColumn('public_key', 'text', (c) => c.notNull())
      // The authenticator's signature counter (0 for those that keep none, e.g. synced passkeys).
      .addColumn('counter', 'bigint', (c) => c.notNull())
      // JSON array of transports ("internal", "usb", "hybrid"…), handed back to the browser.
      .addColumn('transports', 'text', (c) => c.notNull())
      // 'singleDevice' | 'multiDevice' (synced by a password manager), as the authenticator said.
      .addColumn('device_type', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('operator_passkeys_operator').on('operator_passkeys').column('operator_id').execute();

    // One row per ceremony begun: taken (deleted) when its answer is checked, so each is used
    // once; five minutes at most. Tied to the session (adding a passkey, fresh proof) or to the
    // pending sign-in, and gone with it.
    await db.schema
      .createTable('operator_passkey_challenges')
      .addColumn('challenge', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('register', 'sign-in', 'fresh-proof')`))
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('session_id', 'text', (c) => c.references('operator_sessions.id').onDelete('cascade'))
      .addColumn('pending_hash', 'text', (c) => c.references('operator_challenges.token_hash').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addCheckConstraint('operator_passkey_challenges_bound', sql`(session_id is null) <> (pending_hash is null)`)
      .execute();
    await db.schema
      .createIndex('operator_passkey_challenges_expiry')
      .on('operator_passkey_challenges')
      .column('expires_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('operator_passkey_challenges').execute();
    await db.schema.dropTable('operator_passkeys').execute();
  },
};
