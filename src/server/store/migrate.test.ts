import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore, testPostgresUrl, testSecrets, withLongStatements } from '../test/test-store.ts';
import { migrateToLatest } from './migrate.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `npm run db:migrate` as its own process, as a server's start would run it. */
function migrateProcess(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('migrations on SQLite', () => {
  it('several processes starting on one new file at once all succeed, and each migration is applied once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-migrate-race-'));
    dirs.push(dir);
    const file = path.join(dir, 'dh.sqlite');
    const runs = await Promise.all(Array.from({ length: 4 }, () => migrateProcess(`sqlite:${file}`)));
    for (const run of runs) expect(run.code, run.output).toBe(0);
    // Exactly one of them applied the migrations; the others found nothing to do.
    expect(runs.filter((r) => r.output.startsWith('Applied'))).toHaveLength(1);
    const db = new Database(file, { readonly: true });
    try {
      const names = db.prepare('select name from kysely_migration order by name').all() as { name: string }[];
      expect(new Set(names.map((n) => n.name)).size).toBe(names.length);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});

describe.skipIf(!testPostgresUrl)('migrations on PostgreSQL, beside another schema changing its columns', () => {
  // Kysely's own introspector reads every schema's columns and then asks pg_get_serial_sequence of
  // each: a column dropped elsewhere in between failed the run, and so a server's start (seen in CI
  // as `column "link_asked_at" of relation "allowlist_entries" does not exist`, another test's
  // 0024). A store introspects its own schema only (own-schema-introspector.ts).
  it(
    "Kysely's introspector trips over another schema's columns coming and going; a store's never does, and its migrations complete",
    { timeout: 60_000 },
    async () => {
      // A start on a database already up to date, as the server's second start in kill-9.test.ts:
      // nothing to apply, but the migrator still reads the catalogue.
      const store = await openTestStore('postgres');
      const pgSchema = store.pgSchema ?? '';
      const other = await openTestStore('postgres', { migrate: false });
      const churn = new pg.Client({ connectionString: other.url, options: `-c search_path=${other.pgSchema}` });
      await churn.connect();
      let churning = true;
      // A table can hold 1,600 columns, dropped ones included: made again every hundred.
      const churned = (async () => {
        while (churning) {
          await churn.query('create table elsewhere (id integer)');
          for (let n = 0; n < 100 && churning; n++) {
            await churn.query('alter table elsewhere add column passing integer');
            await churn.query('alter table elsewhere drop column passing');
          }
          await churn.query('drop table elsewhere');
        }
      })();
      const kyselys = new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: store.url, max: 1 }) }),
      });
      try {
        // The race is real: Kysely's introspector meets it within a few reads of the catalogue.
        let raced: unknown;
        for (let run = 0; run < 200 && !raced; run++)
          raced = await kyselys.introspection.getTables().then(
            () => undefined,
            (error: unknown) => error,
          );
        expect(String(raced)).toMatch(
          /(column "passing" of relation "elsewhere"|relation "\w+\.elsewhere") does not exist/,
        );
        // The same churn: a store's reads of its own tables, and every start's migrations, complete.
        for (let run = 0; run < 50; run++) {
          const tables = await store.db.introspection.getTables({ withInternalKyselyTables: true });
          expect(tables.every((t) => t.schema === pgSchema)).toBe(true);
          expect(tables.map((t) => t.name)).toContain('kysely_migration');
        }
        await withLongStatements(store, async (db) => {
          for (let run = 0; run < 6; run++)
            expect(await migrateToLatest(db, { pgSchema, secrets: testSecrets() })).toEqual([]);
        });
      } finally {
        churning = false;
        await churned;
        await churn.end();
        await kyselys.destroy();
        await other.destroy();
        await store.destroy();
      }
    },
  );
});
