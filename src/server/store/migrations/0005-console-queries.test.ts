import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertSubscriber } from '../../test/fixtures.ts';
import { migrateTheRest, migrateUpTo } from '../../test/migration-steps.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`migration 0005 on ${label}`, () => {
    let store: TestStore;
    beforeEach(async () => {
      store = await openTestStore(dialect, { migrate: false });
    });
    afterEach(() => store.destroy());

    // Migrates a fresh schema to 0002, fills it, then runs every later migration: about 5 s on
    // PostgreSQL here.
    it(
      'carries an existing list over: sign-ups per day backfilled, existing people searchable',
      { timeout: 40_000 },
      async () => {
        await migrateUpTo(store, '0002-analytics');
        await insertSubscriber(store.db, 'early@example.com', { now: new Date('2026-11-20T10:00:00Z') });
        await insertSubscriber(store.db, 'second@example.com', { now: new Date('2026-11-20T11:00:00Z') });

        expect(await migrateTheRest(store)).toContain('0005-console-queries');
        const days = await store.db.selectFrom('daily_signups').selectAll().execute();
        expect(days.map((d) => [d.day, Number(d.signups)])).toEqual([['2026-11-20', 2]]);

        const found =
          dialect === 'sqlite'
            ? await sql<{
                n: number;
              }>`select count(*) as n from subscribers_search where subscribers_search match '"early@"'`.execute(
                store.db,
              )
            : await sql<{
                n: number;
              }>`select count(*) as n from pg_indexes where indexname = 'subscribers_search_trgm' and schemaname = current_schema()`.execute(
                store.db,
              );
        expect(Number(found.rows[0]?.n)).toBe(1);

        // And from now on the trigger counts each insert, also a multi-row one.
        await insertSubscriber(store.db, 'third@example.com', { now: new Date('2026-11-20T12:00:00Z') });
        const after = await store.db
          .selectFrom('daily_signups')
          .select('signups')
          .where('day', '=', '2026-11-20')
          .executeTakeFirstOrThrow();
        expect(Number(after.signups)).toBe(3);
      },
    );
  });
}
