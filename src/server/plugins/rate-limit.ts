import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Rate limiting, available to every feature: a route opts in with `config.rateLimit`. Registered
 * once here, at the root, so features do not depend on each other's registration order. Counters
 * live in this process (a shared store is a launch-day change).
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(rateLimit, { global: false });
  },
  { name: 'dh-rate-limit', fastify: '5.x' },
);
