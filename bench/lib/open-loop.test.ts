import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { dueBy, intendedSendMs, percentile, runOpenLoop } from './open-loop.ts';

describe('open-loop schedule', () => {
  it('spaces intended send times evenly at the rate, and counts the due ones inclusively', () => {
    expect(intendedSendMs(0, 200)).toBe(0);
    expect(intendedSendMs(3, 200)).toBe(15);
    expect(intendedSendMs(1000, 250)).toBe(4000);
    // At t = 0 the first is due; at exactly 5 ms (rate 200/s) the second joins it.
    expect(dueBy(0, 200)).toBe(1);
    expect(dueBy(4.99, 200)).toBe(1);
    expect(dueBy(5, 200)).toBe(2);
    expect(dueBy(1000, 200)).toBe(201);
  });

  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 1000 }, (_, i) => 1000 - i);
    expect(percentile(values, 50)).toBe(500);
    expect(percentile(values, 99)).toBe(990);
    expect(percentile(values, 99.9)).toBe(999);
    expect(percentile(values, 100)).toBe(1000);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('open-loop generator against a server that stalls once', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('times the requests scheduled during the stall from their intended send time, stall included', async () => {
    const STALL_AFTER = 40;
    const STALL_MS = 300;
    let seen = 0;
    let stall: { from: number; until: number } | undefined;
    const held: ServerResponse[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen++;
        const now = performance.now();
        if (seen === STALL_AFTER) {
          // From here, nothing is answered for STALL_MS: a commit that hangs, a GC pause.
          stall = { from: now, until: now + STALL_MS };
          setTimeout(() => {
            for (const r of held.splice(0)) r.end('held');
          }, STALL_MS);
        }
        if (stall && now < stall.until) held.push(res);
        else res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const { port } = server.address() as AddressInfo;

    // Two connections: during the stall both are taken, so the generator cannot send the requests
    // due meanwhile. A closed loop would send them after the stall and time only their service.
    const result = await runOpenLoop({
      url: `http://127.0.0.1:${port}/`,
      rate: 200,
      durationSec: 1.5,
      connections: 2,
      next: () => ({ method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
    });

    expect(result.sent).toBe(300);
    expect(result.status2xx).toBe(300);
    expect(result.errors + result.non2xx).toBe(0);
    expect(result.waitedForConnection).toBeGreaterThan(20);
    if (!stall) throw new Error('the server never stalled');
    const { from, until } = stall;

    // Every request meant to go out while the server stalled waited at least until its end.
    const during = result.intendedMs
      .map((intended, k) => ({
        at: result.startedAt + intended,
        latency: result.latenciesMs[k] ?? 0,
        service: result.serviceMs[k] ?? 0,
      }))
      .filter((r) => r.at > from + 1 && r.at < until - 20);
    expect(during.length).toBeGreaterThan(40);
    for (const r of during) expect(r.latency).toBeGreaterThanOrEqual(until - r.at - 2);

    // Timed from their actual send, most of them look fast: the omission being corrected.
    const quick = during.filter((r) => r.service < STALL_MS / 3).length;
    expect(quick).toBeGreaterThan(during.length / 2);
    expect(percentile(result.serviceMs, 90)).toBeLessThan(STALL_MS / 3);
    // A fifth of the requests were due during the stall, so even the p90 carries it.
    expect(percentile(result.latenciesMs, 90)).toBeGreaterThan(STALL_MS / 3);
  });
});
