import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { dayOf } from '../../lib/days.ts';
import { DailySalts, visitorHash } from './visitor-hash.ts';

describe('visitorHash', () => {
  it('is stable for one salt, address and browser, and differs when any of them changes', () => {
    const h = visitorHash('salt-a', '203.0.113.5', 'Firefox');
    expect(h).toBe(visitorHash('salt-a', '203.0.113.5', 'Firefox'));
    expect(h).not.toBe(visitorHash('salt-b', '203.0.113.5', 'Firefox'));
    expect(h).not.toBe(visitorHash('salt-a', '203.0.113.6', 'Firefox'));
    expect(h).not.toBe(visitorHash('salt-a', '203.0.113.5', 'Chrome'));
    expect(h).not.toContain('203.0.113.5');
  });
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`daily salts on ${label}`, () => {
    let store: TestStore;
    const clock = testClock();
    beforeEach(async () => {
      store = await openTestStore(dialect);
      clock.set('2026-11-21T23:59:00.000Z');
    });
    afterEach(() => store.destroy());

    it('gives one random salt per day, shared by every instance on the database', async () => {
      const a = new DailySalts(store.db);
      const b = new DailySalts(store.db);
      const today = await a.saltFor(dayOf(clock()));
      expect(await b.saltFor(dayOf(clock()))).toBe(today);
      expect(today).toMatch(/^[\w-]{43}$/);
      clock.advance(2 * 60_000); // past midnight: a new day, a new salt
      expect(await a.saltFor(dayOf(clock()))).not.toBe(today);
    });

    it('destroys a salt once 48 hours have passed since its day began', async () => {
      const salts = new DailySalts(store.db);
      clock.set('2026-11-21T10:00:00.000Z');
      const first = await salts.saltFor('2026-11-21');
      const days = async () =>
        (await store.db.selectFrom('analytics_salts').select('day').orderBy('day').execute()).map((r) => r.day);

      clock.set('2026-11-22T23:59:59.000Z'); // 47h59m after 21st 00:00: still kept
      await salts.saltFor('2026-11-22');
      await salts.purge(clock());
      expect(await days()).toEqual(['2026-11-21', '2026-11-22']);

      clock.set('2026-11-23T00:00:00.000Z'); // 48h: gone, for good
      await salts.purge(clock());
      expect(await days()).toEqual(['2026-11-22']);
      // Asking for that day again makes a new salt; the old one cannot be recovered.
      expect(await salts.saltFor('2026-11-21')).not.toBe(first);
    });
  });
}
