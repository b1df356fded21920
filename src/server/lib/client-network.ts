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
