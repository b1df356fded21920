import { errorText } from './log-safe.ts';

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
    },
  ) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  get isDown(): boolean {
    return this.downSince !== null;
  }

  async run<T>(shared: () => Promise<T>, local: () => T | Promise<T>): Promise<T> {
    if (this.downSince !== null && this.now() < this.retryAt) return local();
    let value: T;
    try {
      value = await shared();
    } catch (error) {
      this.markDown(errorText(error));
      return local();
    }
    this.markUp();
    return value;
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
