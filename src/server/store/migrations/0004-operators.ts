import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

// The operators' console: operators, their recovery codes, sign-ins waiting for their second
// factor, sessions, and the audit log (docs/decisions/0013-operators-and-sign-in.md).
export const operatorsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operators')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      // Lower-cased: one operator per address whatever its case.
      .addColumn('email_key', 'text', (c) => c.notNull().unique())
      // argon2id, PHC string (parameters included).
      .addColumn('password_hash', 'text', (c) => c.notNull())
      // Base32 TOTP secret. It has to be readable to check a code; see the decision record.
      .addColumn('totp_secret', 'text', (c) => c.notNull())
      // The last 30-second step a code was accepted for: a code is accepted once, and never one
      // older than the last (RFC 6238 §5.2).
      .addColumn('totp_last_step', 'bigint')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('operator_recovery_codes')
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      // SHA-256 of a 50-bit random code (a code is not a password a person chose).
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addPrimaryKeyConstraint('operator_recovery_codes_pk', ['operator_id', 'code_hash'])
      .execute();

    // Step one passed (password), step two (code) to come: lives five minutes.
    await db.schema
      .createTable('operator_challenges')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('operator_sessions')
      // Public id, for listing and ending; the cookie holds another random value, stored hashed.
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      // "Chrome on Linux": the family and system only, never the raw user agent nor an address.
      .addColumn('browser', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('idle_expires_at', 'text', (c) => c.notNull())
      .addColumn('absolute_expires_at', 'text', (c) => c.notNull())
      .addColumn('fresh_proof_at', 'text')
      .execute();
    await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').column('operator_id').execute();
    await db.schema.createIndex('operator_sessions_idle').on('operator_sessions').column('idle_expires_at').execute();

    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      // No foreign key: the log outlives the operators it names, so it keeps their address.
      .addColumn('actor', 'text')
      .addColumn('via', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('subject', 'text')
      .addColumn('detail', 'text')
      .execute();
    await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
    await db.schema.createIndex('audit_log_actor_at').on('audit_log').columns(['actor', 'at', 'id']).execute();
    await db.schema.createIndex('audit_log_action_at').on('audit_log').columns(['action', 'at', 'id']).execute();

    // Append-only in the database too, not only in our code: an UPDATE or DELETE is refused.
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$`.execute(db);
      await sql`CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
    } else {
      await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`.execute(db);
      await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['audit_log', 'operator_sessions', 'operator_challenges', 'operator_recovery_codes', 'operators']) {
      await db.schema.dropTable(t).execute();
    }
    if (db.getExecutor().adapter instanceof PostgresAdapter)
      await sql`DROP FUNCTION IF EXISTS audit_log_append_only()`.execute(db);
  },
};
