import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { recorderLimits } from './visit-recorder.ts';

// A forger's flood through the real route, as the hardening issue reproduced it: 30 beacons with
// made-up user agents from one address, and 30 spam referrer hosts. Every beacon is still answered
// 204 (a page never waits on its beacon); what changes is what gets counted.

const agent = (i: number) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + i}.0.${i}.0 Safari/537.36`;
const BUDGET = 10; // VISIT_RATE_LIMIT's default

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`a beacon flood on ${label}`, () => {
    let store: TestStore;
    let t: TestApp;
    beforeEach(async () => {
      store = await openTestStore(dialect);
      t = await buildTestApp({ env: { TRUST_PROXY: 'true' }, store });
    });
    afterEach(async () => {
      await t.close();
      await store.destroy();
    });

    const beacon = (ip: string, i: number, body: Record<string, string> = { p: '/' }) =>
      t.app.inject({
        method: 'POST',
        url: apiPaths.visit,
        headers: {
          'content-type': 'application/json',
          'sec-fetch-site': 'same-origin',
          'user-agent': agent(i),
          'x-forwarded-for': ip,
        },
        payload: JSON.stringify(body),
      });

    async function totals() {
      await t.app.jobs.runOnce('visit-flush');
      const row = await store.db
        .selectFrom('daily_counts')
        .select(['views', 'visitors'])
        .where('dimension', '=', 'total')
        .executeTakeFirst();
      const dropped = await store.db
        .selectFrom('abuse_counters')
        .select(['reason', 'count'])
        .where('reason', '=', 'visit-over-budget')
        .executeTakeFirst();
      return {
        views: Number(row?.views ?? 0),
        visitors: Number(row?.visitors ?? 0),
        overBudget: Number(dropped?.count ?? 0),
      };
    }

    it(`30 forged beacons from one IPv4 address count as ${BUDGET} visitors at most; all are answered 204; the rest are counted as dropped`, async () => {
      for (let i = 0; i < 30; i++) expect((await beacon('130.149.7.201', i)).statusCode).toBe(204);
      expect(await totals()).toEqual({ views: BUDGET, visitors: BUDGET, overBudget: 30 - BUDGET });
      // Another address has its own budget.
      expect((await beacon('81.2.69.142', 0)).statusCode).toBe(204);
      expect((await totals()).views).toBe(BUDGET + 1);
    });

    it('an IPv6 client is its /64: 30 addresses in one /64 share one budget, another /64 has its own', async () => {
      for (let i = 0; i < 30; i++) await beacon(`2a00:1450:4001:800::${(i + 1).toString(16)}`, i);
      await beacon('2a00:1450:4001:801::1', 0);
      expect(await totals()).toMatchObject({ views: BUDGET + 1, overBudget: 30 - BUDGET });
    });

    it('the budget is per minute: the next minute counts again', async () => {
      for (let i = 0; i < 15; i++) await beacon('130.149.7.201', i);
      await t.app.jobs.runOnce('visit-flush'); // this minute's work done before the next one's
      t.clock.advance(60_000);
      for (let i = 15; i < 30; i++) await beacon('130.149.7.201', i);
      expect((await totals()).views).toBe(2 * BUDGET);
    });

    it(`30 spam referrers beyond the day's cap of ${recorderLimits.referrerHostsPerDay} hosts are counted as "(other)"`, async () => {
      // The day already has as many referrer hosts as it may name.
      const day = t.clock().toISOString().slice(0, 10);
      const seeded = Array.from({ length: recorderLimits.referrerHostsPerDay }, (_, i) => ({
        day,
        dimension: 'referrer' as const,
        value: `site-${i}.example`,
        views: 1,
        visitors: 1,
      }));
      for (let i = 0; i < seeded.length; i += 100)
        await store.db
          .insertInto('daily_counts')
          .values(seeded.slice(i, i + 100))
          .execute();

      // From 30 addresses, so the per-client budget is not what stops them.
      for (let i = 0; i < 30; i++)
        await beacon(`81.2.69.${i + 1}`, i, { p: '/', r: `https://buy-cheap-${i}.spam.example/` });
      await beacon('81.2.70.1', 0, { p: '/', r: 'https://site-7.example/post' }); // already named today
      await t.app.jobs.runOnce('visit-flush');

      const referrers = await store.db
        .selectFrom('daily_counts')
        .select(['value', 'views'])
        .where('dimension', '=', 'referrer')
        .where((eb) =>
          eb.or([eb('value', 'like', '%spam%'), eb('value', '=', '(other)'), eb('value', '=', 'site-7.example')]),
        )
        .orderBy('value')
        .execute();
      expect(referrers.map((r) => [r.value, Number(r.views)])).toEqual([
        ['(other)', 30],
        ['site-7.example', 2],
      ]);
      const spamRows = await store.db
        .selectFrom('visits')
        .select('referrer_host')
        .where('referrer_host', 'like', '%spam%')
        .execute();
      expect(spamRows).toEqual([]);
    });
  });
}
