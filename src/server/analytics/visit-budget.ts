import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

/**
 * How many visits one client may have counted per minute. Beacons past it are still answered 204
 * (the page never waits or retries) but not counted. The in-memory budget below is per instance;
 * a shared one (Redis: INCR and EXPIRE on `budget:{minute}:{client}`) implements this same
 * interface, which is why `take` is async.
 */
export interface VisitBudget {
  /** Spends one of `client`'s visits for the minute `now` falls in; false when none is left. */
  take(client: string, now: Date): Promise<boolean>;
}

const MINUTE = 60_000;

/**
 * A fixed one-minute window per client, in an LRU of at most `maxClients` entries (about 100 bytes
 * each): a flood from more distinct clients than that only pushes out the oldest counters, so
 * memory stays bounded and the worst case is a client whose counter was pushed out starting again.
 */
export class MemoryVisitBudget implements VisitBudget {
  private readonly windows: LRUCache<string, { minute: number; used: number }>;

  constructor(
    private readonly perMinute: number,
    maxClients = 50_000,
  ) {
    this.windows = new LRUCache({ max: maxClients });
  }

  async take(client: string, now: Date): Promise<boolean> {
    const minute = Math.floor(now.getTime() / MINUTE);
    const entry = this.windows.get(client);
    // A beacon's work runs after its answer, so one from the end of a minute can arrive after the
    // next minute's first: it spends from the newer window rather than resetting it.
    if (!entry || minute > entry.minute) {
      this.windows.set(client, { minute, used: 1 });
      return true;
    }
    if (entry.used >= this.perMinute) return false;
    entry.used++;
    return true;
  }
}

/**
 * What counts as one client: an IPv4 address, or an IPv6 /64 (one home or phone usually gets a
 * whole /64 and can pick any address in it). IPv4 written as IPv6 (`::ffff:a.b.c.d`) is IPv4.
 * Anything unreadable is its own client.
 */
export function clientNetwork(address: string): string {
  try {
    const parsed = ipaddr.parse(address);
    if (parsed.kind() === 'ipv6') {
      const v6 = parsed as ipaddr.IPv6;
      if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
      return `${v6.parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
    }
    return parsed.toString();
  } catch {
    return address;
  }
}
