import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertSubscriber } from '../test/fixtures.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../test/test-store.ts';
import { audienceReport } from './audience-report.ts';
import { purgeAnalytics } from './retention.ts';
import { VisitRecorder, type VisitRow } from './visit-recorder.ts';

const place = { city: 'Berlin', region: 'Land Berlin', country: 'DE', loc: '52.5200,13.4050', org: 'AS3320 Deutsche Telekom AG', postal: '10115', timezone: 'Europe/Berlin' };
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

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`visit recorder and audience report on ${label}`, () => {
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

      const report = await audienceReport(store.db, { from: '2026-11-19', to: '2026-11-21' });
      expect(report.days).toEqual([
        { day: '2026-11-19', visitors: 0, views: 0, signups: 0 },
        { day: '2026-11-20', visitors: 2, views: 4, signups: 0 },
        { day: '2026-11-21', visitors: 1, views: 1, signups: 0 },
      ]);
      expect(report.topPages).toEqual([
        { value: '/', visitors: 3, views: 4 },
        { value: '/privacy', visitors: 0, views: 1 },
      ]);
      expect(report.topReferrers[0]).toEqual({ value: 't.co', visitors: 2, views: 2 });
      expect(report.topReferrers[1]).toEqual({ value: '(direct)', visitors: 1, views: 3 });
      expect(report.topCountries).toEqual([
        { value: 'DE', visitors: 2, views: 4 },
        { value: 'JP', visitors: 1, views: 1 },
      ]);
      expect(report.topCities.map((c) => c.value)).toEqual(['Berlin, DE', 'Tokyo, JP']);
      const raw = await store.db.selectFrom('visits').selectAll().execute();
      expect(raw).toHaveLength(5);
    });

    it('computes visit → sign-up conversion over the range', async () => {
      const r = new VisitRecorder(store.db);
      for (let i = 0; i < 8; i++) r.add(visit({ visitor_hash: `v${i}` }));
      await r.flush();
      for (const email of ['a@x.io', 'b@x.io']) await insertSubscriber(store.db, email, { now: new Date('2026-11-20T11:00:00Z') });
      const report = await audienceReport(store.db, { from: '2026-11-20', to: '2026-11-20' });
      expect(report.totals).toEqual({ visitors: 8, views: 8, signups: 2, conversion: 0.25 });
      expect(report.days[0]?.signups).toBe(2);
    });

    it('refuses a range it cannot read, in words', async () => {
      await expect(audienceReport(store.db, { from: '2026-11-21', to: '2026-11-20' })).rejects.toThrow(/from ≤ to/);
      await expect(audienceReport(store.db, { from: 'yesterday', to: '2026-11-20' })).rejects.toThrow(/YYYY-MM-DD/);
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
      const old = await audienceReport(store.db, { from: '2026-08-01', to: '2026-08-01' });
      expect(old.totals.views).toBe(1);
      // The per-day visitor sets are only needed while a day can still get visits.
      const sets = await store.db.selectFrom('daily_visitors').select('day').execute();
      expect(sets.map((s) => s.day)).toEqual(['2026-11-20']);
    });
  });
}
