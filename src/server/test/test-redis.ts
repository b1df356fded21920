import { randomBytes } from 'node:crypto';
import net from 'node:net';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { redisPlugin, type SharedRedis } from '../plugins/redis.ts';

// Shared limits are tested against a real Redis when TEST_REDIS_URL is set (CI sets it). Other
// test runs may use the same server at once, so each test gets its own key prefix and deletes
// only its own keys. The server itself is never stopped: outages are a proxy the test closes.
export const testRedisUrl = process.env.TEST_REDIS_URL || undefined;

export const redisSkipReason = 'skipped: set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to run';

/** A key prefix no other test (or run) uses. */
export const testRedisPrefix = (): string => `dh-test:${randomBytes(6).toString('hex')}:`;

/** Deletes every key under `prefix` (only those) on the Redis at `url` (default: the tests' one). */
export async function deleteRedisKeys(prefix: string, url = testRedisUrl): Promise<void> {
  if (!url) return;
  const raw = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await raw.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await raw.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    raw.disconnect();
  }
}

/** A port nothing listens on: a Redis that is not there. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The app's Redis plugin on its own, for testing what is built on it: `redis` and its `close`. */
export async function openSharedRedis(
  url: string,
  prefix: string,
  /** The production default (REDIS_COMMAND_TIMEOUT_MS): the outage tests count on it. */
  commandTimeoutMs = 200,
): Promise<{ redis: SharedRedis; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  await app.register(redisPlugin, { url, keyPrefix: prefix, commandTimeoutMs });
  await app.ready();
  const redis = app.redis;
  if (!redis) throw new Error('The Redis plugin decorated nothing.');
  return { redis, close: () => app.close() };
}

/**
 * A TCP proxy in front of Redis that a test can cut (connections dropped, port refused: Redis is
 * gone), stall (connections stay open, nothing is forwarded: Redis hangs) and bring back.
 */
export class RedisOutageProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly clients = new Set<net.Socket>();
  private readonly upstreamOf = new WeakMap<net.Socket, net.Socket>();
  private stalled = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  static forUrl(url: string): RedisOutageProxy {
    const u = new URL(url);
    return new RedisOutageProxy({ host: u.hostname, port: Number(u.port || 6379) });
  }

  /** redis://127.0.0.1:<proxy port>, keeping the target URL's credentials and database. */
  urlFor(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  async start(): Promise<void> {
    this.stalled = false;
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      this.clients.add(client);
      this.sockets.add(client).add(upstream);
      this.upstreamOf.set(client, upstream);
      if (!this.stalled) client.pipe(upstream);
      upstream.pipe(client);
      for (const s of [client, upstream]) {
        s.on('error', () => undefined);
        s.on('close', () => {
          this.clients.delete(client);
          this.sockets.delete(client);
          this.sockets.delete(upstream);
          client.destroy();
          upstream.destroy();
        });
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Redis is gone: every connection is dropped and new ones are refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.clients.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Redis hangs: connections stay open, and what is sent waits (in order) until `restore`. */
  stall(): void {
    this.stalled = true;
    for (const c of this.clients) {
      const upstream = this.upstreamOf.get(c);
      if (upstream) c.unpipe(upstream);
    }
  }

  /** Redis is back on the same port. */
  async restore(): Promise<void> {
    if (this.server) {
      this.stalled = false;
      for (const c of this.clients) {
        const upstream = this.upstreamOf.get(c);
        if (upstream) c.pipe(upstream);
      }
      return;
    }
    await this.start();
  }
}
