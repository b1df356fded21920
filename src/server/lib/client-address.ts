import proxyAddr from '@fastify/proxy-addr';

// Whom a request comes from: Fastify's `request.ip`, with TRUST_PROXY compiled once into the
// trust function Fastify asks (@fastify/proxy-addr's, as Fastify compiles it).

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
