import type { FastifyRequest } from 'fastify';

/**
 * The origins that count as "our own site" for a request: the configured public address, and the
 * address this request reached us on (a second host name, or a test on 127.0.0.1). One definition
 * serves the write protection's Origin check and the consent record's "which page" alike.
 */
export function isOwnOrigin(origin: string, request: FastifyRequest, publicUrl: string): boolean {
  return origin === new URL(publicUrl).origin || origin === `${request.protocol}://${request.host}`;
}
