import { locales } from '../../../shared/locales.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audienceReportSchema, liveVisitorsSchema } from '../../../shared/admin/audience.ts';
import { adminApiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { ConsoleClient, makeOperator } from '../../test/admin-kit.ts';

// The Audience endpoints over roll-ups written straight to the store (the analytics feature tests
// how visits become roll-ups; this tests what the console is answered).
describe.each(dialectCases)('the Audience endpoints ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let c: ConsoleClient;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store });
    // The test clock reads 2026-11-21T12:00Z: two days of this week, one of the week before.
    const total = (day: string, visitors: number, views: number) => ({
      day,
      dimension: 'total' as const,
      value: '',
      visitors,
      views,
    });
    await store.db
      .insertInto('daily_counts')
      .values([
        total('2026-11-20', 10, 30),
        total('2026-11-21', 20, 50),
        total('2026-11-12', 5, 9),
        { day: '2026-11-20', dimension: 'country', value: 'DE', visitors: 8, views: 20 },
        { day: '2026-11-21', dimension: 'page', value: '/', visitors: 20, views: 50 },
        { day: '2026-11-21', dimension: 'page', value: '/es/', visitors: 3, views: 4 },
      ])
      .execute();
    await insertSubscriber(store.db, 'a@example.com', { now: new Date('2026-11-21T09:00:00.000Z') });
    await insertSubscriber(store.db, 'b@example.com', { now: new Date('2026-11-21T10:00:00.000Z') });
    const visit = (at: string, hash: string) => ({
      at,
      day: at.slice(0, 10),
      path: '/',
      referrer_host: '',
      visitor_hash: hash,
      city: '',
      region: '',
      country: '',
      loc: '',
      org: '',
      postal: '',
      timezone: '',
      client_timezone: '',
      language: '',
    });
    await store.db
      .insertInto('visits')
      .values([
        visit('2026-11-21T11:50:00.000Z', 'h1'),
        visit('2026-11-21T11:55:00.000Z', 'h1'),
        visit('2026-11-21T11:40:00.000Z', 'h2'),
        visit('2026-11-21T10:00:00.000Z', 'h3'),
      ])
      .execute();
    const op = await makeOperator(store.db, `aud-${dialect}@example.com`, t.clock());
    c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });

  it.skipIf(skip)('reports a preset period beside the one before, with a day-by-day series', async () => {
    const res = await c.get(`${adminApiPaths.audience}?period=7d`);
    expect(res.statusCode, res.body).toBe(200);
    const report = audienceReportSchema.parse(res.json());
    expect(report.period).toEqual({ from: '2026-11-15', to: '2026-11-21', days: 7 });
    expect(report.totals).toEqual({ visitors: 30, views: 80, signups: 2, conversion: 2 / 30 });
    expect(report.previousTotals).toMatchObject({ visitors: 5, views: 9, signups: 0 });
    expect(report.series).toHaveLength(7);
    expect(report.series.at(-1)).toEqual({ day: '2026-11-21', visitors: 20, views: 50, signups: 2 });
    expect(report.countries[0]).toMatchObject({ country: 'DE', visitors: 8 });
    expect(report.pages[0]).toMatchObject({ path: '/', views: 50 });
    // Per locale (decision 0048): the pages' visits by their URL, the sign-ups by their locale.
    expect(report.locales.map((l) => l.locale)).toEqual([...locales]);
    expect(report.locales.slice(0, 2)).toEqual([
      { locale: 'en', visitors: 20, views: 50, signups: 2 },
      { locale: 'es', visitors: 3, views: 4, signups: 0 },
    ]);
  });

  it.skipIf(skip)('takes a custom range and answers a bad one in words', async () => {
    const ok = await c.get(`${adminApiPaths.audience}?period=custom&from=2026-11-20&to=2026-11-20`);
    expect(audienceReportSchema.parse(ok.json()).totals).toMatchObject({ visitors: 10, signups: 0 });
    const missing = await c.get(`${adminApiPaths.audience}?period=custom&to=2026-11-20`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields.from).toBe('Choose a start date for a custom period.');
    const long = await c.get(`${adminApiPaths.audience}?period=custom&from=2025-01-01&to=2026-01-02`);
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields.to).toBe('A period can be at most 366 days long.');
    const preset = await c.get(`${adminApiPaths.audience}?period=week`);
    expect(preset.json().error.fields.period).toMatch(/today, 7d, 30d, 90d or custom/);
  });

  it.skipIf(skip)('counts distinct visitors of the last 30 minutes', async () => {
    const res = await c.get(adminApiPaths.audienceLive);
    expect(res.statusCode).toBe(200);
    expect(liveVisitorsSchema.parse(res.json())).toEqual({ since: '2026-11-21T11:30:00.000Z', visitors: 2, views: 3 });
  });
});
