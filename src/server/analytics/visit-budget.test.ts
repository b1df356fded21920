import { describe, expect, it } from 'vitest';
import { clientNetwork, MemoryVisitBudget } from './visit-budget.ts';

describe('clientNetwork', () => {
  it.each([
    ['81.2.69.142', '81.2.69.142'],
    ['::ffff:81.2.69.142', '81.2.69.142'],
    ['2a00:1450:4001:800::200e', '2a00:1450:4001:800::/64'],
    ['2a00:1450:4001:800:ffff:1:2:3', '2a00:1450:4001:800::/64'],
    ['2a00:1450:4001:801::1', '2a00:1450:4001:801::/64'],
    ['not an address', 'not an address'],
  ])('%s → %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});

describe('MemoryVisitBudget', () => {
  it('allows perMinute visits per client per minute, each client on its own', async () => {
    const budget = new MemoryVisitBudget(3);
    const at = new Date('2026-11-21T12:00:10Z');
    const a = await Promise.all([1, 2, 3, 4, 5].map(() => budget.take('a', at)));
    expect(a).toEqual([true, true, true, false, false]);
    expect(await budget.take('b', at)).toBe(true);
    expect(await budget.take('a', new Date('2026-11-21T12:01:00Z'))).toBe(true);
  });

  it('a late visit from the minute before spends from the current window, never resets it', async () => {
    const budget = new MemoryVisitBudget(2);
    const earlier = new Date('2026-11-21T12:00:59Z');
    const later = new Date('2026-11-21T12:01:00Z');
    expect(await budget.take('a', later)).toBe(true);
    expect(await budget.take('a', earlier)).toBe(true);
    expect(await budget.take('a', later)).toBe(false);
    expect(await budget.take('a', earlier)).toBe(false);
  });

  it('holds at most maxClients counters: memory stays bounded under a flood of clients', async () => {
    const budget = new MemoryVisitBudget(1, 100);
    const at = new Date('2026-11-21T12:00:00Z');
    for (let i = 0; i < 1000; i++) await budget.take(`client-${i}`, at);
    // The oldest counters were let go, so client-0 starts again; the newest are still spent.
    expect(await budget.take('client-0', at)).toBe(true);
    expect(await budget.take('client-999', at)).toBe(false);
  });
});
