import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditRowHash } from '../../store/audit-hash.ts';
import { openStore } from '../../store/database.ts';
import { migrateToLatest } from '../../store/migrate.ts';
import { signupsMigration } from '../../store/migrations/0001-signups.ts';
import { analyticsMigration } from '../../store/migrations/0002-analytics.ts';
import { linkKeysMigration } from '../../store/migrations/0003-link-keys.ts';
import { operatorsMigration } from '../../store/migrations/0004-operators.ts';
import { serverDatabaseUrl, dialectCases, openTestStore, type TestStore, testSecrets } from '../../test/test-store.ts';
import { verifyAuditChain } from './audit-chain.ts';
import { recordAudit } from './audit.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

/** Ten entries, a minute apart. */
async function seed(store: TestStore, n = 10): Promise<void> {
  for (let i = 0; i < n; i++) {
    await recordAudit(
      store.db,
      new Date(Date.parse('2026-11-20T10:00:00.000Z') + i * 60_000),
      { email: 'op@example.com', via: 'console' },
      { action: 'sign-out', detail: `entry ${i + 1}` },
    );
  }
}

const idAt = async (store: TestStore, seq: number) =>
  (await store.db.selectFrom('audit_log').select('id').where('seq', '=', seq).executeTakeFirstOrThrow()).id;

function auditVerify(url: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/audit-verify.ts')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`the audit chain (${label})`, { timeout: 60_000 }, () => {
    let store: TestStore;
    beforeEach(async () => {
      store = await openTestStore(dialect);
      await seed(store);
    });
    afterEach(() => store.destroy());

    /** Goes below the app: the guards off, as someone with the database's owner role could. */
    const guardsOff = async () => {
      if (dialect === 'postgres') {
        await sql`ALTER TABLE audit_log DISABLE TRIGGER USER`.execute(store.db);
        await sql`ALTER TABLE audit_chain_head DISABLE TRIGGER USER`.execute(store.db);
      } else {
        for (const t of ['audit_log_no_update', 'audit_log_no_delete'])
          await sql`DROP TRIGGER ${sql.ref(t)}`.execute(store.db);
      }
    };

    it('verifies a clean log, and audit:verify says so with exit code 0', async () => {
      expect(await verifyAuditChain(store.db)).toEqual({ ok: true, rows: 10, problems: [] });
      const rows = await store.db.selectFrom('audit_log').select(['seq', 'prev_hash', 'hash']).orderBy('seq').execute();
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(rows[1]?.prev_hash).toBe(rows[0]?.hash);
      const run = await auditVerify(serverDatabaseUrl(store));
      expect(run.err).toBe('');
      expect(run.out).toMatch(/Chain verified: 10 rows/);
      expect(run.code).toBe(0);
    });

    it('names a row deleted below the app, and the guard that was removed', async () => {
      const id = await idAt(store, 4);
      await guardsOff();
      await sql`DELETE FROM audit_log WHERE seq = 4`.execute(store.db);
      const report = await verifyAuditChain(store.db);
      expect(report.ok).toBe(false);
      expect(report.problems.join('\n')).toMatch(/missing or disabled: .*audit_log_(no_delete|append_only)/);
      expect(report.problems.at(-1)).toMatch(/^Missing row: seq 4 is gone \(deleted\) before row seq 5 /);
      expect(report.problems.join('\n')).not.toContain(id);
      const run = await auditVerify(serverDatabaseUrl(store));
      expect(run.code).toBe(1);
      expect(run.err).toMatch(/does NOT verify[\s\S]*Missing row: seq 4/);
    });

    it('names an edited row', async () => {
      const id = await idAt(store, 3);
      await guardsOff();
      await sql`UPDATE audit_log SET detail = 'nothing happened' WHERE seq = 3`.execute(store.db);
      const report = await verifyAuditChain(store.db);
      expect(report.problems.at(-1)).toBe(
        `Edited: row seq 3 (id ${id}, sign-out at 2026-11-20T10:02:00.000Z) no longer matches its hash; its content was changed after it was written.`,
      );
    });

    it('names a row rewritten with a fresh hash by the link from the next one', async () => {
      await guardsOff();
      const row = await store.db.selectFrom('audit_log').selectAll().where('seq', '=', 6).executeTakeFirstOrThrow();
      const forged = { ...row, seq: Number(row.seq), detail: 'forged' };
      await sql`UPDATE audit_log SET detail = 'forged', hash = ${auditRowHash(forged)} WHERE seq = 6`.execute(store.db);
      const report = await verifyAuditChain(store.db);
      expect(report.problems.at(-1)).toMatch(
        /^Broken link: row seq 7 .* does not follow row seq 6 .*replaced or rewritten/,
      );
    });

    it('names reordered rows', async () => {
      const moved = await idAt(store, 5);
      await guardsOff();
      await sql`UPDATE audit_log SET seq = -5 WHERE seq = 5`.execute(store.db);
      await sql`UPDATE audit_log SET seq = 5 WHERE seq = 6`.execute(store.db);
      await sql`UPDATE audit_log SET seq = 6 WHERE seq = -5`.execute(store.db);
      const report = await verifyAuditChain(store.db);
      // The row now at seq 5 was written as seq 6, after the one now at seq 6.
      expect(report.problems.at(-1)).toMatch(/^Reordered: row seq 5 \(id [0-9a-f-]+, .*\) was written as seq 6/);
      expect(report.problems.at(-1)).not.toContain(moved);
    });

    it('names rows slipped in without a place in the chain', async () => {
      if (dialect === 'postgres') {
        // The columns are NOT NULL there: refused outright.
        await expect(
          sql`INSERT INTO audit_log (id, at, via, action) VALUES ('forged', '2026-11-20T10:30:00.000Z', 'console', 'sign-out')`.execute(
            store.db,
          ),
        ).rejects.toThrow(/null/);
        return;
      }
      await expect(
        sql`INSERT INTO audit_log (id, at, via, action) VALUES ('forged', '2026-11-20T10:30:00.000Z', 'console', 'sign-out')`.execute(
          store.db,
        ),
      ).rejects.toThrow(/needs its seq/);
      await sql`DROP TRIGGER audit_log_chained`.execute(store.db);
      await sql`INSERT INTO audit_log (id, at, via, action) VALUES ('forged', '2026-11-20T10:30:00.000Z', 'console', 'sign-out')`.execute(
        store.db,
      );
      const report = await verifyAuditChain(store.db);
      expect(report.problems).toContain(
        'Unchained: 1 row has no place in the chain (no seq or hash); inserted below the app.',
      );
      expect(report.problems.join('\n')).toMatch(/missing or disabled: audit_log_chained/);
    });

    it('names rows cut from the end of the log', async () => {
      await guardsOff();
      await sql`DELETE FROM audit_log WHERE seq >= 9`.execute(store.db);
      const report = await verifyAuditChain(store.db);
      expect(report.problems.at(-1)).toMatch(/^Missing rows: seq 9 to 10 after seq 8 .*the end was cut off/);
    });

    it('refuses TRUNCATE (PostgreSQL), and shows a log emptied below the app', async () => {
      if (dialect === 'postgres') {
        await expect(sql`TRUNCATE audit_log`.execute(store.db)).rejects.toThrow(/append-only/);
        await expect(sql`TRUNCATE audit_chain_head`.execute(store.db)).rejects.toThrow(/append-only/);
        expect((await verifyAuditChain(store.db)).ok).toBe(true);
        await guardsOff();
        await sql`TRUNCATE audit_log`.execute(store.db);
      } else {
        await guardsOff();
        await sql`DELETE FROM audit_log`.execute(store.db);
      }
      const report = await verifyAuditChain(store.db);
      expect(report.ok).toBe(false);
      expect(report.problems.at(-1)).toBe(
        'Missing rows: the log is empty but the chain head says 10 rows were written (seq 1 to 10): the log was emptied.',
      );
    });

    it('lets the head move forward one row only, and never be deleted', async () => {
      await expect(sql`UPDATE audit_chain_head SET seq = 3`.execute(store.db)).rejects.toThrow(/one row at a time/);
      await expect(sql`DELETE FROM audit_chain_head`.execute(store.db)).rejects.toThrow(
        /never deleted|one row at a time/,
      );
    });

    it("appends inside a caller's transaction, and rolls back with it", async () => {
      await store.db.transaction().execute(async (tx) => {
        await recordAudit(
          tx,
          new Date('2026-11-20T11:00:00.000Z'),
          { email: null, via: 'command-line' },
          { action: 'operator.added', subject: 'x@example.com' },
        );
      });
      await expect(
        store.db.transaction().execute(async (tx) => {
          await recordAudit(
            tx,
            new Date('2026-11-20T11:01:00.000Z'),
            { email: null, via: 'command-line' },
            { action: 'operator.removed', subject: 'x@example.com' },
          );
          throw new Error('the work it recorded failed');
        }),
      ).rejects.toThrow(/failed/);
      expect(await verifyAuditChain(store.db)).toEqual({ ok: true, rows: 11, problems: [] });
    });

    // PostgreSQL alone has roles, and connections that can append at the same instant.
    if (dialect === 'postgres') {
      it('runs as the app role of docs/deploy.md: appends and verifies, but cannot truncate, delete, edit or unguard the log', async () => {
        const role = `dh_app_${randomBytes(5).toString('hex')}`;
        const schema = sql.id(store.pgSchema ?? 'public');
        // As the owner (here the test's superuser), after the migrations: docs/deploy.md's grants.
        await sql`CREATE ROLE ${sql.id(role)} NOLOGIN`.execute(store.db);
        const app = await openStore(store.url, { pgSchema: store.pgSchema ?? '', pgPoolSize: 1 });
        try {
          await sql`GRANT USAGE ON SCHEMA ${schema} TO ${sql.id(role)}`.execute(store.db);
          await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${sql.id(role)}`.execute(
            store.db,
          );
          await sql`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${sql.id(role)}`.execute(store.db);
          await sql`REVOKE UPDATE, DELETE ON audit_log FROM ${sql.id(role)}`.execute(store.db);
          await sql`REVOKE DELETE ON audit_chain_head FROM ${sql.id(role)}`.execute(store.db);
          // One connection, switched to the app role for good.
          await sql`SET ROLE ${sql.id(role)}`.execute(app.db);
          expect((await sql<{ r: string }>`SELECT current_user AS r`.execute(app.db)).rows[0]?.r).toBe(role);
          await recordAudit(
            app.db,
            new Date('2026-11-20T11:00:00.000Z'),
            { email: null, via: 'anonymous' },
            { action: 'sign-in.failed' },
          );
          expect(await verifyAuditChain(app.db)).toEqual({ ok: true, rows: 11, problems: [] });
          for (const statement of [
            sql`TRUNCATE audit_log`,
            sql`DELETE FROM audit_log WHERE seq = 1`,
            sql`UPDATE audit_log SET detail = 'x' WHERE seq = 1`,
            sql`ALTER TABLE audit_log DISABLE TRIGGER USER`,
            sql`DROP TRIGGER audit_log_append_only ON audit_log`,
            sql`DROP TABLE audit_log`,
            sql`DELETE FROM audit_chain_head`,
            sql`TRUNCATE audit_chain_head`,
          ]) {
            await expect(statement.execute(app.db), statement.compile(app.db).sql).rejects.toThrow(
              /permission denied|must be (the )?owner/,
            );
          }
          expect((await verifyAuditChain(store.db)).ok).toBe(true);
        } finally {
          await app.close();
          await sql`DROP OWNED BY ${sql.id(role)}`.execute(store.db);
          await sql`DROP ROLE ${sql.id(role)}`.execute(store.db);
        }
      });

      it('keeps one chain when two instances append at once', async () => {
        const other = await openStore(store.url, { pgSchema: store.pgSchema ?? '' });
        try {
          const append = (db: typeof store.db, i: number) =>
            recordAudit(
              db,
              new Date(Date.parse('2026-11-20T12:00:00.000Z') + i),
              { email: null, via: 'anonymous' },
              { action: 'sign-in.failed', detail: `try ${i}` },
            );
          await Promise.all(Array.from({ length: 60 }, (_, i) => append(i % 2 ? store.db : other.db, i)));
        } finally {
          await other.close();
        }
        expect(await verifyAuditChain(store.db)).toEqual({ ok: true, rows: 70, problems: [] });
      });
    }
  });

  describe.skipIf(skip)(`migration 0011 on ${label}`, () => {
    let store: TestStore;
    beforeEach(async () => {
      store = await openTestStore(dialect, { migrate: false });
    });
    afterEach(() => store.destroy());

    it('chains the rows written before it in the order the console showed them (at, id)', async () => {
      const before = new Migrator({
        db: store.db,
        provider: {
          getMigrations: async () => ({
            '0001-signups': signupsMigration,
            '0002-analytics': analyticsMigration,
            '0003-link-keys': linkKeysMigration,
            '0004-operators': operatorsMigration,
          }),
        },
        ...(store.pgSchema ? { migrationTableSchema: store.pgSchema } : {}),
      });
      expect((await before.migrateToLatest()).error).toBeUndefined();
      for (const [id, at] of [
        ['b', '2026-11-20T10:00:00.000Z'],
        ['a', '2026-11-20T10:00:00.000Z'],
        ['c', '2026-11-19T09:00:00.000Z'],
      ]) {
        await sql`INSERT INTO audit_log (id, at, actor, via, action) VALUES (${id}, ${at}, NULL, 'command-line', 'operator.added')`.execute(
          store.db,
        );
      }
      await migrateToLatest(store.db, {
        ...(store.pgSchema ? { pgSchema: store.pgSchema } : {}),
        secrets: testSecrets(),
      });
      const rows = await store.db.selectFrom('audit_log').select(['id', 'seq']).orderBy('seq').execute();
      expect(rows.map((r) => [r.id, r.seq])).toEqual([
        ['c', 1],
        ['a', 2],
        ['b', 3],
      ]);
      await recordAudit(
        store.db,
        new Date('2026-11-21T00:00:00.000Z'),
        { email: null, via: 'command-line' },
        { action: 'operator.removed' },
      );
      expect(await verifyAuditChain(store.db)).toEqual({ ok: true, rows: 4, problems: [] });
      // The backfill put the guards back.
      await expect(sql`UPDATE audit_log SET action = 'x'`.execute(store.db)).rejects.toThrow(/append-only/);
    });
  });
}
