import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import { spendBoth } from '../lib/shared-or-local.ts';
import type { SharedRedis } from './redis.ts';

interface Count {
  current: number;
  ttl: number;
}

/**
 * The count `store` gives for this request, as it was at this request. A copy: the library's
 * LocalStore answers with the very object it keeps and goes on counting in it, so a count read
 * after waiting on Redis would be the count of every request of the burst that came since, and a
 * burst from one network spread over instances was refused below its limit (docs/decisions/0063).
 */
const countIn = (store: FastifyRateLimitStore, key: string, timeWindow: number, max: number) =>
  new Promise<Count>((resolve, reject) => {
    store.incr(
      key,
      (error, result) =>
        error || !result
          ? reject(error ?? new Error('The rate-limit store gave no count.'))
          : resolve({ current: result.current, ttl: result.ttl }),
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
  /**
   * Keys Redis has already counted past their limit, with the end of Redis's window for them
   * (Date.now() ms). Until then every instance refuses such a key whatever it asks: Redis's count
   * only rises within a window, and the window does not move (`fixedWindow`). So a refused client
   * costs one Redis round trip per window and instance, not one per request: the flood a limit
   * exists for is answered from memory. Asking again could only add to a count past the limit.
   */
  private readonly refused = new Map<string, { until: number; current: number }>();

  constructor(
    private readonly shared: SharedRedis,
    private readonly remote: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
    /** False with continueExceeding or exponentialBackoff, where each refusal moves the window. */
    private readonly fixedWindow: boolean,
  ) {}

  incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number, max: number): void {
    const local = countIn(this.local, key, timeWindow, max);
    const refused = this.refusedNow(key);
    if (refused) {
      refused.current++;
      void local.then(
        (mine) =>
          callback(null, {
            current: Math.max(mine.current, refused.current),
            ttl: Math.max(1, refused.until - Date.now()),
          }),
        (error: Error) => callback(error),
      );
      return;
    }
    local
      .then((mine) =>
        spendBoth(
          this.shared,
          mine,
          () =>
            countIn(this.remote, key, timeWindow, max).then((count) => {
              this.remember(key, count, max);
              return count;
            }),
          {
            stricter: (shared, own) => (own.current > shared.current ? own : shared),
            blocked: { current: max + 1, ttl: timeWindow },
          },
        ),
      )
      .then(
        (count) => callback(null, count),
        (error: Error) => callback(error),
      );
  }

  private refusedNow(key: string): { until: number; current: number } | undefined {
    const entry = this.refused.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry;
    this.refused.delete(key);
    return undefined;
  }

  private remember(key: string, count: Count, max: number): void {
    // A key without a window (ttl ≤ 0: no expiry set yet, or gone) is asked again next time.
    if (!this.fixedWindow || count.current <= max || count.ttl <= 0) return;
    if (this.refused.size >= MAX_REFUSED_KEYS) {
      // Forgetting a key only means asking Redis again: the oldest go first.
      const now = Date.now();
      for (const [k, v] of this.refused) if (v.until <= now) this.refused.delete(k);
      for (const k of this.refused.keys()) {
        if (this.refused.size < MAX_REFUSED_KEYS) break;
        this.refused.delete(k);
      }
    }
    this.refused.set(key, { until: Date.now() + count.ttl, current: count.current });
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    // The library hands over the route's merged rate-limit options, which its types call route options.
    const params = routeOptions as typeof routeOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean };
    const fixedWindow = !(params.continueExceeding ?? false) && !(params.exponentialBackoff ?? false);
    return new SharedOrLocalStore(
      this.shared,
      this.remote.child(routeOptions),
      this.local.child(routeOptions),
      fixedWindow,
    );
  }
}

/** Refused keys remembered per route (about 100 bytes each). */
const MAX_REFUSED_KEYS = 10_000;

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
        !continueExceeding && !exponentialBackoff,
      );
    }
  };
}
