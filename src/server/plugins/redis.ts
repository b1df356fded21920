import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { errorText } from '../lib/log-safe.ts';
import { type RunOptions, SharedOrLocal, type SharedStore } from '../lib/shared-or-local.ts';

/**
 * What several instances must count together (rate limits, the sign-in back-off, the beacon
 * budget) lives in Redis when REDIS_URL is set. Each feature keeps its in-memory implementation
 * and asks `orLocal` for the shared answer (a count kept in both places follows spendBoth and
 * writeBoth in lib/shared-or-local.ts): a Redis that is down or slow costs a request at most
 * REDIS_COMMAND_TIMEOUT_MS (200 ms) once, then limits count per instance until Redis answers again
 * (docs/decisions/0017-shared-limits-redis.md).
 */
export interface SharedRedis extends SharedStore {
  /** Every key it writes starts with REDIS_KEY_PREFIX. */
  readonly client: Redis;
  /**
   * Redis's answer when it gives one in time (merged with `local`'s by `opts.merge`), else
   * `local`'s; an outage is logged once. A counter Redis holds but that is not a number (or a key
   * of the wrong type) is neither: it gives `opts.unreadable()`, blocked.
   */
  orLocal<T>(shared: () => Promise<T>, local: () => T | Promise<T>, opts?: RunOptions<T>): Promise<T>;
  /** A Lua script run atomically on one key (loaded once, then called by its hash). */
  script<T>(name: string, lua: string): (key: string, ...args: (string | number)[]) => Promise<T>;
  /** Whether Redis answers a PING now (for /readyz). */
  answers(): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** null without REDIS_URL: every limit counts in this process. */
    redis: SharedRedis | null;
  }
}

/**
 * Redis answered, with an error about the value a key holds: a key of another type (WRONGTYPE),
 * or a value INCR, HINCRBY or a script's arithmetic cannot read as a number. Connection errors,
 * timeouts and every other reply error are outages instead.
 */
export function isUnreadableReply(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'ReplyError') return false;
  return /WRONGTYPE|not an integer|not a valid float|overflow|attempt to (compare|perform arithmetic)/i.test(
    error.message,
  );
}

/** At start, and for each reconnection attempt, how long to wait for Redis to accept the connection. */
const CONNECT_TIMEOUT_MS = 1000;

export interface RedisOptions {
  url: string | undefined;
  keyPrefix: string;
  /** A request waits at most this long for Redis before it is answered from this instance's counts. */
  commandTimeoutMs: number;
}

export const redisPlugin = fp(
  async (app: FastifyInstance, opts: RedisOptions) => {
    if (!opts.url) {
      app.decorate('redis', null);
      return;
    }
    const client = new Redis(opts.url, {
      keyPrefix: opts.keyPrefix,
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: opts.commandTimeoutMs,
      // A command while disconnected fails at once (and the caller counts locally) instead of
      // waiting in a queue; one that went unanswered is not sent again after a reconnection,
      // where it would count a request twice.
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 1,
      // Reconnect for ever, at most every 2 s.
      retryStrategy: (times) => Math.min(times * 100, 2000),
      // Commands issued in the same turn of the event loop (the requests one socket read brought
      // in) go out in one write and come back in one read: a burst's limit checks share round
      // trips instead of each paying its own system calls (docs/decisions/0047).
      enableAutoPipelining: true,
    });

    let closing = false;
    const guard = new SharedOrLocal({
      onDown: (reason) =>
        app.log.warn(`Redis cannot be reached (${reason}); limits count per instance until it answers again.`),
      onUp: (ms) =>
        app.log.info(`Redis answers again after ${Math.round(ms / 1000)} s; limits are shared across instances again.`),
      isUnreadable: isUnreadableReply,
      onUnreadable: (reason) =>
        app.log.error(
          `Redis holds a limit counter that is not a number (${reason}); what it limits is refused until the key expires or is deleted.`,
        ),
    });
    // Without a listener ioredis prints every failed reconnection with its stack.
    client.on('error', (error: unknown) => {
      if (!closing) guard.markDown(errorText(error));
    });
    client.on('close', () => {
      if (!closing) guard.markDown('the connection closed');
    });
    client.on('ready', () => guard.markUp());

    // The app starts whatever Redis does: wait a moment for the first connection so the first
    // requests share their counts, and otherwise go on (the warning above says so, in words).
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('ready', done);
        client.off('error', done);
        resolve();
      };
      const timer = setTimeout(() => {
        guard.markDown(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`);
        done();
      }, CONNECT_TIMEOUT_MS + 200);
      client.once('ready', done);
      client.once('error', done);
    });

    const defined = new Set<string>();
    const shared: SharedRedis = {
      client,
      orLocal: (sharedOp, local, opts) => guard.run(sharedOp, local, opts),
      script<T>(name: string, lua: string) {
        if (!defined.has(name)) {
          client.defineCommand(name, { numberOfKeys: 1, lua });
          defined.add(name);
        }
        // defineCommand adds a method by that name at run time, which ioredis's types cannot know.
        const command = (
          client as unknown as Record<string, (key: string, ...args: (string | number)[]) => Promise<T>>
        )[name];
        if (!command) throw new Error(`The Redis script ${name} was not defined.`);
        return (key, ...args) => command.call(client, key, ...args);
      },
      answers: () =>
        client.ping().then(
          () => true,
          () => false,
        ),
    };
    app.decorate('redis', shared);

    app.addHook('onClose', async () => {
      closing = true;
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    });
  },
  { name: 'dh-redis', fastify: '5.x' },
);
