import { errorText } from './log-safe.ts';

/**
 * The shared store answered, but not with a count: a value that is not a number, a key of another
 * type. Not an outage (the store answers), and not a reason to count as if nothing were there:
 * someone or something wrote that value, and a limit that read it as zero would fail open.
 */
export class UnreadableCounter extends Error {}

export interface RunOptions<T> {
  /**
   * Both answers, when the shared store gave one: the stricter wins (the larger count, the later
   * block). A shared count below this instance's own means the shared one was lost or reset (a
   * Redis restarted without its data, a key deleted), and this instance still knows better.
   */
  merge?: (shared: T, local: T) => T;
  /** The answer when the shared counter is unreadable: blocked. Without it, the local answer. */
  unreadable?: () => T;
}

/** What a shared store offers the limits kept in it (plugins/redis.ts's SharedRedis is one). */
export interface SharedStore {
  /** `shared`'s answer when the store gives one (see SharedOrLocal.run), else `local`'s. */
  orLocal<T>(shared: () => Promise<T>, local: () => T | Promise<T>, opts?: RunOptions<T>): Promise<T>;
}

/**
 * The one rule for a limit that several instances keep together and each instance keeps too.
 * `mine` is this instance's answer, already spent: the local count always advances, so a
 * fallback starts from this instance's recent use rather than from nothing. The shared store is
 * then asked while it answers, and the stricter of the two answers wins: a shared count that was
 * lost or reset (Redis restarted empty, a key deleted) does not loosen what this instance saw.
 * While the store is out, `mine`; a shared count it holds but cannot read gives `blocked`.
 */
export function spendBoth<T>(
  store: SharedStore,
  mine: T,
  shared: () => Promise<T>,
  rule: { stricter: (shared: T, mine: T) => T; blocked: T },
): Promise<T> {
  return store.orLocal(shared, () => mine, { merge: rule.stricter, unreadable: () => rule.blocked });
}

/**
 * A change made to both counts (a failure recorded, sends given back): this instance's first,
 * then the shared store's while it answers. Skipped there during an outage, and on a count the
 * store cannot read (whatever it limits is blocked already, by spendBoth's `blocked`).
 */
export async function writeBoth(
  store: SharedStore,
  local: () => void | Promise<void>,
  shared: () => Promise<void>,
): Promise<void> {
  await local();
  await store.orLocal(shared, () => undefined, { unreadable: () => undefined });
}

/**
 * A shared store's answer when it gives one, else this instance's own. Limits shared across
 * instances (Redis) must never stall or fail a request when the shared store is out of reach:
 * a sign-up counted by this instance alone is better than no sign-up. So each call tries the
 * shared operation (whose own timeout is short) and, on any error, answers with the local one.
 *
 * After a failure the shared store is left alone for `retryMs` (a store that has stopped
 * answering would otherwise cost every request its full timeout), then tried again; `markUp`
 * (the client has reconnected) ends the pause at once. The outage is reported once when it
 * starts and once when it ends, never once per request.
 */
export class SharedOrLocal {
  private downSince: number | null = null;
  private retryAt = 0;

  constructor(
    private readonly opts: {
      /** The outage began; `reason` is in words (no stack). */
      onDown: (reason: string) => void;
      /** The shared store answers again after `ms` without it. */
      onUp: (ms: number) => void;
      retryMs?: number;
      /** Wall time: the app's injected clock may stand still in tests. */
      now?: () => number;
      /**
       * Whether an error is the store answering with a value that is not a count (see
       * UnreadableCounter; the Redis plugin also names Redis's own WRONGTYPE and "not an integer").
       */
      isUnreadable?: (error: unknown) => boolean;
      /** An unreadable counter was met; said at most once a minute. */
      onUnreadable?: (reason: string) => void;
    },
  ) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  get isDown(): boolean {
    return this.downSince !== null;
  }

  private unreadableSaidAt = -Infinity;

  async run<T>(shared: () => Promise<T>, local: () => T | Promise<T>, opts: RunOptions<T> = {}): Promise<T> {
    if (this.downSince !== null && this.now() < this.retryAt) return local();
    let value: T;
    try {
      value = await shared();
    } catch (error) {
      const unreadable = error instanceof UnreadableCounter || (this.opts.isUnreadable?.(error) ?? false);
      if (unreadable && opts.unreadable) {
        // The store answered: not an outage. Fail closed, and say so (not once per request).
        this.markUp();
        if (this.now() - this.unreadableSaidAt >= 60_000) {
          this.unreadableSaidAt = this.now();
          this.opts.onUnreadable?.(errorText(error));
        }
        return opts.unreadable();
      }
      this.markDown(errorText(error));
      return local();
    }
    this.markUp();
    return opts.merge ? opts.merge(value, await local()) : value;
  }

  markDown(reason: string): void {
    const now = this.now();
    this.retryAt = now + (this.opts.retryMs ?? 1000);
    if (this.downSince !== null) return;
    this.downSince = now;
    this.opts.onDown(reason);
  }

  markUp(): void {
    if (this.downSince === null) return;
    const ms = this.now() - this.downSince;
    this.downSince = null;
    this.opts.onUp(ms);
  }
}
