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
// A try is taken before the password or code is checked (`take`, one atomic step in either store),
// so tries sent at once cannot all pass a check made before any of them failed; a right answer
// gives its try back. Wrong authenticator codes per operator are counted in the database instead
// (code-tries.ts), beside the five tries of each pending sign-in (sessions.ts).

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
 * A client network, whatever addresses it tries: 20 free failures. More than the 5 of one address
 * from one network: several operators may share an office's address, and one person's typos
 * should not stop the others, while a network spraying many addresses still slows to one try per
 * 16 minutes soon after.
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

/** A try taken from a key: which one it was, so it can be given back exactly (FailureCounters.giveBack). */
export interface TakenTry {
  failures: number;
  at: number;
  /** The shared store's count at this try, when it took the try too (sharedOrLocalFailureCounters). */
  sharedFailures?: number;
}

/** A try taken, or when the key may try again. */
export type Take = { taken: TakenTry } | { until: number };

/**
 * Failure counts by key (keyed hashes: the callers never pass an address or an IP). Async, so the
 * shared store (Redis) stands in for the in-process one without touching the routes.
 */
export interface FailureCounters {
  /** When this key may try again (ms since the epoch), or null when it may now. */
  blockedUntil(key: string, now: number): Promise<number | null>;
  /**
   * One step: refused while the key is blocked, else a failure recorded at once (reserved before
   * the answer is checked, kept if it was wrong). Tries taken at once are counted one by one.
   */
  take(key: string, now: number): Promise<Take>;
  /** A taken try whose answer was right (or was never checked): it no longer counts. */
  giveBack(key: string, taken: TakenTry): Promise<void>;
  /** One more failure; the key's count after it. */
  recordFailure(key: string, now: number): Promise<number>;
  reset(key: string): Promise<void>;
}

interface Entry {
  failures: number;
  lastFailureAt: number;
  /** The failure before the last one's time, so a try given back restores it (null: unknown). */
  previousAt: number | null;
}

/** The one rule both stores apply to what they hold. */
function untilFor(entry: Entry | undefined, now: number, policy: BackoffPolicy): number | null {
  if (!entry || now - entry.lastFailureAt > policy.forgetAfterMs) return null;
  // A count with free tries left blocks nothing, whatever the clocks say: requests at once read
  // "now" a moment apart, and one that read it before another's failure was recorded would
  // otherwise see that failure in its future and be refused while tries are left.
  const wait = policy.blockAfter(entry.failures);
  if (wait === 0) return null;
  const until = entry.lastFailureAt + wait;
  return until > now ? until : null;
}

/** Per instance: a load-balanced pair of instances each allow the schedule (see the decision record). */
export function memoryFailureCounters(max = 50_000, policy: BackoffPolicy = pairPolicy): FailureCounters {
  // Bounded: a flood of made-up addresses evicts the oldest entries, never grows memory.
  const entries = new LRUCache<string, Entry>({ max });
  const live = (key: string, now: number) => {
    const e = entries.get(key);
    return e && now - e.lastFailureAt <= policy.forgetAfterMs ? e : undefined;
  };
  // Synchronous between reading and writing: nothing else runs in this process in between.
  const record = (key: string, now: number): Entry => {
    const e = live(key, now);
    const next = { failures: (e?.failures ?? 0) + 1, lastFailureAt: now, previousAt: e?.lastFailureAt ?? null };
    entries.set(key, next);
    return next;
  };
  return {
    async blockedUntil(key, now) {
      return untilFor(entries.get(key), now, policy);
    },
    async take(key, now) {
      const until = untilFor(entries.get(key), now, policy);
      if (until !== null) return { until };
      return { taken: { failures: record(key, now).failures, at: now } };
    },
    async giveBack(key, taken) {
      const e = entries.get(key);
      if (!e) return;
      const failures = e.failures - 1;
      if (failures <= 0) return void entries.delete(key);
      // The last try, untouched since: its predecessor's time comes back. Otherwise only the count.
      const mine = e.failures === taken.failures && e.lastFailureAt === taken.at;
      const lastFailureAt = mine ? (e.previousAt ?? e.lastFailureAt) : e.lastFailureAt;
      entries.set(key, { failures, lastFailureAt, previousAt: null });
    },
    async recordFailure(key, now) {
      return record(key, now).failures;
    },
    async reset(key) {
      entries.delete(key);
    },
  };
}

// One hash per key, {failures, last, prev}, forgotten by Redis a day (the policy's time) after its
// last failure. Scripts, so two instances taking or recording at once never lose a count nor both
// take the last free try, and so the day is measured from the caller's "now" like the memory
// store's. `prev` is the failure before the last one's time, for a try given back.
const RECORD_FAILURE = `
local last = redis.call('HGET', KEYS[1], 'last')
if last and tonumber(ARGV[1]) - (tonumber(last) or 0) > tonumber(ARGV[2]) then
  redis.call('DEL', KEYS[1])
  last = false
end
local n = redis.call('HINCRBY', KEYS[1], 'failures', 1)
redis.call('HSET', KEYS[1], 'last', ARGV[1], 'prev', last or '')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n`;

// ARGV: now, the time to forget, then the block after 0, 1, 2, … failures (the last one repeats).
// Refused: {0, until}; taken: {1, failures}. A value that is not a number is Redis's own "not an
// integer" complaint, which the plugin reads as an unreadable counter (blocked).
const TAKE_TRY = `
local now = tonumber(ARGV[1])
local h = redis.call('HMGET', KEYS[1], 'failures', 'last')
local last = false
if h[1] or h[2] then
  local n, l = tonumber(h[1]), tonumber(h[2])
  if not n or not l then return redis.error_reply('ERR sign-in back-off counter is not an integer') end
  if now - l > tonumber(ARGV[2]) then
    redis.call('DEL', KEYS[1])
  else
    local wait = tonumber(ARGV[3 + math.min(n, #ARGV - 3)])
    -- Free tries left: never blocked, even when another instance's "now" ran ahead of ours.
    if wait > 0 and l + wait > now then return {0, l + wait} end
    last = h[2]
  end
end
local taken = redis.call('HINCRBY', KEYS[1], 'failures', 1)
redis.call('HSET', KEYS[1], 'last', ARGV[1], 'prev', last or '')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, taken}`;

// ARGV: the given-back try's failures and time. The last try, untouched since: its predecessor's
// time comes back; otherwise only the count falls.
const GIVE_BACK = `
local h = redis.call('HMGET', KEYS[1], 'failures', 'last', 'prev')
local n = tonumber(h[1])
if not n then return 0 end
if n <= 1 then redis.call('DEL', KEYS[1]) return 1 end
if n == tonumber(ARGV[1]) and h[2] == ARGV[2] and h[3] and h[3] ~= '' then redis.call('HSET', KEYS[1], 'last', h[3]) end
redis.call('HSET', KEYS[1], 'failures', n - 1, 'prev', '')
return 1`;

/**
 * A policy's block after 0, 1, 2, … failures, up to where it stops changing (the scripts repeat
 * the last): the schedule in numbers Redis can apply without calling back.
 */
function scheduleOf(policy: BackoffPolicy): number[] {
  const steps = Array.from({ length: 64 }, (_, n) => policy.blockAfter(n));
  const end = steps.findLastIndex((ms) => ms !== steps[steps.length - 1]);
  return steps.slice(0, end + 2);
}

/** Shared by every instance: the schedule holds however sign-ins are spread over them. */
export function redisFailureCounters(redis: SharedRedis, policy: BackoffPolicy = pairPolicy): FailureCounters {
  const record = redis.script<number>('dhRecordSignInFailure', RECORD_FAILURE);
  const takeTry = redis.script<[number, number]>('dhTakeSignInTry', TAKE_TRY);
  const giveBack = redis.script<number>('dhGiveSignInTryBack', GIVE_BACK);
  const schedule = scheduleOf(policy);
  const keyOf = (key: string) => `sign-in-backoff:${key}`;
  return {
    async blockedUntil(key, now) {
      // A key of another type fails here with WRONGTYPE, which the plugin reads as unreadable.
      const [failures, last] = await redis.client.hmget(keyOf(key), 'failures', 'last');
      if (failures === null && last === null) return null;
      const entry = { failures: Number(failures), lastFailureAt: Number(last), previousAt: null };
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
    async take(key, now) {
      const [taken, value] = await takeTry(keyOf(key), now, policy.forgetAfterMs, ...schedule);
      return taken === 1 ? { taken: { failures: Number(value), at: now } } : { until: Number(value) };
    },
    async giveBack(key, taken) {
      await giveBack(keyOf(key), taken.failures, taken.at);
    },
    async recordFailure(key, now) {
      return Number(await record(keyOf(key), now, policy.forgetAfterMs));
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
    take: async (key, now) => {
      const mine = await local.take(key, now);
      // Refused here, refused by every instance together too (the shared count holds this
      // instance's and more), so the shared count is not asked. Asking it anyway would take a try
      // there that is then given back after the fact: meanwhile it refuses others, and a burst
      // across instances would let fewer through than the limit.
      if (!('taken' in mine)) return mine;
      const theirs = await redis.orLocal<Take | 'out' | 'unreadable'>(
        () => shared.take(key, now),
        () => 'out',
        { unreadable: () => 'unreadable' },
      );
      if (theirs === 'out') return mine;
      if ('taken' in mine && typeof theirs === 'object' && 'taken' in theirs)
        return { taken: { ...mine.taken, sharedFailures: theirs.taken.failures } };
      // Refused by the shared count (or one it cannot read): this instance's try is given back.
      await local.giveBack(key, mine.taken);
      if (typeof theirs === 'object' && 'taken' in theirs) await shared.giveBack(key, theirs.taken);
      const until = (t: Take | 'unreadable') =>
        t === 'unreadable' ? now + FIRST_BLOCK_MS : 'until' in t ? t.until : 0;
      return { until: Math.max(until(mine), until(theirs)) };
    },
    giveBack: (key, taken) =>
      writeBoth(
        redis,
        () => local.giveBack(key, taken),
        async () => {
          if (taken.sharedFailures !== undefined)
            await shared.giveBack(key, { failures: taken.sharedFailures, at: taken.at });
        },
      ),
    // The larger count wins, as the later block does; an unreadable shared count is left to block.
    recordFailure: async (key, now) => {
      const mine = await local.recordFailure(key, now);
      return spendBoth(redis, mine, () => shared.recordFailure(key, now), { stricter: Math.max, blocked: mine });
    },
    reset: (key) =>
      writeBoth(
        redis,
        () => local.reset(key),
        () => shared.reset(key),
      ),
  };
}

/**
 * The three counts the sign-in routes keep in memory or Redis (keys differ, so one Redis namespace
 * holds them all); wrong codes per operator are in the database (code-tries.ts).
 */
export interface SignInCounters {
  pair: FailureCounters;
  network: FailureCounters;
  address: FailureCounters;
}

/** Each count in Redis when there is one (this instance's own while it does not answer), else in memory. */
export function signInCounters(redis: SharedRedis | null): SignInCounters {
  const make = (policy: BackoffPolicy) =>
    redis ? sharedOrLocalFailureCounters(redis, undefined, policy) : memoryFailureCounters(undefined, policy);
  return {
    pair: make(pairPolicy),
    network: make(networkPolicy),
    address: make(addressAlertPolicy),
  };
}
