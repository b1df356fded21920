import { LRUCache } from 'lru-cache';
import { UnreadableCounter } from '../lib/shared-or-local.ts';
import type { SharedRedis } from '../plugins/redis.ts';

// Failed sign-ins back off: after 5 failures for an address or for a client, further tries are
// refused for 30 s, then 60 s after the next failure, doubling up to 16 minutes. The decision is
// made before any password is hashed, so a refused try costs the server nothing. Failures are
// forgotten at a successful sign-in, or a day after the last one.

export const FREE_FAILURES = 5;
const FIRST_BLOCK_MS = 30_000;
const MAX_BLOCK_MS = 16 * 60_000;
const FORGET_AFTER_MS = 24 * 60 * 60_000;

/** How long a key is refused after its `failures`-th failure (0 while it has tries left). */
export function blockAfter(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(FIRST_BLOCK_MS * 2 ** (failures - FREE_FAILURES), MAX_BLOCK_MS);
}

/**
 * Failure counts by key (keyed hashes: the callers never pass an address or an IP). Async, so the
 * shared store (Redis) stands in for the in-process one without touching the routes.
 */
export interface FailureCounters {
  /** When this key may try again (ms since the epoch), or null when it may now. */
  blockedUntil(key: string, now: number): Promise<number | null>;
  recordFailure(key: string, now: number): Promise<void>;
  reset(key: string): Promise<void>;
}

interface Entry {
  failures: number;
  lastFailureAt: number;
}

/** The one rule both stores apply to what they hold. */
function untilFor(entry: Entry | undefined, now: number): number | null {
  if (!entry || now - entry.lastFailureAt > FORGET_AFTER_MS) return null;
  const until = entry.lastFailureAt + blockAfter(entry.failures);
  return until > now ? until : null;
}

/** Per instance: a load-balanced pair of instances each allow the schedule (see the decision record). */
export function memoryFailureCounters(max = 50_000): FailureCounters {
  // Bounded: a flood of made-up addresses evicts the oldest entries, never grows memory.
  const entries = new LRUCache<string, Entry>({ max });
  return {
    async blockedUntil(key, now) {
      return untilFor(entries.get(key), now);
    },
    async recordFailure(key, now) {
      const e = entries.get(key);
      const live = e && now - e.lastFailureAt <= FORGET_AFTER_MS ? e : undefined;
      entries.set(key, { failures: (live?.failures ?? 0) + 1, lastFailureAt: now });
    },
    async reset(key) {
      entries.delete(key);
    },
  };
}

// One hash per key, {failures, last}, forgotten by Redis a day after its last failure. A script,
// so two instances recording at once never lose a count, and so the day is measured from the
// caller's "now" like the memory store's.
const RECORD_FAILURE = `
local last = tonumber(redis.call('HGET', KEYS[1], 'last'))
if last and tonumber(ARGV[1]) - last > tonumber(ARGV[2]) then redis.call('DEL', KEYS[1]) end
redis.call('HINCRBY', KEYS[1], 'failures', 1)
redis.call('HSET', KEYS[1], 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** Shared by every instance: the schedule holds however sign-ins are spread over them. */
export function redisFailureCounters(redis: SharedRedis): FailureCounters {
  const record = redis.script<number>('dhRecordSignInFailure', RECORD_FAILURE);
  const keyOf = (key: string) => `sign-in-backoff:${key}`;
  return {
    async blockedUntil(key, now) {
      // A key of another type fails here with WRONGTYPE, which the plugin reads as unreadable.
      const [failures, last] = await redis.client.hmget(keyOf(key), 'failures', 'last');
      if (failures === null && last === null) return null;
      const entry = { failures: Number(failures), lastFailureAt: Number(last) };
      // Number(null) is 0 and Number('') is 0: only digits are a count.
      if (!/^\d+$/.test(failures ?? '') || !/^\d+$/.test(last ?? '') || !Number.isSafeInteger(entry.failures) || !Number.isSafeInteger(entry.lastFailureAt)) {
        throw new UnreadableCounter('a sign-in back-off counter in Redis is not a number');
      }
      return untilFor(entry, now);
    },
    async recordFailure(key, now) {
      await record(keyOf(key), now, FORGET_AFTER_MS);
    },
    async reset(key) {
      await redis.client.del(keyOf(key));
    },
  };
}

/** The later of two blocks (null: not blocked). */
export const laterBlock = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * Redis while it answers, this instance's own counts while it does not (sign-ins go on, backing
 * off per instance). Failures are counted in both, so a fallback starts from what this instance
 * has seen rather than from nothing; and while Redis answers, the later of its block and this
 * instance's wins (a Redis that lost its data does not unblock what this instance saw). A counter
 * Redis cannot read as a number blocks: FIRST_BLOCK_MS from now, asked again at each try.
 */
export function sharedOrLocalFailureCounters(redis: SharedRedis, local = memoryFailureCounters()): FailureCounters {
  const shared = redisFailureCounters(redis);
  return {
    blockedUntil: (key, now) =>
      redis.orLocal(
        () => shared.blockedUntil(key, now),
        () => local.blockedUntil(key, now),
        { merge: laterBlock, unreadable: () => now + FIRST_BLOCK_MS },
      ),
    async recordFailure(key, now) {
      await local.recordFailure(key, now);
      // An unreadable counter cannot take another failure; the block above already holds.
      await redis.orLocal(() => shared.recordFailure(key, now), () => undefined, { unreadable: () => undefined });
    },
    async reset(key) {
      await local.reset(key);
      await redis.orLocal(() => shared.reset(key), () => undefined);
    },
  };
}
