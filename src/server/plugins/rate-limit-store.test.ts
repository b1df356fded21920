import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deleteRedisKeys,
  openSharedRedis,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
} from '../test/test-redis.ts';
import type { SharedRedis } from './redis.ts';
import { sharedOrLocalStore } from './rate-limit-store.ts';

const count = (store: FastifyRateLimitStore, key: string, max = 3) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) => {
    store.incr(
      key,
      (error, result) => (error || !result ? reject(error ?? new Error('no count')) : resolve(result)),
      60_000,
      max,
    );
  });

// The rate limits' store against a real Redis holding what it should not.
describe.skipIf(!testRedisUrl)(`the shared rate-limit store${testRedisUrl ? '' : ` (${redisSkipReason})`}`, () => {
  let shared: { redis: SharedRedis; close(): Promise<void> };
  let prefix: string;
  let store: FastifyRateLimitStore;
  // Each test its own client (and so its own outage guard) and keys.
  beforeEach(async () => {
    prefix = testRedisPrefix();
    shared = await openSharedRedis(testRedisUrl ?? '', prefix);
    const Store = sharedOrLocalStore(shared.redis);
    store = new Store({} as FastifyRateLimitOptions);
  });
  afterEach(async () => {
    await shared?.close();
    await deleteRedisKeys(prefix);
  });

  it('counts a counter Redis cannot read as over the limit, not as a first request', async () => {
    await shared.redis.client.set('rate-limit:garbage', 'not a number');
    await shared.redis.client.hset('rate-limit:a-hash', 'n', '1');
    for (const key of ['garbage', 'a-hash']) expect((await count(store, key)).current, key).toBeGreaterThan(3);
    // A clean key is counted in Redis as usual.
    expect((await count(store, 'clean')).current).toBe(1);
    expect(await shared.redis.client.get('rate-limit:clean')).toBe('1');
  });

  it('judges by the larger count when Redis lost its own (the key deleted, Redis restarted empty)', async () => {
    for (let i = 1; i <= 3; i++) expect((await count(store, 'lost')).current).toBe(i);
    await shared.redis.client.del('rate-limit:lost');
    // Redis says 1, this instance has seen 4: over the limit of 3.
    expect((await count(store, 'lost')).current).toBe(4);
  });
});
