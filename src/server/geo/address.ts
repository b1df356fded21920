import ipaddr from 'ipaddr.js';

/**
 * A visitor address that may be geolocated: public unicast only. Everything a location database
 * could only answer wrongly for (private, loopback, link-local, CGNAT, multicast, documentation,
 * benchmarking, anycast sinks, Teredo relays, …) never gets this far.
 */
export type PublicAddress =
  | { version: 4; text: string; value: number }
  | { version: 6; text: string; words: readonly [number, number, number, number] };

// The longest IPv6 text form (with an embedded dotted quad) is 45 characters; anything much
// longer is not an address and is not worth handing to a parser.
const MAX_INPUT_LENGTH = 64;

/** Returns the address to look up, or null when there is nothing honest to look up. Never throws. */
export function toPublicAddress(input: unknown): PublicAddress | null {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_INPUT_LENGTH) return null;
  try {
    if (input.includes(':')) {
      const v6 = ipaddr.IPv6.parse(input);
      // A zone index only means something on the host that received the packet.
      if (v6.zoneId !== undefined) return null;
      return fromIPv6(v6);
    }
    // Only the plain dotted quad: ipaddr.js (like inet_aton) also reads "127.1" or "0x7f.0.0.1",
    // and a header carrying those is not a real client address.
    if (!ipaddr.IPv4.isValidFourPartDecimal(input)) return null;
    return fromIPv4(ipaddr.IPv4.parse(input));
  } catch {
    return null;
  }
}

function fromIPv4(addr: ipaddr.IPv4): PublicAddress | null {
  // ipaddr.js names every special-purpose block (RFC 6890 and successors); only what is left,
  // "unicast", belongs to someone a database can locate.
  if (addr.range() !== 'unicast') return null;
  const [a = 0, b = 0, c = 0, d = 0] = addr.octets;
  return { version: 4, text: addr.toString(), value: ((a << 24) | (b << 16) | (c << 8) | d) >>> 0 };
}

function fromIPv6(addr: ipaddr.IPv6): PublicAddress | null {
  const p = addr.parts;
  switch (addr.range()) {
    case 'unicast': {
      // IANA has handed out global unicast only from 2000::/3; the rest of "unicast" is
      // unassigned space that no real visitor comes from.
      if (((p[0] ?? 0) & 0xe000) !== 0x2000) return null;
      const w = (i: number) => (((p[i] ?? 0) << 16) | (p[i + 1] ?? 0)) >>> 0;
      return { version: 6, text: addr.toString(), words: [w(0), w(2), w(4), w(6)] };
    }
    // These carry the visitor's IPv4 address inside; dual-stack sockets report IPv4 clients as
    // ::ffff:a.b.c.d, so this is the common case.
    case 'ipv4Mapped':
    case 'rfc6145':
      return fromEmbedded(p[6], p[7]);
    case 'rfc6052':
      // Only the well-known NAT64 prefix 64:ff9b::/96; 64:ff9b:1::/48 is for local use.
      return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? fromEmbedded(p[6], p[7]) : null;
    case '6to4':
      return fromEmbedded(p[1], p[2]);
    default:
      return null;
  }
}

function fromEmbedded(hi: number | undefined, lo: number | undefined): PublicAddress | null {
  if (hi === undefined || lo === undefined) return null;
  return fromIPv4(new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]));
}
