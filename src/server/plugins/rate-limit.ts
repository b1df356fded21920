import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { clientNetwork } from '../lib/client-network.ts';
import { sharedOrLocalStore } from './rate-limit-store.ts';

/**
 * Rate limiting, available to every feature: a route opts in with `config.rateLimit`. Registered
 * once here, at the root, so features do not depend on each other's registration order. Counters
 * live in Redis when REDIS_URL is set (shared by every instance, with this instance's own counts
 * while Redis is out of reach), else in this process. A client is its IPv4 address or IPv6 /64,
 * counted under a keyed hash so neither memory nor Redis holds an address.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(rateLimit, {
      global: false,
      keyGenerator: (request) => app.keys.sign('rate-limit-client', clientNetwork(request.ip)),
      ...(app.redis ? { store: sharedOrLocalStore(app.redis) } : {}),
    });
  },
  {
    name: 'dh-rate-limit',
    fastify: '5.x',
    dependencies: ['dh-keys', 'dh-redis'],
    decorators: { fastify: ['keys', 'redis'] },
  },
);
