import { describe, expect, it } from 'vitest';
import { VisitorFirstPace } from './visitor-first-pace.ts';

/** A worker that asks every millisecond of simulated time and starts an email whenever it may. */
function drive(pace: VisitorFirstPace, from: number, to: number, arrivals = true): number[] {
  const started: number[] = [];
  for (let t = from; t < to; t++) {
    if (arrivals && t % 10 === 0) pace.arrived(t);
    if (pace.next(t) === 0) started.push(t);
  }
  return started;
}

describe('the visitor-first pace of the outbox worker', () => {
  it('holds nothing back while no visitor is arriving, however busy the loop is', () => {
    const pace = new VisitorFirstPace({ busy: () => 1 });
    expect(drive(pace, 0, 500, false)).toHaveLength(500);
    expect(pace.perSec).toBe(Number.POSITIVE_INFINITY);
  });

  it('while visitors arrive and the loop is busy, drops to the floor at the first tick and stays there', () => {
    const pace = new VisitorFirstPace({ busy: () => 0.95, floorPerSec: 20, tickMs: 50 });
    // Unpaced until the first tick reads the loop: then at once to the floor, not halving from a
    // full-speed drain (which took 0.7 s of the visitors' turns).
    expect(drive(pace, 0, 1)).toEqual([]);
    expect(pace.perSec).toBe(20);
    const rates: number[] = [];
    for (let t = 1; t < 1500; t += 50) {
      drive(pace, t, t + 50);
      rates.push(pace.perSec);
    }
    expect(new Set(rates)).toEqual(new Set([20]));
    // At the floor: 20 a second, spaced, not a saved-up burst.
    const second = drive(pace, 1501, 2501);
    expect(second.length).toBeGreaterThanOrEqual(19);
    expect(second.length).toBeLessThanOrEqual(21);
    const gaps = second.slice(1).map((t, i) => t - (second[i] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(45);
  });

  it('grows back by half each tick the loop has room, until it is lifted', () => {
    let busy = 0.95;
    const pace = new VisitorFirstPace({ busy: () => busy, floorPerSec: 20, tickMs: 100 });
    for (let t = 0; t < 1500; t += 100) drive(pace, t, t + 100);
    expect(pace.perSec).toBe(20);
    busy = 0.3;
    drive(pace, 1500, 1600);
    expect(pace.perSec).toBe(30);
    drive(pace, 1600, 1700);
    expect(pace.perSec).toBe(45);
    drive(pace, 1600, 3000);
    // 20 × 1.5^n passes 2,000 a second after a dozen ticks: then it is lifted.
    expect(pace.perSec).toBe(Number.POSITIVE_INFINITY);
  });

  it('keeps its pace while the loop is between the two marks', () => {
    let busy = 0.95;
    const pace = new VisitorFirstPace({ busy: () => busy, floorPerSec: 20, tickMs: 100 });
    for (let t = 0; t < 1500; t += 100) drive(pace, t, t + 100);
    busy = 0.6;
    drive(pace, 1500, 2500);
    expect(pace.perSec).toBe(20);
  });

  it('is lifted at once when visitors stop arriving, busy or not', () => {
    const pace = new VisitorFirstPace({ busy: () => 0.95, floorPerSec: 20, tickMs: 100, quietAfterMs: 1000 });
    for (let t = 0; t < 1500; t += 100) drive(pace, t, t + 100);
    expect(pace.perSec).toBe(20);
    // The last visitor arrived at 1,490 ms; a tick after 2,490 ms lifts the pace.
    drive(pace, 1500, 2600, false);
    expect(pace.perSec).toBe(Number.POSITIVE_INFINITY);
    expect(drive(pace, 2600, 2700, false)).toHaveLength(100);
  });

  it('says how long to wait, so the worker sleeps rather than polls', () => {
    const pace = new VisitorFirstPace({ busy: () => 0.95, floorPerSec: 20, tickMs: 100 });
    for (let t = 0; t < 1500; t += 100) drive(pace, t, t + 100);
    pace.arrived(1500);
    let t = 1500;
    while (pace.next(t) === 0) t++;
    const wait = pace.next(t);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(50);
    expect(pace.next(t + wait)).toBe(0);
  });
});
