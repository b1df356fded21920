import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

// Failed sign-ins back off: after 5 failures for an address or for a client, further tries are
// refused for 30 s, then 60 s after the next failure, doubling up to 16 minutes. The decision is
// made before any password is hashed, so a refused try costs the server nothing. Failures are
// forgotten at a successful sign-in, or a day after the last one.

export const FREE_FAILURES = 5;
const FIRST_BLOCK_MS = 30_000;
const MAX_BLOCK_MS = 16 * 60_000;
const FORGET_AFTER_MS = 24 * 60 * 60_000;

/** How long a key is refused after its `failures`-th failure (0 while it has tries left). */
export function blockAfter(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(FIRST_BLOCK_MS * 2 ** (failures - FREE_FAILURES), MAX_BLOCK_MS);
}

/**
 * Failure counts by key. Async, so a shared store (Redis, a later issue) can stand in for the
 * in-process one without touching the routes.
 */
export interface FailureCounters {
  /** When this key may try again (ms since the epoch), or null when it may now. */
  blockedUntil(key: string, now: number): Promise<number | null>;
  recordFailure(key: string, now: number): Promise<void>;
  reset(key: string): Promise<void>;
}

interface Entry {
  failures: number;
  lastFailureAt: number;
}

/** Per instance: a load-balanced pair of instances each allow the schedule (see the decision record). */
export function memoryFailureCounters(max = 50_000): FailureCounters {
  // Bounded: a flood of made-up addresses evicts the oldest entries, never grows memory.
  const entries = new LRUCache<string, Entry>({ max });
  const live = (key: string, now: number): Entry | undefined => {
    const e = entries.get(key);
    if (e && now - e.lastFailureAt > FORGET_AFTER_MS) {
      entries.delete(key);
      return undefined;
    }
    return e;
  };
  return {
    async blockedUntil(key, now) {
      const e = live(key, now);
      if (!e) return null;
      const until = e.lastFailureAt + blockAfter(e.failures);
      return until > now ? until : null;
    },
    async recordFailure(key, now) {
      const e = live(key, now);
      entries.set(key, { failures: (e?.failures ?? 0) + 1, lastFailureAt: now });
    },
    async reset(key) {
      entries.delete(key);
    },
  };
}

/**
 * The client a sign-in comes from: an IPv4 address, or an IPv6 /64 (one household or server gets
 * a whole /64, so counting single IPv6 addresses would let one client try as many addresses).
 * Only a keyed hash of it is kept (the caller's `hash`), never the address.
 */
export function clientPrefix(ip: string): string {
  try {
    let addr = ipaddr.parse(ip);
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
    if (addr.kind() === 'ipv4') return addr.toString();
    const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
    return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
  } catch {
    return `unparsed:${ip}`;
  }
}
