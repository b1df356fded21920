import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { apiError, apiErrorSchema } from '../../shared/api-error.ts';
import { aliveReplySchema, readyReplySchema } from '../../shared/health-schema.ts';
import { apiPaths, healthPaths } from '../../shared/paths.ts';

export interface HealthOptions {
  /** Writes are refused (503) while the event loop lags more than this; 0 turns the check off. */
  maxEventLoopDelayMs: number;
  /** …or while the V8 heap holds more than this; 0 turns the check off. */
  maxHeapUsedBytes: number;
  /** How long /readyz waits for the store before it says "not ready". */
  readyTimeoutMs?: number;
}

const RETRY_AFTER_S = 5;

const isWrite = (request: FastifyRequest): boolean => request.method !== 'GET' && request.method !== 'HEAD';

/**
 * Overload and health. Past capacity (event-loop delay or heap over their thresholds, measured by
 * @fastify/under-pressure), writes answer 503 at once with Retry-After and a sentence, before any
 * body is read or any work is queued, while pages (served from memory) and reads go on: a visitor
 * still sees the page, and a sign-up is told plainly to try again rather than waiting to time
 * out. A beacon under pressure is answered 204 and not counted (the page never waits on it).
 * /healthz says the process is alive; /readyz whether it can serve: the store answers in time.
 * With REDIS_URL it also says whether Redis answers, but a Redis outage is not "not ready": limits
 * then count per instance and the site serves on (decision 0017).
 */
export const healthPlugin = fp(
  async (app: FastifyInstance, opts: HealthOptions) => {
    await app.register(underPressure, {
      maxEventLoopDelay: opts.maxEventLoopDelayMs,
      maxHeapUsedBytes: opts.maxHeapUsedBytes,
      // Answering here ends the request: Fastify runs no further hook for a sent reply. Reads
      // are left alone and go on as usual.
      pressureHandler: (request: FastifyRequest, reply: FastifyReply) => {
        if (!isWrite(request)) return;
        reply.header('cache-control', 'no-store');
        if (request.url === apiPaths.visit) {
          void reply.code(204).send();
          return;
        }
        void reply
          .code(503)
          .header('retry-after', String(RETRY_AFTER_S))
          .send(apiError('unavailable', `We are very busy right now. Please try again in ${RETRY_AFTER_S} seconds.`));
      },
    });

    /** Why the store is not ready, in words, or null when it answers in time. */
    async function databaseProblem(timeoutMs: number): Promise<string | null> {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), timeoutMs);
      });
      try {
        const answer = await Promise.race([sql`select 1 as one`.execute(app.store.db).then(() => 'ok' as const), late]);
        return answer === 'ok' ? null : `The database did not answer within ${timeoutMs / 1000} seconds`;
      } catch {
        return 'The database cannot be reached';
      } finally {
        clearTimeout(timer);
      }
    }

    /** Redis's part of the answer: absent without REDIS_URL, otherwise whether it answers. */
    async function redisReport(): Promise<{ redis?: 'answering' | 'unreachable'; note?: string }> {
      if (!app.redis) return {};
      if (await app.redis.answers()) return { redis: 'answering' };
      return { redis: 'unreachable', note: 'Redis cannot be reached: limits count per instance until it answers.' };
    }

    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(healthPaths.alive, { schema: { response: { 200: aliveReplySchema } } }, async (_request, reply) =>
      reply.header('cache-control', 'no-store').send({ status: 'alive' as const }),
    );
    api.get(
      healthPaths.ready,
      { schema: { response: { 200: readyReplySchema, 503: apiErrorSchema } } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        const [database, redis] = await Promise.all([databaseProblem(opts.readyTimeoutMs ?? 2000), redisReport()]);
        if (!database) return reply.send({ status: 'ready' as const, ...redis });
        const also = redis.redis === 'unreachable' ? ', and Redis cannot be reached either' : '';
        return reply.code(503).send(apiError('unavailable', `${database}${also}.`));
      },
    );
  },
  {
    name: 'dh-health',
    fastify: '5.x',
    dependencies: ['dh-store', 'dh-redis', 'dh-http-contract'],
    decorators: { fastify: ['store', 'redis'] },
  },
);
