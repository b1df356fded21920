import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CountDimension } from '../../store/schema.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { purgeAnalytics } from './retention.ts';
import { VisitRecorder, type VisitRow } from './visit-recorder.ts';

const place = {
  city: 'Berlin',
  region: 'Land Berlin',
  country: 'DE',
  loc: '52.5200,13.4050',
  org: 'AS3320 Deutsche Telekom AG',
  postal: '10115',
  timezone: 'Europe/Berlin',
};
const visit = (over: Partial<VisitRow>): VisitRow => ({
  at: '2026-11-20T10:00:00.000Z',
  day: '2026-11-20',
  path: '/',
  referrer_host: '',
  visitor_hash: 'v1',
  ...place,
  client_timezone: 'Europe/Berlin',
  language: 'de-DE',
  ...over,
});

// What the recorder rolled up for one dimension from `from` to `to` (UTC days): per value, the
// visitors and views summed over the days, most visitors first. The console's own reading of these
// roll-ups is audience-overview.ts, tested in audience-overview.test.ts.
async function rolledUp(store: TestStore, dimension: CountDimension, from: string, to: string) {
  const rows = await store.db
    .selectFrom('daily_counts')
    .select((eb) => ['value', eb.fn.sum<number>('visitors').as('visitors'), eb.fn.sum<number>('views').as('views')])
    .where('dimension', '=', dimension)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('value')
    .orderBy('visitors', 'desc')
    .orderBy('views', 'desc')
    .orderBy('value')
    .execute();
  return rows.map((r) => ({ value: r.value, visitors: Number(r.visitors), views: Number(r.views) }));
}

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`visit recorder on ${label}`, () => {
    let store: TestStore;
    beforeEach(async () => {
      store = await openTestStore(dialect);
    });
    afterEach(() => store.destroy());

    it('rolls visits up per day: views per visit, visitors once per day, across flushes and instances', async () => {
      const a = new VisitRecorder(store.db);
      const b = new VisitRecorder(store.db); // a second instance on the same database
      a.add(visit({ visitor_hash: 'v1', referrer_host: 't.co' }));
      a.add(visit({ visitor_hash: 'v1', path: '/privacy' }));
      a.add(visit({ visitor_hash: 'v2', city: 'Tokyo', country: 'JP', referrer_host: 't.co' }));
      await a.flush();
      b.add(visit({ visitor_hash: 'v1' })); // seen already today: a view, not a visitor
      b.add(visit({ visitor_hash: 'v3', day: '2026-11-21', at: '2026-11-21T09:00:00.000Z' }));
      await b.flush();

      const days = await store.db
        .selectFrom('daily_counts')
        .select(['day', 'visitors', 'views'])
        .where('dimension', '=', 'total')
        .orderBy('day')
        .execute();
      expect(days.map((d) => ({ day: d.day, visitors: Number(d.visitors), views: Number(d.views) }))).toEqual([
        { day: '2026-11-20', visitors: 2, views: 4 },
        { day: '2026-11-21', visitors: 1, views: 1 },
      ]);
      const range = ['2026-11-19', '2026-11-21'] as const;
      expect(await rolledUp(store, 'page', ...range)).toEqual([
        { value: '/', visitors: 3, views: 4 },
        { value: '/privacy', visitors: 0, views: 1 },
      ]);
      expect(await rolledUp(store, 'referrer', ...range)).toEqual([
        { value: 't.co', visitors: 2, views: 2 },
        { value: '', visitors: 1, views: 3 }, // direct
      ]);
      expect(await rolledUp(store, 'country', ...range)).toEqual([
        { value: 'DE', visitors: 2, views: 4 },
        { value: 'JP', visitors: 1, views: 1 },
      ]);
      expect((await rolledUp(store, 'city', ...range)).map((c) => c.value)).toEqual(['Berlin, DE', 'Tokyo, JP']);
      const raw = await store.db.selectFrom('visits').selectAll().execute();
      expect(raw).toHaveLength(5);
    });

    it('holds at most maxRows visits; the rest are dropped and counted by day in abuse_counters', async () => {
      const r = new VisitRecorder(store.db, { maxRows: 5, flushMs: 60_000 });
      const accepted = Array.from({ length: 8 }, (_, i) => r.add(visit({ visitor_hash: `v${i}` })));
      expect(accepted).toEqual([true, true, true, true, true, false, false, false]);
      await r.flush();
      // Written, so there is room again.
      expect(r.add(visit({ visitor_hash: 'later' }))).toBe(true);
      await r.flush();
      expect(await store.db.selectFrom('visits').select('visitor_hash').execute()).toHaveLength(6);
      const counters = await store.db.selectFrom('abuse_counters').selectAll().execute();
      expect(counters.map((c) => ({ ...c, count: Number(c.count) }))).toEqual([
        { day: '2026-11-20', reason: 'visit-buffer-full', count: 3 },
      ]);
    });

    it('counts the first N referrer hosts of a day by name, across instances; later new hosts become "(other)", raw rows too', async () => {
      const a = new VisitRecorder(store.db, { referrerHostsPerDay: 3 });
      const b = new VisitRecorder(store.db, { referrerHostsPerDay: 3 });
      a.add(visit({ visitor_hash: 'v1', referrer_host: 't.co' }));
      a.add(visit({ visitor_hash: 'v2', referrer_host: 't.me' }));
      await a.flush();
      b.add(visit({ visitor_hash: 'v3', referrer_host: 'reddit.com' }));
      for (let i = 0; i < 30; i++)
        b.add(visit({ visitor_hash: `s${i}`, referrer_host: `buy-cheap-${i}.spam.example` }));
      b.add(visit({ visitor_hash: 'v4', referrer_host: 't.co' })); // known: still by name
      b.add(visit({ visitor_hash: 'v5', referrer_host: '' })); // direct is not a host
      b.add(
        visit({ visitor_hash: 'v6', day: '2026-11-21', at: '2026-11-21T09:00:00.000Z', referrer_host: 'news.example' }),
      ); // a new day
      await b.flush();

      const referrers = await store.db
        .selectFrom('daily_counts')
        .select(['day', 'value', 'views'])
        .where('dimension', '=', 'referrer')
        .orderBy('day')
        .orderBy('value')
        .execute();
      expect(referrers.map((r) => [r.day, r.value, Number(r.views)])).toEqual([
        ['2026-11-20', '', 1],
        ['2026-11-20', '(other)', 30],
        ['2026-11-20', 'reddit.com', 1],
        ['2026-11-20', 't.co', 2],
        ['2026-11-20', 't.me', 1],
        ['2026-11-21', 'news.example', 1],
      ]);
      const raw = await store.db
        .selectFrom('visits')
        .select('referrer_host')
        .where('referrer_host', 'like', '%spam%')
        .execute();
      expect(raw).toEqual([]);
    });

    it('keeps counting what it dropped when a write fails, and writes those counts once the database is back', async () => {
      const r = new VisitRecorder(store.db, { maxRows: 1, flushMs: 60_000, onError: () => undefined });
      r.add(visit({ visitor_hash: 'v1' }));
      r.add(visit({ visitor_hash: 'v2' })); // over the cap
      // A row the database refuses (NOT NULL) makes the whole flush fail.
      r.add(visit({ visitor_hash: 'v3' }));
      await r.flush();
      r.add({ ...visit({ visitor_hash: 'bad' }), path: null as unknown as string });
      await r.flush();
      r.add(visit({ visitor_hash: 'v4' }));
      await r.flush();
      const counters = await store.db
        .selectFrom('abuse_counters')
        .select(['reason', 'count'])
        .orderBy('reason')
        .execute();
      expect(counters.map((c) => [c.reason, Number(c.count)])).toEqual([
        ['visit-buffer-full', 2],
        ['visit-write-failed', 1],
      ]);
      expect(
        (await store.db.selectFrom('visits').select('visitor_hash').orderBy('visitor_hash').execute()).map(
          (v) => v.visitor_hash,
        ),
      ).toEqual(['v1', 'v4']);
    });

    it('deletes raw visits past retention but keeps their roll-ups', async () => {
      const r = new VisitRecorder(store.db);
      r.add(visit({ day: '2026-08-01', at: '2026-08-01T10:00:00.000Z' }));
      r.add(visit({ day: '2026-11-20' }));
      await r.flush();
      const clock = testClock('2026-11-21T12:00:00.000Z');
      await purgeAnalytics(store.db, clock(), 90);
      const raw = await store.db.selectFrom('visits').select('day').execute();
      expect(raw.map((v) => v.day)).toEqual(['2026-11-20']);
      expect(await rolledUp(store, 'total', '2026-08-01', '2026-08-01')).toEqual([
        { value: '', visitors: 1, views: 1 },
      ]);
      // The per-day visitor sets are only needed while a day can still get visits.
      const sets = await store.db.selectFrom('daily_visitors').select('day').execute();
      expect(sets.map((s) => s.day)).toEqual(['2026-11-20']);
    });
  });
}
