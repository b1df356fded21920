import { spendBoth, writeBoth } from '../../lib/shared-or-local.ts';
import type { SharedRedis } from '../../plugins/redis.ts';

/**
 * How many broadcast emails may go now under MAIL_RATE_PER_SEC. The rate is the mail provider's
 * limit for the whole site, so with several instances it must be shared: two instances each
 * sending at the full rate would be throttled (or flagged) by the provider. Async, so the shared
 * one (Redis) fits the same place as the per-instance one.
 */
export interface BroadcastPace {
  /** Grants up to `want` sends now; 0 when the pace is spent. */
  take(want: number, now: number): Promise<number>;
  /** Returns sends granted but not used (fewer rows were due than granted). */
  giveBack(n: number, now: number): Promise<void>;
  /** How long until `take` may grant again. */
  msToNext(now: number): number;
}

/** This instance alone: a token bucket that holds up to one second's sends. */
export class LocalPace implements BroadcastPace {
  private tokens = 0;
  private at = 0;

  constructor(private readonly perSec: number) {}

  private refill(now: number): void {
    this.tokens = Math.min(Math.max(1, this.perSec), this.tokens + ((now - this.at) / 1000) * this.perSec);
    this.at = now;
  }

  async take(want: number, now: number): Promise<number> {
    this.refill(now);
    const n = Math.max(0, Math.min(want, Math.floor(this.tokens)));
    this.tokens -= n;
    return n;
  }

  async giveBack(n: number): Promise<void> {
    // An idle list saves up its second; never more.
    this.tokens = Math.min(Math.max(1, this.perSec), this.tokens + n);
  }

  msToNext(): number {
    return Math.max(1, Math.ceil(((1 - Math.min(1, this.tokens)) / this.perSec) * 1000));
  }
}

// One counter per second for the whole site: grant what is left of the second's allowance,
// atomically, so two instances asking at once never both get the last sends.
const TAKE = `
local used = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], 2000)
local over = used - tonumber(ARGV[2])
if over <= 0 then return tonumber(ARGV[1]) end
local back = math.min(tonumber(ARGV[1]), over)
redis.call('DECRBY', KEYS[1], back)
return tonumber(ARGV[1]) - back`;

const GIVE_BACK = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECRBY', KEYS[1], ARGV[1]) end
return 1`;

const second = (now: number): number => Math.floor(now / 1000);

/** Every instance together: a fixed one-second window in Redis. */
export class RedisPace implements BroadcastPace {
  private readonly takeScript: (key: string, want: number, perSec: number) => Promise<number>;
  private readonly giveBackScript: (key: string, n: number) => Promise<number>;

  constructor(
    redis: SharedRedis,
    private readonly perSec: number,
  ) {
    this.takeScript = redis.script<number>('dhTakeMailPace', TAKE);
    this.giveBackScript = redis.script<number>('dhGiveBackMailPace', GIVE_BACK);
  }

  async take(want: number, now: number): Promise<number> {
    if (want <= 0) return 0;
    return Number(await this.takeScript(`mail-pace:${second(now)}`, want, Math.max(1, Math.floor(this.perSec))));
  }

  async giveBack(n: number, now: number): Promise<void> {
    if (n > 0) await this.giveBackScript(`mail-pace:${second(now)}`, n);
  }

  msToNext(now: number): number {
    return 1000 - (now % 1000);
  }
}

/**
 * Redis while it answers, else this instance's own bucket, which is always spent too: the site
 * never sends faster than the shared pace, and no instance faster than the rate by itself, so
 * during a Redis outage N instances send at most N times the rate, and the log says Redis is out.
 */
export class SharedOrLocalPace implements BroadcastPace {
  private readonly shared: RedisPace;
  private readonly local: LocalPace;

  constructor(
    private readonly redis: SharedRedis,
    perSec: number,
  ) {
    this.shared = new RedisPace(redis, perSec);
    this.local = new LocalPace(perSec);
  }

  async take(want: number, now: number): Promise<number> {
    const mine = await this.local.take(want, now);
    if (mine === 0) return 0;
    // Redis is asked for what this instance may send; a pace counter it cannot read grants
    // nothing this second (the key lives two seconds).
    const granted = await spendBoth(this.redis, mine, () => this.shared.take(mine, now), {
      stricter: Math.min,
      blocked: 0,
    });
    await this.local.giveBack(mine - granted);
    return granted;
  }

  async giveBack(n: number, now: number): Promise<void> {
    await writeBoth(
      this.redis,
      () => this.local.giveBack(n),
      () => this.shared.giveBack(n, now),
    );
  }

  msToNext(now: number): number {
    return Math.max(this.local.msToNext(), this.shared.msToNext(now));
  }
}
