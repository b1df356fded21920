import { performance } from 'node:perf_hooks';

/** The share of the event loop's time since the last call that it spent running code (0 to 1). */
export type LoopBusy = () => number;

/** Reads libuv's own idle accounting (cheap: two counters), so nothing is sampled on a timer. */
function eventLoopBusy(): LoopBusy {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    return utilization;
  };
}

export interface VisitorFirstOptions {
  /** Emails per second this instance still sends however busy it is (default FLOOR_PER_SEC). */
  floorPerSec?: number;
  /** Above this share of busy time, while visitors arrive, the pace drops to the floor (default 0.7). */
  busyHigh?: number;
  /** Below this share it grows by half, until it is unpaced again (default 0.5). */
  busyLow?: number;
  /** No visitor for this long: the pace is lifted at once (default 1000 ms). */
  quietAfterMs?: number;
  /** How often the busy share is read and the pace adjusted (default 50 ms). */
  tickMs?: number;
  busy?: LoopBusy;
}

/**
 * Confirmations are minutes-tolerant, the visitor pressing "Join" is not. A burst of sign-ups
 * queues a confirmation each, and a worker that drains them at full speed on the same event loop
 * takes the turns those visitors' requests need: in the bench's open loop the main thread was
 * 75–99 % busy at a quarter of capacity, most of it mail (decision 0051). So while visitors are
 * arriving (the sign-ups' nudges) and the loop is busy, the worker's emails are paced: the allowed
 * rate drops to the floor at the first tick the loop is over `busyHigh`, grows back by half each
 * tick it is under `busyLow`, and is lifted when visitors have been quiet for `quietAfterMs`. The
 * floor keeps every confirmation moving during a long spike; nothing is dropped or reordered, only
 * spaced.
 */
export class VisitorFirstPace {
  static readonly FLOOR_PER_SEC = 20;
  /** Above this many emails per second a grown pace is lifted: it no longer holds anything back. */
  static readonly LIFT_PER_SEC = 2000;
  private readonly floor: number;
  private readonly busyHigh: number;
  private readonly busyLow: number;
  private readonly quietAfterMs: number;
  private readonly tickMs: number;
  private readonly busy: LoopBusy;
  private lastArrival = Number.NEGATIVE_INFINITY;
  private rate = Number.POSITIVE_INFINITY;
  private tokens = 0;
  private refilledAt = 0;
  private tickAt = Number.NEGATIVE_INFINITY;

  constructor(opts: VisitorFirstOptions = {}) {
    this.floor = Math.max(1, opts.floorPerSec ?? VisitorFirstPace.FLOOR_PER_SEC);
    this.busyHigh = opts.busyHigh ?? 0.7;
    this.busyLow = opts.busyLow ?? 0.5;
    this.quietAfterMs = opts.quietAfterMs ?? 1000;
    this.tickMs = opts.tickMs ?? 50;
    this.busy = opts.busy ?? eventLoopBusy();
  }

  /** Emails per second allowed now; Infinity when unpaced. */
  get perSec(): number {
    return this.rate;
  }

  /** A visitor's request queued an email (a nudge). */
  arrived(now: number): void {
    this.lastArrival = now;
  }

  /** Milliseconds until the next email may start; 0 means now, and it is counted as started. */
  next(now: number): number {
    this.adjust(now);
    if (this.rate === Number.POSITIVE_INFINITY) return 0;
    // A tick's worth may go at once, never more: a paced worker does not burst.
    const cap = Math.max(1, (this.rate * this.tickMs) / 1000);
    this.tokens = Math.min(cap, this.tokens + ((now - this.refilledAt) / 1000) * this.rate);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - this.tokens) / this.rate) * 1000));
  }

  private adjust(now: number): void {
    const elapsed = now - this.tickAt;
    if (elapsed < this.tickMs) return;
    const busy = this.busy();
    this.tickAt = now;
    if (now - this.lastArrival > this.quietAfterMs) {
      this.rate = Number.POSITIVE_INFINITY;
      return;
    }
    if (busy > this.busyHigh) {
      // Straight to the floor, not halving: after a quiet spell the worker may be sending at full
      // speed, and halving from there took 0.7 s of the visitors' turns (the bench's open loop
      // caught it as a p99 of 0.7 s); growing back is what is gradual.
      this.setRate(this.floor, now);
    } else if (busy < this.busyLow && this.rate !== Number.POSITIVE_INFINITY) {
      const grown = this.rate * 1.5;
      this.setRate(grown > VisitorFirstPace.LIFT_PER_SEC ? Number.POSITIVE_INFINITY : grown, now);
    }
  }

  private setRate(rate: number, now: number): void {
    if (this.rate === Number.POSITIVE_INFINITY && rate !== Number.POSITIVE_INFINITY) {
      // Newly paced: the next email waits its turn rather than spending a saved-up second.
      this.tokens = 0;
      this.refilledAt = now;
    }
    this.rate = rate;
  }
}
