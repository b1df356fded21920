import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { SharedRedis } from './redis.ts';

interface Count {
  current: number;
  ttl: number;
}

const countIn = (store: FastifyRateLimitStore, key: string, timeWindow: number, max: number) =>
  new Promise<Count>((resolve, reject) => {
    store.incr(
      key,
      (error, result) =>
        error || !result ? reject(error ?? new Error('The rate-limit store gave no count.')) : resolve(result),
      timeWindow,
      max,
    );
  });

/**
 * A rate-limit store counted in Redis (the library's own RedisStore, shared by every instance)
 * and in this process (its LocalStore) at once. The request is judged by the shared count while
 * Redis answers, by the local one while it does not: @fastify/rate-limit's `skipOnError` would
 * instead drop the limit altogether during an outage. The local count always advances, so a
 * fallback starts from this instance's recent requests, not from zero; while Redis answers, the
 * larger of the two counts judges (a Redis that lost its counts does not reset this instance's).
 * A count Redis cannot read as a number (someone wrote something else under the key) counts as
 * over the limit: refused, not let through.
 */
class SharedOrLocalStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: SharedRedis,
    private readonly remote: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
  ) {}

  incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number, max: number): void {
    const local = countIn(this.local, key, timeWindow, max);
    this.shared
      .orLocal(
        () => countIn(this.remote, key, timeWindow, max),
        () => local,
        {
          merge: (shared, mine) => (mine.current > shared.current ? mine : shared),
          unreadable: () => ({ current: max + 1, ttl: timeWindow }),
        },
      )
      .then(
        (count) => callback(null, count),
        (error: Error) => callback(error),
      );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new SharedOrLocalStore(this.shared, this.remote.child(routeOptions), this.local.child(routeOptions));
  }
}

/** The `store` option for @fastify/rate-limit: keys under `rate-limit:` in Redis, per route. */
export function sharedOrLocalStore(shared: SharedRedis): FastifyRateLimitStoreCtor {
  return class extends SharedOrLocalStore {
    constructor(params: FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const continueExceeding = params.continueExceeding ?? false;
      const exponentialBackoff = params.exponentialBackoff ?? false;
      super(
        shared,
        new RedisStore(continueExceeding, exponentialBackoff, shared.client, 'rate-limit:'),
        new LocalStore(continueExceeding, exponentialBackoff),
      );
    }
  };
}
