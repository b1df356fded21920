import { afterEach, describe, expect, it } from 'vitest';
import {
  closedPort,
  deleteRedisKeys,
  openSharedRedis,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
} from '../../test/test-redis.ts';
import { LocalPace, RedisPace, SharedOrLocalPace } from './broadcast-pace.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// A whole second, so every `now` below falls in the window it names.
const T0 = Date.parse('2026-11-22T12:00:00.000Z');

async function sharedPair(url: string) {
  const prefix = testRedisPrefix();
  const a = await openSharedRedis(url, prefix);
  const b = await openSharedRedis(url, prefix);
  cleanups.push(async () => {
    await a.close();
    await b.close();
    await deleteRedisKeys(prefix);
  });
  return { a: a.redis, b: b.redis };
}

describe('LocalPace', () => {
  it('grants at most a second of sends at once, then one more per 1/rate seconds; unused sends come back', async () => {
    const pace = new LocalPace(5);
    // A worker that has sent nothing yet has a second saved up.
    expect(await pace.take(20, T0)).toBe(5);
    expect(await pace.take(20, T0 + 1000)).toBe(5);
    expect(await pace.take(20, T0 + 1000)).toBe(0);
    expect(pace.msToNext()).toBe(200);
    expect(await pace.take(20, T0 + 1400)).toBe(2);
    await pace.giveBack(2);
    expect(await pace.take(1, T0 + 1400)).toBe(1);
    // An idle list saves up one second, never more.
    expect(await pace.take(50, T0 + 60_000)).toBe(5);
  });
});

describe.skipIf(!testRedisUrl)(
  `RedisPace: one pace for every instance${testRedisUrl ? '' : ` (${redisSkipReason})`}`,
  () => {
    it('two instances share one second of MAIL_RATE_PER_SEC: together they never get more than the rate', async () => {
      const { a, b } = await sharedPair(testRedisUrl ?? '');
      const paceA = new RedisPace(a, 10);
      const paceB = new RedisPace(b, 10);
      const granted = await Promise.all([
        paceA.take(6, T0),
        paceB.take(6, T0),
        paceA.take(6, T0 + 500),
        paceB.take(6, T0 + 900),
      ]);
      expect(granted.reduce((x, y) => x + y, 0)).toBe(10);
      expect(paceA.msToNext(T0 + 900)).toBe(100);
      // What one gives back the other may use, within the same second.
      await paceA.giveBack(3, T0 + 950);
      expect(await paceB.take(6, T0 + 950)).toBe(3);
      // The next second is a new allowance.
      expect(await paceB.take(6, T0 + 1000)).toBe(6);
      expect(await paceA.take(6, T0 + 1001)).toBe(4);
    });

    it('with the local fallback, still shares the pace while Redis answers', async () => {
      const { a, b } = await sharedPair(testRedisUrl ?? '');
      const paceA = new SharedOrLocalPace(a, 4);
      const paceB = new SharedOrLocalPace(b, 4);
      const now = T0 + 10_000;
      const both = (await paceA.take(4, now)) + (await paceB.take(4, now));
      expect(both).toBe(4);
    });
  },
);

describe('SharedOrLocalPace while Redis cannot be reached', () => {
  it('sends at the per-instance rate instead of stopping', async () => {
    const shared = await openSharedRedis(`redis://127.0.0.1:${await closedPort()}`, testRedisPrefix());
    cleanups.push(shared.close);
    const pace = new SharedOrLocalPace(shared.redis, 3);
    expect(await pace.take(10, T0 + 1000)).toBe(3);
    expect(await pace.take(10, T0 + 1000)).toBe(0);
  });
});
