import { LRUCache } from 'lru-cache';
import { spendBoth, UnreadableCounter, writeBoth } from '../../lib/shared-or-local.ts';
import type { SharedRedis } from '../../plugins/redis.ts';

// Failed sign-ins back off, by three counts (docs/decisions/0029):
// - an address tried from one client network (the pair): after 5 failures, further tries are
//   refused for 30 s, then 60 s after the next failure, doubling up to 16 minutes;
// - a client network alone (one spraying many addresses): the same schedule after 20 failures;
// - an address from every network together: never a lock (strangers elsewhere must not lock the
//   operator out), but 50 failures in an hour raise an alert.
// The decision is made before any password is hashed, so a refused try costs the server nothing.
// Failures are forgotten a day after the last one (an hour for the alert's count).
// A fourth count caps wrong authenticator codes per operator across networks (operatorCodesPolicy),
// beside the five tries of each pending sign-in (sessions.ts).

const FREE_FAILURES = 5;
const FIRST_BLOCK_MS = 30_000;
const MAX_BLOCK_MS = 16 * 60_000;
const FORGET_AFTER_MS = 24 * 60 * 60_000;

/** How long a key with `free` free failures is refused after its `failures`-th (0 while it has tries left). */
const doubling = (failures: number, free: number): number =>
  failures < free ? 0 : Math.min(FIRST_BLOCK_MS * 2 ** (failures - free), MAX_BLOCK_MS);

/** How long an address from one network is refused after its `failures`-th failure. */
export const blockAfter = (failures: number): number => doubling(failures, FREE_FAILURES);

/** What a store of counts does with them: how long a count blocks, and when it is forgotten. */
export interface BackoffPolicy {
  blockAfter(failures: number): number;
  /** A key's failures are forgotten this long after its last one. */
  forgetAfterMs: number;
}

/** An address from one client network: 5 free failures. */
const pairPolicy: BackoffPolicy = { blockAfter, forgetAfterMs: FORGET_AFTER_MS };

/**
 * A client network, whatever addresses it tries: 20 free failures. More than the pair's 5: several
 * operators may share an office's address, and one person's typos should not stop the others,
 * while a network spraying many addresses still slows to one try per 16 minutes soon after.
 */
const NETWORK_FREE_FAILURES = 20;
export const networkPolicy: BackoffPolicy = {
  blockAfter: (n) => doubling(n, NETWORK_FREE_FAILURES),
  forgetAfterMs: FORGET_AFTER_MS,
};

/**
 * An address from every network: this many failures (refused tries included), each within an hour
 * of the one before, raise an alert. "Blocked" here means only "past the ceiling": the routes never
 * refuse anyone by it.
 */
export const ADDRESS_ALERT_FAILURES = 50;
const HOUR_MS = 60 * 60_000;
export const addressAlertPolicy: BackoffPolicy = {
  blockAfter: (n) => (n >= ADDRESS_ALERT_FAILURES ? HOUR_MS : 0),
  forgetAfterMs: HOUR_MS,
};

/**
 * Wrong authenticator codes for one operator, from every network together, at sign-in and as
 * fresh proof: the tenth, each within an hour of the one before, holds the operator's codes for an
 * hour (the step refuses a code unread; passkeys and recovery codes still work, so the holder of
 * the real device is never locked out). A code is checked only after the right password (or in a
 * signed-in session), so the per-network counts above do not bound it: an IPv6 /48 is 65,536
 * networks. With the ±1 step window at most 3 of the 10⁶ codes match at a moment, so each checked
 * code wins with p ≤ 3×10⁻⁶; ten an hour is ≤ 3×10⁻⁵ an hour, ≤ 0.072 % over a day (240 codes),
 * ≤ 2.1 % over 30 days, while every hour's hold writes an audit row and a warn line saying the
 * password is known. Not reset by a good sign-in: the operator signing in must not hand an attacker
 * a fresh ten. Counted per instance without Redis (two instances: twenty an hour).
 */
export const OPERATOR_WRONG_CODES = 10;
export const OPERATOR_HOLD_MS = HOUR_MS;
export const operatorCodesPolicy: BackoffPolicy = {
  blockAfter: (n) => (n >= OPERATOR_WRONG_CODES ? OPERATOR_HOLD_MS : 0),
  forgetAfterMs: OPERATOR_HOLD_MS,
};

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
function untilFor(entry: Entry | undefined, now: number, policy: BackoffPolicy): number | null {
  if (!entry || now - entry.lastFailureAt > policy.forgetAfterMs) return null;
  const until = entry.lastFailureAt + policy.blockAfter(entry.failures);
  return until > now ? until : null;
}

/** Per instance: a load-balanced pair of instances each allow the schedule (see the decision record). */
export function memoryFailureCounters(max = 50_000, policy: BackoffPolicy = pairPolicy): FailureCounters {
  // Bounded: a flood of made-up addresses evicts the oldest entries, never grows memory.
  const entries = new LRUCache<string, Entry>({ max });
  return {
    async blockedUntil(key, now) {
      return untilFor(entries.get(key), now, policy);
    },
    async recordFailure(key, now) {
      const e = entries.get(key);
      const live = e && now - e.lastFailureAt <= policy.forgetAfterMs ? e : undefined;
      entries.set(key, { failures: (live?.failures ?? 0) + 1, lastFailureAt: now });
    },
    async reset(key) {
      entries.delete(key);
    },
  };
}

// One hash per key, {failures, last}, forgotten by Redis a day (the policy's time) after its last failure. A script,
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
export function redisFailureCounters(redis: SharedRedis, policy: BackoffPolicy = pairPolicy): FailureCounters {
  const record = redis.script<number>('dhRecordSignInFailure', RECORD_FAILURE);
  const keyOf = (key: string) => `sign-in-backoff:${key}`;
  return {
    async blockedUntil(key, now) {
      // A key of another type fails here with WRONGTYPE, which the plugin reads as unreadable.
      const [failures, last] = await redis.client.hmget(keyOf(key), 'failures', 'last');
      if (failures === null && last === null) return null;
      const entry = { failures: Number(failures), lastFailureAt: Number(last) };
      // Number(null) is 0 and Number('') is 0: only digits are a count.
      if (
        !/^\d+$/.test(failures ?? '') ||
        !/^\d+$/.test(last ?? '') ||
        !Number.isSafeInteger(entry.failures) ||
        !Number.isSafeInteger(entry.lastFailureAt)
      ) {
        throw new UnreadableCounter('a sign-in back-off counter in Redis is not a number');
      }
      return untilFor(entry, now, policy);
    },
    async recordFailure(key, now) {
      await record(keyOf(key), now, policy.forgetAfterMs);
    },
    async reset(key) {
      await redis.client.del(keyOf(key));
    },
  };
}

/** The later of two blocks (null: not blocked). */
export const laterBlock = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);

/**
 * Redis while it answers, this instance's own counts while it does not (sign-ins go on, backing
 * off per instance). Failures are counted in both, so a fallback starts from what this instance
 * has seen rather than from nothing; and while Redis answers, the later of its block and this
 * instance's wins (a Redis that lost its data does not unblock what this instance saw). A counter
 * Redis cannot read as a number blocks: FIRST_BLOCK_MS from now, asked again at each try.
 */
export function sharedOrLocalFailureCounters(
  redis: SharedRedis,
  own?: FailureCounters,
  policy: BackoffPolicy = pairPolicy,
): FailureCounters {
  const shared = redisFailureCounters(redis, policy);
  const local = own ?? memoryFailureCounters(undefined, policy);
  return {
    blockedUntil: async (key, now) =>
      spendBoth(redis, await local.blockedUntil(key, now), () => shared.blockedUntil(key, now), {
        stricter: laterBlock,
        blocked: now + FIRST_BLOCK_MS,
      }),
    // An unreadable counter cannot take another failure; the block above already holds.
    recordFailure: (key, now) =>
      writeBoth(
        redis,
        () => local.recordFailure(key, now),
        () => shared.recordFailure(key, now),
      ),
    reset: (key) =>
      writeBoth(
        redis,
        () => local.reset(key),
        () => shared.reset(key),
      ),
  };
}

/** The four counts the sign-in routes keep (keys differ, so one Redis namespace holds them all). */
export interface SignInCounters {
  pair: FailureCounters;
  network: FailureCounters;
  address: FailureCounters;
  /** Wrong authenticator codes per operator, from any network (operatorCodesPolicy). */
  operatorCodes: FailureCounters;
}

/** Each count in Redis when there is one (this instance's own while it does not answer), else in memory. */
export function signInCounters(redis: SharedRedis | null): SignInCounters {
  const make = (policy: BackoffPolicy) =>
    redis ? sharedOrLocalFailureCounters(redis, undefined, policy) : memoryFailureCounters(undefined, policy);
  return {
    pair: make(pairPolicy),
    network: make(networkPolicy),
    address: make(addressAlertPolicy),
    operatorCodes: make(operatorCodesPolicy),
  };
}
