import { afterEach, describe, expect, it } from 'vitest';
import type { SharedRedis } from '../../plugins/redis.ts';
import {
  closedPort,
  deleteRedisKeys,
  openSharedRedis,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
} from '../../test/test-redis.ts';
import { MemoryVisitBudget, RedisVisitBudget, SharedOrLocalVisitBudget, type VisitBudget } from './visit-budget.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A budget kept in Redis under a prefix of its own, deleted after the test. */
function inRedis(name: string, make: (redis: SharedRedis, perMinute: number) => VisitBudget) {
  return {
    label: testRedisUrl ? name : `${name} (${redisSkipReason})`,
    skip: !testRedisUrl,
    open: async (perMinute: number) => {
      const prefix = testRedisPrefix();
      const shared = await openSharedRedis(testRedisUrl ?? '', prefix);
      cleanups.push(async () => {
        await shared.close();
        await deleteRedisKeys(prefix);
      });
      return make(shared.redis, perMinute);
    },
  };
}

// The same contract for every budget: the beacon route cannot tell which one it was given.
const budgets = [
  {
    label: 'in memory',
    skip: false,
    open: async (perMinute: number): Promise<VisitBudget> => new MemoryVisitBudget(perMinute),
  },
  inRedis('in Redis', (redis, perMinute) => new RedisVisitBudget(redis, perMinute)),
  inRedis('in Redis with the local fallback', (redis, perMinute) => new SharedOrLocalVisitBudget(redis, perMinute)),
  {
    // Needs no Redis server: the fallback alone must keep the budget.
    label: 'in Redis with the local fallback, while Redis cannot be reached',
    skip: false,
    open: async (perMinute: number): Promise<VisitBudget> => {
      const shared = await openSharedRedis(`redis://127.0.0.1:${await closedPort()}`, testRedisPrefix());
      cleanups.push(shared.close);
      return new SharedOrLocalVisitBudget(shared.redis, perMinute);
    },
  },
];

for (const { label, skip, open } of budgets) {
  describe(`visit budget ${label}`, () => {
    it.skipIf(skip)('allows perMinute visits per client per minute, each client on its own', async () => {
      const budget = await open(3);
      const at = new Date('2026-11-21T12:00:10Z');
      const a = await Promise.all([1, 2, 3, 4, 5].map(() => budget.take('a', at)));
      expect(a).toEqual([true, true, true, false, false]);
      expect(await budget.take('b', at)).toBe(true);
      expect(await budget.take('a', new Date('2026-11-21T12:01:00Z'))).toBe(true);
    });

    it.skipIf(skip)('a late visit from the minute before spends from the current window, never resets it', async () => {
      const budget = await open(2);
      const earlier = new Date('2026-11-21T12:00:59Z');
      const later = new Date('2026-11-21T12:01:00Z');
      expect(await budget.take('a', later)).toBe(true);
      expect(await budget.take('a', earlier)).toBe(true);
      expect(await budget.take('a', later)).toBe(false);
      expect(await budget.take('a', earlier)).toBe(false);
    });
  });
}

describe('MemoryVisitBudget', () => {
  it('holds at most maxClients counters: memory stays bounded under a flood of clients', async () => {
    const budget = new MemoryVisitBudget(1, 100);
    const at = new Date('2026-11-21T12:00:00Z');
    for (let i = 0; i < 1000; i++) await budget.take(`client-${i}`, at);
    // The oldest counters were let go, so client-0 starts again; the newest are still spent.
    expect(await budget.take('client-0', at)).toBe(true);
    expect(await budget.take('client-999', at)).toBe(false);
  });
});
