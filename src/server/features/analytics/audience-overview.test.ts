import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { audienceQuerySchema, audienceReportSchema } from '../../../shared/admin/audience.ts';
import { locales } from '../../../shared/locales.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { unspokenLocale } from '../../test/locales-kit.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { audienceOverview, liveVisitors } from './audience-overview.ts';
import { resolvePeriod } from './audience-period.ts';
import { VisitRecorder, type VisitRow } from './visit-recorder.ts';

const now = new Date('2026-11-22T15:00:00.000Z');
const q = (raw: Record<string, string>) => audienceQuerySchema.parse(raw);

describe('audience periods', () => {
  it('resolves presets ending today and the previous period of the same length', () => {
    expect(resolvePeriod(q({ period: 'today' }), now)).toEqual({
      period: { from: '2026-11-22', to: '2026-11-22', days: 1 },
      previous: { from: '2026-11-21', to: '2026-11-21', days: 1 },
    });
    expect(resolvePeriod(q({}), now)).toEqual({
      period: { from: '2026-11-16', to: '2026-11-22', days: 7 },
      previous: { from: '2026-11-09', to: '2026-11-15', days: 7 },
    });
    expect(resolvePeriod(q({ period: '90d' }), now).period).toEqual({ from: '2026-08-25', to: '2026-11-22', days: 90 });
    expect(resolvePeriod(q({ period: 'custom', from: '2024-02-28', to: '2024-03-01' }), now)).toEqual({
      period: { from: '2024-02-28', to: '2024-03-01', days: 3 },
      previous: { from: '2024-02-25', to: '2024-02-27', days: 3 },
    });
  });

  it('refuses bad periods in words, naming the field', () => {
    const issues = (raw: Record<string, string>) => {
      const r = audienceQuerySchema.safeParse(raw);
      return r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
    };
    expect(issues({ period: 'week' })).toEqual([['period', 'The period must be today, 7d, 30d, 90d or custom.']]);
    expect(issues({ period: 'custom' })).toEqual([
      ['from', 'Choose a start date for a custom period.'],
      ['to', 'Choose an end date for a custom period.'],
    ]);
    expect(issues({ period: 'custom', from: '2026-02-30', to: '2026-03-01' })).toEqual([
      ['from', 'The start date must be a date written YYYY-MM-DD, such as 2026-11-22.'],
    ]);
    expect(issues({ period: 'custom', from: '2026-11-02', to: '2026-11-01' })).toEqual([
      ['from', 'The start date must be on or before the end date.'],
    ]);
    expect(issues({ period: 'custom', from: '2025-01-01', to: '2026-01-01' })).toEqual([]); // 366 days
    expect(issues({ period: 'custom', from: '2025-01-01', to: '2026-01-02' })).toEqual([
      ['to', 'A period can be at most 366 days long.'],
    ]);
  });
});

const visit = (over: Partial<VisitRow>): VisitRow => ({
  at: '2026-11-22T10:00:00.000Z',
  day: '2026-11-22',
  path: '/',
  referrer_host: '',
  visitor_hash: 'v1',
  city: 'Berlin',
  region: 'Land Berlin',
  country: 'DE',
  loc: 'x',
  org: 'x',
  postal: 'x',
  timezone: 'Europe/Berlin',
  client_timezone: 'Europe/Berlin',
  language: 'de',
  ...over,
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`audience overview on ${label}`, () => {
    let store: TestStore;
    beforeEach(async () => {
      store = await openTestStore(dialect);
    });
    afterEach(() => store.destroy());

    it('reports a period beside the previous one: totals, conversion, a daily series and top lists with cities', async () => {
      const rec = new VisitRecorder(store.db);
      // Previous period (2026-11-21): one visitor.
      rec.add(visit({ day: '2026-11-21', at: '2026-11-21T09:00:00.000Z', visitor_hash: 'p1' }));
      // This period (2026-11-22): four visitors, five views.
      rec.add(visit({ visitor_hash: 'a', referrer_host: 't.co' }));
      rec.add(visit({ visitor_hash: 'a', path: '/privacy' }));
      rec.add(visit({ visitor_hash: 'b', city: 'Munich' }));
      rec.add(visit({ visitor_hash: 'c', city: 'Paris', country: 'FR', referrer_host: 't.co' }));
      rec.add(visit({ visitor_hash: 'd', city: 'Unknown', country: 'FR' }));
      await rec.flush();
      await insertSubscriber(store.db, 'x@example.com', { now: new Date('2026-11-22T11:00:00.000Z') });
      const gone = await insertSubscriber(store.db, 'y@example.com', { now: new Date('2026-11-22T12:00:00.000Z') });
      await store.db.deleteFrom('subscribers').where('id', '=', gone).execute(); // erased: still counted

      const report = await audienceOverview(store.db, q({ period: 'today' }), now);
      expect(audienceReportSchema.parse(report)).toEqual(report);
      expect(report.totals).toEqual({ visitors: 4, views: 5, signups: 2, conversion: 0.5 });
      expect(report.previousTotals).toEqual({ visitors: 1, views: 1, signups: 0, conversion: 0 });
      expect(report.series).toEqual([{ day: '2026-11-22', visitors: 4, views: 5, signups: 2 }]);
      expect(report.countries).toEqual([
        {
          country: 'DE',
          visitors: 2,
          views: 3,
          cities: [
            { city: 'Berlin', visitors: 1, views: 2 },
            { city: 'Munich', visitors: 1, views: 1 },
          ],
        },
        { country: 'FR', visitors: 2, views: 2, cities: [{ city: 'Paris', visitors: 1, views: 1 }] },
      ]);
      expect(report.pages).toEqual([
        { path: '/', visitors: 4, views: 4 },
        { path: '/privacy', visitors: 0, views: 1 },
      ]);
      expect(report.referrers).toEqual([
        { host: '(direct)', visitors: 2, views: 3 },
        { host: 't.co', visitors: 2, views: 2 },
      ]);

      const week = await audienceOverview(store.db, q({ period: '7d' }), now);
      expect(week.series).toHaveLength(7);
      expect(week.series.at(-2)).toEqual({ day: '2026-11-21', visitors: 1, views: 1, signups: 0 });
      expect(week.totals.visitors).toBe(5);
    });

    it('counts visits by the locale of the page and sign-ups by the locale they signed up in', async () => {
      const rec = new VisitRecorder(store.db);
      // Paths as the beacon route counts them (page-locale.ts): English at the root.
      rec.add(visit({ visitor_hash: 'en1', path: '/' }));
      rec.add(visit({ visitor_hash: 'en1', path: '/privacy' }));
      rec.add(visit({ visitor_hash: 'es1', path: '/es/' }));
      rec.add(visit({ visitor_hash: 'es1', path: '/es/privacy' }));
      rec.add(visit({ visitor_hash: 'es2', path: '/es/(other)' }));
      rec.add(visit({ visitor_hash: 'ar1', path: '/ar/' }));
      rec.add(visit({ visitor_hash: 'x1', path: '(other)' }));
      await rec.flush();
      const signUp = async (email: string, locale: string) => {
        const id = await insertSubscriber(store.db, email, { now: new Date('2026-11-22T11:00:00.000Z') });
        await store.db.updateTable('subscribers').set({ locale }).where('id', '=', id).execute();
      };
      await signUp('a@example.com', 'es');
      await signUp('b@example.com', 'es');
      await signUp('c@example.com', 'en');
      await signUp('d@example.com', unspokenLocale); // a locale this build does not speak: still listed
      // Before the period: not counted.
      await insertSubscriber(store.db, 'old@example.com', { now: new Date('2026-11-21T23:59:59.000Z') });

      const report = await audienceOverview(store.db, q({ period: 'today' }), now);
      expect(audienceReportSchema.parse(report)).toEqual(report);
      // Every locale the registry names, in its order, the ones nobody used at zero; then the rest.
      const counted: Record<string, { visitors: number; views: number; signups: number }> = {
        en: { visitors: 2, views: 3, signups: 1 },
        es: { visitors: 2, views: 3, signups: 2 },
        ar: { visitors: 1, views: 1, signups: 0 },
      };
      expect(report.locales).toEqual([
        ...locales.map((locale) => ({ locale, ...(counted[locale] ?? { visitors: 0, views: 0, signups: 0 }) })),
        { locale: unspokenLocale, visitors: 0, views: 0, signups: 1 },
      ]);
      // The pages keep each locale's apart.
      expect(report.pages.map((p) => p.path)).toEqual(
        expect.arrayContaining(['/', '/es/', '/es/privacy', '/es/(other)', '/ar/', '(other)']),
      );
    });

    it('limits each country to its top cities, ranked by visitors', async () => {
      const rec = new VisitRecorder(store.db);
      let n = 0;
      for (const [city, visitors] of [
        ['A', 1],
        ['B', 5],
        ['C', 3],
        ['D', 4],
        ['E', 2],
        ['F', 6],
      ] as const) {
        for (let i = 0; i < visitors; i++) rec.add(visit({ visitor_hash: `h${n++}`, city, country: 'US' }));
      }
      await rec.flush();
      const report = await audienceOverview(store.db, q({ period: 'today' }), now, { citiesPerCountry: 3 });
      expect(report.countries[0]?.cities.map((c) => c.city)).toEqual(['F', 'B', 'D']);
    });

    it("keeps closed days' sums and adds today's rows live on every call", async () => {
      const rec = new VisitRecorder(store.db);
      rec.add(
        visit({ day: '2026-11-21', at: '2026-11-21T09:00:00.000Z', visitor_hash: 'y1', referrer_host: 'old.example' }),
      );
      rec.add(visit({ visitor_hash: 't1', referrer_host: 'new.example' }));
      await rec.flush();
      const first = await audienceOverview(store.db, q({ period: '7d' }), now);
      expect(first.referrers.map((r) => [r.host, r.visitors])).toEqual([
        ['new.example', 1],
        ['old.example', 1],
      ]);
      rec.add(visit({ visitor_hash: 't2', referrer_host: 'new.example' }));
      rec.add(visit({ visitor_hash: 't3', referrer_host: 'old.example' }));
      rec.add(visit({ visitor_hash: 't4', referrer_host: 'old.example' }));
      await rec.flush();
      const second = await audienceOverview(store.db, q({ period: '7d' }), now);
      expect(second.referrers.map((r) => [r.host, r.visitors])).toEqual([
        ['old.example', 3],
        ['new.example', 2],
      ]);
      // Early on a day, yesterday is still open (a flush may be landing): read, not kept.
      const early = new Date('2026-11-22T00:02:00.000Z');
      rec.add(
        visit({
          day: '2026-11-21',
          at: '2026-11-21T23:59:59.000Z',
          visitor_hash: 'late',
          referrer_host: 'late.example',
        }),
      );
      await rec.flush();
      const custom = q({ period: 'custom', from: '2026-11-21', to: '2026-11-21' });
      expect((await audienceOverview(store.db, custom, early)).referrers.map((r) => r.host)).toContain('late.example');
    });

    it('counts visitors and views of the last 30 minutes from raw visits', async () => {
      const rec = new VisitRecorder(store.db);
      rec.add(visit({ at: '2026-11-22T14:29:59.999Z', visitor_hash: 'old' }));
      rec.add(visit({ at: '2026-11-22T14:30:00.000Z', visitor_hash: 'a' }));
      rec.add(visit({ at: '2026-11-22T14:59:00.000Z', visitor_hash: 'a' }));
      rec.add(visit({ at: '2026-11-22T14:45:00.000Z', visitor_hash: 'b' }));
      await rec.flush();
      expect(await liveVisitors(store.db, now)).toEqual({ since: '2026-11-22T14:30:00.000Z', visitors: 2, views: 3 });
    });
  });
}
