import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { healthPaths } from '../../../shared/paths.ts';
import type { TestApp } from '../../test/built-app.ts';
import {
  closedPort,
  deleteRedisKeys,
  RedisOutageProxy,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
} from '../../test/test-redis.ts';
import { openTwoInstances, readyzUntil } from '../../test/two-instances.ts';
import { postSignupJson, visitPage } from '../../test/visitor.ts';

// Launch day runs several instances behind one proxy: a limit must hold across them, and a Redis
// outage must cost the shared counting, never the sign-ups.

const LIMIT = 4;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two instances (test/two-instances.ts) with a sign-up helper: each sign-up is a new address from `ip`. */
async function twoInstances(env: Record<string, string> = {}) {
  const two = await openTwoInstances({ SIGNUP_RATE_LIMIT: String(LIMIT), TRUST_PROXY: 'true', ...env });
  cleanups.push(two.close);
  // Both instances share the store, so the page's cookies from one are good at the other.
  const visitor = await visitPage(two.a.app);
  two.clock.advance(5000);
  let n = 0;
  const signUp = (t: TestApp, ip: string): Promise<LightMyRequestResponse> =>
    postSignupJson(
      t.app,
      visitor,
      { name: 'Launch Day', email: `launch${++n}@example.com` },
      { 'x-forwarded-for': ip },
    );
  return { ...two, signUp };
}

const statuses = (responses: LightMyRequestResponse[]) => responses.map((r) => r.statusCode);

async function inOrder(steps: (() => Promise<LightMyRequestResponse>)[]): Promise<number[]> {
  const out: LightMyRequestResponse[] = [];
  for (const step of steps) out.push(await step());
  return statuses(out);
}

describe('without REDIS_URL', () => {
  it('counts the sign-up limit per instance: two instances each allow the full limit (as the README says)', async () => {
    const { a, b, signUp } = await twoInstances();
    const ip = '203.0.113.20';
    expect(await inOrder(Array.from({ length: LIMIT }, () => () => signUp(a, ip)))).toEqual([200, 200, 200, 200]);
    expect((await signUp(a, ip)).statusCode).toBe(429);
    expect((await signUp(b, ip)).statusCode).toBe(200);
  });
});

// Needs no Redis server: REDIS_URL names a port nothing listens on.
describe('with REDIS_URL where no Redis answers', () => {
  it('starts and takes sign-ups when Redis cannot be reached, limiting per instance, and says so in words', async () => {
    const { a, b, signUp, lines, store } = await twoInstances({
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      REDIS_KEY_PREFIX: testRedisPrefix(),
    });
    const ip = '203.0.113.22';
    expect(await inOrder(Array.from({ length: LIMIT + 1 }, () => () => signUp(a, ip)))).toEqual([
      200, 200, 200, 200, 429,
    ]);
    expect((await signUp(b, ip)).statusCode).toBe(200);
    expect(await store.db.selectFrom('subscribers').select('id').execute()).toHaveLength(LIMIT + 1);

    const ready = await a.app.inject({ url: healthPaths.ready });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'ready',
      redis: 'unreachable',
      note: 'Redis cannot be reached: limits count per instance until it answers.',
    });
    // Once per instance, in words: no stack, no repetition per request.
    const warnings = lines.filter((l) => l.includes('Redis cannot be reached'));
    expect(warnings).toHaveLength(2);
    expect(JSON.parse(warnings[0] ?? '{}')).toMatchObject({
      level: 40,
      msg: expect.stringMatching(
        /^Redis cannot be reached \(.+\); limits count per instance until it answers again\.$/,
      ),
    });
    expect(warnings.join('\n')).not.toMatch(/"stack"|\\n\s+at /);
  });
});

describe.skipIf(!testRedisUrl)(`with REDIS_URL${testRedisUrl ? '' : ` (${redisSkipReason})`}`, () => {
  const url = testRedisUrl ?? '';

  async function sharedPair(redisUrl = url) {
    const prefix = testRedisPrefix();
    cleanups.push(() => deleteRedisKeys(prefix));
    return twoInstances({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix });
  }

  it('holds the sign-up limit across two instances: the limit in total, not twice it', async () => {
    const { a, b, signUp } = await sharedPair();
    const ip = '203.0.113.21';
    const spread = Array.from({ length: LIMIT + 2 }, (_, i) => () => signUp(i % 2 === 0 ? a : b, ip));
    expect(await inOrder(spread)).toEqual([200, 200, 200, 200, 429, 429]);
    // Another client has its own count, and its IPv6 /64 is one client whatever the address.
    expect((await signUp(b, '2001:db8:5:6::1')).statusCode).toBe(200);
  });

  it('falls back to per-instance counts during an outage, and shares the counts again when Redis returns', async () => {
    const proxy = RedisOutageProxy.forUrl(url);
    await proxy.start();
    cleanups.push(() => proxy.cut());
    const { a, b, signUp, lines } = await sharedPair(proxy.urlFor(url));
    const ip = '203.0.113.23';
    // Shared: 3 of 4 spent (2 counted by A, 1 by B).
    expect(await inOrder([() => signUp(a, ip), () => signUp(a, ip), () => signUp(b, ip)])).toEqual([200, 200, 200]);

    await proxy.cut();
    // Redis is gone: sign-ups go on, each instance limiting by what it has counted itself
    // (A has seen 2, so allows 2 more; B has seen 1).
    expect(await inOrder([() => signUp(a, ip), () => signUp(a, ip), () => signUp(a, ip)])).toEqual([200, 200, 429]);
    expect((await signUp(b, ip)).statusCode).toBe(200);
    await readyzUntil(a, 'unreachable');

    await proxy.restore();
    await readyzUntil(a, 'answering');
    await readyzUntil(b, 'answering');
    // Shared again: Redis still holds 3 for this client, so one more is allowed in all, though
    // B by itself (2 seen) would allow two.
    expect(await inOrder([() => signUp(b, ip), () => signUp(b, ip)])).toEqual([200, 429]);
    expect(lines.filter((l) => l.includes('Redis answers again'))).toHaveLength(2);
  });

  it('answers from the instance within a moment when Redis hangs instead of going away', async () => {
    const proxy = RedisOutageProxy.forUrl(url);
    await proxy.start();
    cleanups.push(() => proxy.cut());
    const { a, signUp } = await sharedPair(proxy.urlFor(url));
    const ip = '203.0.113.24';
    expect((await signUp(a, ip)).statusCode).toBe(200);

    proxy.stall();
    const started = Date.now();
    expect(await inOrder([() => signUp(a, ip), () => signUp(a, ip), () => signUp(a, ip), () => signUp(a, ip)])).toEqual(
      [200, 200, 200, 429],
    );
    // A hung Redis is waited on for its 200 ms command timeout at most, never for seconds (how
    // often it is tried while it hangs is shared-or-local.test.ts's business).
    expect(Date.now() - started).toBeLessThan(3000);
    await readyzUntil(a, 'unreachable');

    await proxy.restore();
    await readyzUntil(a, 'answering');
  });
});
