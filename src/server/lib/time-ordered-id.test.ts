import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './time-ordered-id.ts';

describe('timeOrderedId', () => {
  it('is a UUID of version 7 and variant 10 (RFC 9562) whose first 48 bits are the Unix milliseconds', () => {
    const at = Date.parse('2026-11-26T14:00:00.123Z');
    const id = timeOrderedId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it('sorts by the millisecond it was made, as text too (what an index on a text column sees)', () => {
    const start = Date.parse('2026-11-26T14:00:00.000Z');
    const ids = Array.from({ length: 2000 }, (_, i) => timeOrderedId(start + i));
    expect([...ids].sort()).toEqual(ids);
  });

  it('is random after the time: 2,000 ids made in one millisecond are all different, over more than one pool', () => {
    const ids = Array.from({ length: 2000 }, () => timeOrderedId(1_800_000_000_000));
    expect(new Set(ids).size).toBe(2000);
    // Every random hex digit position takes many values (74 random bits, not a counter).
    for (const position of [15, 20, 25, 30, 35])
      expect(new Set(ids.map((id) => id[position])).size).toBeGreaterThan(10);
  });
});
