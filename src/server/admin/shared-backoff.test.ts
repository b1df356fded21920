import { afterEach, describe, expect, it } from 'vitest';
import { deleteRedisKeys, redisSkipReason, testRedisPrefix, testRedisUrl } from '../test/test-redis.ts';
import { openTwoInstances } from '../test/two-instances.ts';
import { ConsoleClient, makeOperator, PASSWORD } from './test-kit.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Failed sign-ins spread over two instances back off as if there were one: a guesser gains
// nothing from a load balancer sending their tries to different instances.
describe.skipIf(!testRedisUrl)(`sign-in back-off across instances${testRedisUrl ? '' : ` (${redisSkipReason})`}`, () => {
  it('refuses the sixth try at either instance after five failures spread over both', async () => {
    const prefix = testRedisPrefix();
    cleanups.push(() => deleteRedisKeys(prefix));
    const { a, b, store, clock, close } = await openTwoInstances({ REDIS_URL: testRedisUrl ?? '', REDIS_KEY_PREFIX: prefix, TRUST_PROXY: 'true' });
    cleanups.push(close);
    const op = await makeOperator(store.db, 'shared-backoff@example.com', clock());
    const from = { 'x-forwarded-for': '198.51.100.40' };
    const atA = new ConsoleClient(a.app, from);
    const atB = new ConsoleClient(b.app, from);

    const tries = [atA, atB, atA, atB, atA];
    for (const [i, client] of tries.entries()) expect((await client.password(op.email, `wrong password ${i}`)).statusCode).toBe(401);
    // Each instance has seen only two or three failures: alone, neither would refuse yet.
    for (const client of [atA, atB]) {
      const refused = await client.password(op.email, PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('30');
    }
    clock.advance(30_000);
    // A success at one instance clears the count for both.
    await atB.signIn(op, clock());
    expect((await atA.password(op.email, 'wrong once more')).statusCode).toBe(401);
    expect((await atA.password(op.email)).statusCode).toBe(200);
  });
});
