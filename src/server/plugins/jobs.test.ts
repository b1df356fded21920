import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scheduledJob } from './jobs.ts';

describe('a scheduled job', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at start, then when `next` says (never waiting longer than the cap), and not after stop', async () => {
    let runs = 0;
    let wait = 10_000;
    const job = scheduledJob(
      't',
      { next: () => wait, maxWaitMs: 60_000 },
      async () => void runs++,
      () => undefined,
    );
    job.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    wait = 10 * 60 * 60_000; // hours away: the cap decides
    await vi.advanceTimersByTimeAsync(10_000); // the wait asked for before the change
    expect(runs).toBe(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(4);
    await job.stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(runs).toBe(4);
  });

  it('keeps going after a failed run, reporting it', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const job = scheduledJob(
      't',
      { next: () => 1_000, maxWaitMs: 60_000 },
      async () => {
        runs++;
        if (runs === 1) throw new Error('boom');
      },
      (e) => errors.push(e),
    );
    job.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
    await job.stop();
  });
});
