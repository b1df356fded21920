import { normalizeIP } from '@fastify/rate-limit';

/**
 * What counts as one client for a limit: an IPv4 address, or an IPv6 /64 (a home, a phone or a
 * server is usually given a whole /64 and can pick any address in it, so counting single IPv6
 * addresses would give one client billions of tries). IPv4 written as IPv6 (`::ffff:a.b.c.d`) is
 * IPv4; anything unreadable is its own client. The rate limiter's own normalisation, so the
 * sign-up limit, the sign-in back-off and the beacon budget all count the same client. Callers
 * keep only a keyed hash of it, never the address.
 */
export const clientNetwork = (address: string): string => normalizeIP(address, 64);

/** The IPv6 prefix one network is when counting invites (inviteNetwork). */
export const INVITE_IPV6_PREFIX = 48;

/**
 * One network for counting invites: an IPv4 address, or an IPv6 /48. A free tunnel broker
 * (Hurricane Electric's, for one) hands anyone a routed /48 on request, i.e. 65,536 /64s, so an
 * invite farm on one tunnel would be 65,536 "networks" at /64. A /48 is what RIPE-690 and
 * ARIN advise giving one site, so grouping there costs a household nothing. Wider than
 * clientNetwork on purpose: an invite that does not count costs a person nothing, while a sign-in
 * or sign-up refused to a whole /48 would (docs/decisions/0063).
 */
export const inviteNetwork = (address: string): string => normalizeIP(address, INVITE_IPV6_PREFIX);
