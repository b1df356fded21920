import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AudienceReport, audienceQuerySchema } from '../../../shared/admin/audience.ts';
import { addDays } from '../../lib/days.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { audienceOverview } from './audience-overview.ts';
import { audienceSumsOf, nextPresetChange } from './audience-sums.ts';

const PRESETS = ['today', '7d', '30d', '90d'] as const;

describe('when the presets change', () => {
  it('is five minutes after midnight UTC (yesterday closes), then the next midnight (the periods move on)', () => {
    expect(nextPresetChange(new Date('2026-11-22T15:00:00.000Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(nextPresetChange(new Date('2026-11-23T00:00:01.000Z')).toISOString()).toBe('2026-11-23T00:05:00.000Z');
    expect(nextPresetChange(new Date('2026-11-23T00:05:00.000Z')).toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`the audience-sums job on ${label}`, () => {
    let store: TestStore;
    let t: TestApp;
    const clock = testClock('2026-11-22T15:00:00.000Z');
    beforeEach(async () => {
      store = await openTestStore(dialect);
      clock.set('2026-11-22T15:00:00.000Z');
      t = await buildTestApp({ store, clock });
    });
    afterEach(async () => {
      await t.close();
      await store.destroy();
    });

    // 120 days of roll-ups up to 2026-11-23, each day's figures different, so a day left out or
    // counted twice changes every sum.
    const seed = async () => {
      const rows = [];
      for (let i = 0; i < 120; i++) {
        const day = addDays('2026-11-23', -i);
        const n = 1 + ((i * 7) % 13);
        rows.push(
          { day, dimension: 'total' as const, value: '', visitors: 10 * n, views: 20 * n },
          { day, dimension: 'country' as const, value: 'DE', visitors: 6 * n, views: 12 * n },
          { day, dimension: 'country' as const, value: 'FR', visitors: 4 * n + (i % 3), views: 8 * n },
          { day, dimension: 'city' as const, value: 'Berlin, DE', visitors: 5 * n, views: 9 * n },
          { day, dimension: 'city' as const, value: 'Paris, FR', visitors: 3 * n + (i % 5), views: 7 * n },
          { day, dimension: 'page' as const, value: i % 2 ? '/' : '/signup', visitors: 10 * n, views: 20 * n },
          { day, dimension: 'referrer' as const, value: i % 4 ? '' : 't.co', visitors: 10 * n, views: 20 * n },
        );
      }
      await store.db.insertInto('daily_counts').values(rows).execute();
    };
    const reports = async (): Promise<Record<string, AudienceReport>> => {
      const out: Record<string, AudienceReport> = {};
      for (const period of PRESETS)
        out[period] = await audienceOverview(store.db, audienceQuerySchema.parse({ period }), clock());
      return out;
    };
    const coldReports = async () => {
      audienceSumsOf(store.db).forget();
      const r = await reports();
      audienceSumsOf(store.db).forget();
      return r;
    };
    // Deleting the top lists' rows of closed days: a report can then only be right if it reads
    // none of them, i.e. if the job kept them all.
    const dropTopListRowsThrough = (day: string) =>
      store.db.deleteFrom('daily_counts').where('dimension', '!=', 'total').where('day', '<=', day).execute();

    it('keeps every preset’s closed days, so reports read none of them and answer as a cold read does, also after midnight', async () => {
      await seed();
      const afternoon = await coldReports();
      clock.set('2026-11-23T00:05:01.000Z');
      const afterMidnight = await coldReports();
      expect(afterMidnight['90d']?.countries).not.toEqual(afternoon['90d']?.countries);

      // An operator first, with nothing kept: the ranges are kept whole, without blocks. The job's
      // pass must still keep the blocks that tomorrow's ranges are made of.
      clock.set('2026-11-22T15:00:00.000Z');
      expect(await reports()).toEqual(afternoon);
      await t.app.jobs.runOnce('audience-sums');
      await dropTopListRowsThrough('2026-11-21');
      expect(await reports()).toEqual(afternoon);

      // 2026-11-22 closes at 00:05: the job's pass reads that one day (the older ones are gone
      // from the database now) and the reports still match.
      clock.set('2026-11-23T00:05:01.000Z');
      await t.app.jobs.runOnce('audience-sums');
      await dropTopListRowsThrough('2026-11-22');
      expect(await reports()).toEqual(afterMidnight);
    });

    it('keeps every closed week a custom range can reach, so a custom range reads only its edge days', async () => {
      await seed();
      // Thursday 13 August to Tuesday 20 October: four edge days, nine whole weeks, two edge days.
      const custom = audienceQuerySchema.parse({ period: 'custom', from: '2026-08-13', to: '2026-10-20' });
      const report = () => audienceOverview(store.db, custom, clock());
      audienceSumsOf(store.db).forget();
      const cold = await report();
      audienceSumsOf(store.db).forget();

      await t.app.jobs.runOnce('audience-sums');
      await store.db
        .deleteFrom('daily_counts')
        .where('dimension', '!=', 'total')
        .where('day', '>=', '2026-08-17')
        .where('day', '<=', '2026-10-18')
        .execute();
      expect(await report()).toEqual(cold);

      // What the weeks alone could not give: without them, the same report is short.
      audienceSumsOf(store.db).forget();
      expect((await report()).countries).not.toEqual(cold.countries);
    });

    it('keeps the sums in the app: its report answers from them until the app closes, then reads the store', async () => {
      await seed();
      const afternoon = await coldReports();
      await t.app.jobs.runOnce('audience-sums');
      await dropTopListRowsThrough('2026-11-21');
      expect(await reports()).toEqual(afternoon);
      await t.close();
      // The closed app's sums are gone with it: a report now reads what the store holds.
      expect((await reports())['90d']).not.toEqual(afternoon['90d']);
      t = await buildTestApp({ store, clock });
    });

    it('without the job, a report reads the closed days (the check above can fail)', async () => {
      await seed();
      const afternoon = await coldReports();
      await dropTopListRowsThrough('2026-11-21');
      expect((await reports())['90d']).not.toEqual(afternoon['90d']);
    });
  });
}
