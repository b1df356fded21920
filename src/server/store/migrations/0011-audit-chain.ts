import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { auditRowHash, GENESIS_HASH } from '../audit-hash.ts';
import type { AuditLogTable } from '../schema.ts';

// The audit log becomes a hash chain (docs/decisions/0032-tamper-evident-audit-and-deploy-defaults.md):
// a sequence number, the previous row's hash and the row's own hash on every row, and a one-row
// head holding the last of them. Rows already written are chained in the order (at, id) that the
// console has always shown them in. PostgreSQL also refuses TRUNCATE now, which the row triggers
// of 0004 never saw.
export const auditChainMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema.alterTable('audit_log').addColumn('seq', 'integer').execute();
    await db.schema.alterTable('audit_log').addColumn('prev_hash', 'text').execute();
    await db.schema.alterTable('audit_log').addColumn('hash', 'text').execute();

    await db.schema
      .createTable('audit_chain_head')
      // One row: id is always 1.
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .execute();

    // The backfill has to UPDATE rows the append-only triggers protect: set them aside for it, in
    // this migration's transaction (both engines run it in one; see migrate.ts).
    if (pg) await sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only`.execute(db);
    else await sql`DROP TRIGGER audit_log_no_update`.execute(db);

    const rows = (
      await sql<AuditLogTable>`SELECT id, at, actor, via, action, subject, detail FROM audit_log ORDER BY at, id`.execute(
        db,
      )
    ).rows;
    let prev = GENESIS_HASH;
    let seq = 0;
    for (const r of rows) {
      seq++;
      const hash = auditRowHash({ ...r, seq, prev_hash: prev });
      await sql`UPDATE audit_log SET seq = ${seq}, prev_hash = ${prev}, hash = ${hash} WHERE id = ${r.id}`.execute(db);
      prev = hash;
    }
    await sql`INSERT INTO audit_chain_head (id, seq, hash) VALUES (1, ${seq}, ${prev})`.execute(db);
    await db.schema.createIndex('audit_log_seq').on('audit_log').column('seq').unique().execute();

    if (pg) {
      await sql`ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only`.execute(db);
      for (const c of ['seq', 'prev_hash', 'hash'])
        await sql`ALTER TABLE audit_log ALTER COLUMN ${sql.ref(c)} SET NOT NULL`.execute(db);
      // Row triggers do not fire on TRUNCATE; a statement trigger does.
      await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(db);
      // The head only ever moves one step forward, and is never deleted or truncated.
      await sql`CREATE FUNCTION audit_chain_head_guard() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'UPDATE' AND NEW.seq = OLD.seq + 1 AND NEW.id = OLD.id THEN RETURN NEW; END IF;
          RAISE EXCEPTION 'the audit chain head only moves forward one row at a time';
        END $$`.execute(db);
      await sql`CREATE TRIGGER audit_chain_head_guard BEFORE UPDATE OR DELETE ON audit_chain_head
        FOR EACH ROW EXECUTE FUNCTION audit_chain_head_guard()`.execute(db);
      await sql`CREATE TRIGGER audit_chain_head_no_truncate BEFORE TRUNCATE ON audit_chain_head
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(db);
    } else {
      await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`.execute(db);
      // SQLite cannot add NOT NULL to a column; a row without its chain fields is refused here.
      await sql`CREATE TRIGGER audit_log_chained BEFORE INSERT ON audit_log
        WHEN NEW.seq IS NULL OR NEW.prev_hash IS NULL OR NEW.hash IS NULL
        BEGIN SELECT RAISE(ABORT, 'an audit row needs its seq, prev_hash and hash'); END`.execute(db);
      await sql`CREATE TRIGGER audit_chain_head_no_delete BEFORE DELETE ON audit_chain_head
        BEGIN SELECT RAISE(ABORT, 'the audit chain head is never deleted'); END`.execute(db);
      await sql`CREATE TRIGGER audit_chain_head_forward BEFORE UPDATE ON audit_chain_head
        WHEN NEW.seq <> OLD.seq + 1 OR NEW.id <> OLD.id
        BEGIN SELECT RAISE(ABORT, 'the audit chain head only moves forward one row at a time'); END`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    if (pg) {
      await sql`DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log`.execute(db);
      await db.schema.dropTable('audit_chain_head').execute();
      await sql`DROP FUNCTION IF EXISTS audit_chain_head_guard()`.execute(db);
    } else {
      await sql`DROP TRIGGER IF EXISTS audit_log_chained`.execute(db);
      await db.schema.dropTable('audit_chain_head').execute();
    }
    await db.schema.dropIndex('audit_log_seq').execute();
    for (const c of ['hash', 'prev_hash', 'seq']) await db.schema.alterTable('audit_log').dropColumn(c).execute();
  },
};
