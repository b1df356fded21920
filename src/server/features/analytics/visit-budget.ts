import { LRUCache } from 'lru-cache';
import { spendBoth } from '../../lib/shared-or-local.ts';
import type { SharedRedis } from '../../plugins/redis.ts';

/**
 * How many visits one client may have counted per minute. Beacons past it are still answered 204
 * (the page never waits or retries) but not counted. The in-memory budget below is per instance;
 * the Redis one is shared by every instance (with the in-memory one while Redis is out of reach).
 * `client` is a keyed hash of the client's network, never an address.
 */
export interface VisitBudget {
  /** Spends one of `client`'s visits for the minute `now` falls in; false when none is left. */
  take(client: string, now: Date): Promise<boolean>;
}

const MINUTE = 60_000;

/**
 * A fixed one-minute window per client, in an LRU of at most `maxClients` entries (about 100 bytes
 * each): a flood from more distinct clients than that only pushes out the oldest counters, so
 * memory stays bounded and the worst case is a client whose counter was pushed out starting again.
 */
export class MemoryVisitBudget implements VisitBudget {
  private readonly windows: LRUCache<string, { minute: number; used: number }>;

  constructor(
    private readonly perMinute: number,
    maxClients = 50_000,
  ) {
    this.windows = new LRUCache({ max: maxClients });
  }

  async take(client: string, now: Date): Promise<boolean> {
    const minute = Math.floor(now.getTime() / MINUTE);
    const entry = this.windows.get(client);
    // A beacon's work runs after its answer, so one from the end of a minute can arrive after the
    // next minute's first: it spends from the newer window rather than resetting it.
    if (!entry || minute > entry.minute) {
      this.windows.set(client, { minute, used: 1 });
      return true;
    }
    if (entry.used >= this.perMinute) return false;
    entry.used++;
    return true;
  }
}

// The memory budget's rule, atomically in Redis: one hash {minute, used} per client, kept two
// minutes. A late visit from an earlier minute spends from the newer window, as above.
const TAKE = `
local minute = tonumber(ARGV[1])
local held = redis.call('HMGET', KEYS[1], 'minute', 'used')
local heldMinute = tonumber(held[1])
if not heldMinute or minute > heldMinute then
  redis.call('HSET', KEYS[1], 'minute', minute, 'used', 1)
  redis.call('PEXPIRE', KEYS[1], 2 * ${MINUTE})
  return 1
end
if tonumber(held[2]) >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'used', 1)
return 1`;

/** Shared by every instance: a client's budget is the same whichever instance counts its beacon. */
export class RedisVisitBudget implements VisitBudget {
  private readonly run: (key: string, minute: number, perMinute: number) => Promise<number>;

  constructor(
    redis: SharedRedis,
    private readonly perMinute: number,
  ) {
    this.run = redis.script<number>('dhTakeVisit', TAKE);
  }

  async take(client: string, now: Date): Promise<boolean> {
    return (await this.run(`visit-budget:${client}`, Math.floor(now.getTime() / MINUTE), this.perMinute)) === 1;
  }
}

/** Redis while it answers, else this instance's budget (spendBoth: the local one is always spent
 * too, the stricter answer wins, and a budget Redis cannot read is spent). */
export class SharedOrLocalVisitBudget implements VisitBudget {
  private readonly shared: RedisVisitBudget;
  private readonly local: MemoryVisitBudget;

  constructor(
    private readonly redis: SharedRedis,
    perMinute: number,
  ) {
    this.shared = new RedisVisitBudget(redis, perMinute);
    this.local = new MemoryVisitBudget(perMinute);
  }

  async take(client: string, now: Date): Promise<boolean> {
    return spendBoth(this.redis, await this.local.take(client, now), () => this.shared.take(client, now), {
      stricter: (shared, mine) => shared && mine,
      blocked: false,
    });
  }
}
