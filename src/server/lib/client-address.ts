import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

// Whom a request comes from, worked out once for Fastify's `request.ip` and for the fast paths
// that answer before Fastify (decision 0052): the same trust function, and the same library
// Fastify asks with it (@fastify/proxy-addr), so both read the same client from the same request.

/** Which hops are trusted proxies: none, all, the N nearest, or the addresses/CIDRs listed. */
export type TrustProxy = boolean | number | string;

export type TrustFn = (address: string, hop: number) => boolean;

/**
 * The value for Fastify's `trustProxy`: false as it is (Fastify then reads the socket's address),
 * anything else as a function. A hop count N trusts the N nearest proxies; Fastify's own reading of
 * a number trusts none, and its types take a count only as a function. A list is compiled as
 * Fastify would compile it, once.
 */
export function trustProxyFn(option: TrustProxy): false | TrustFn {
  if (option === false) return false;
  if (option === true) return () => true;
  if (typeof option === 'number') return (_address, hop) => hop < option;
  return proxyAddr.compile(option.split(',').map((v) => v.trim()));
}

/** The client's address as Fastify's `request.ip` gives it; undefined once the socket is gone. */
export function clientAddress(req: IncomingMessage, trust: false | TrustFn): string | undefined {
  if (trust === false) return req.socket.remoteAddress;
  // proxy-addr starts from the socket's address; without one there is nobody to name.
  if (req.socket.remoteAddress === undefined) return undefined;
  return proxyAddr(req, trust);
}
