import { afterEach, describe, expect, it } from 'vitest';
import { deleteRedisKeys, redisSkipReason, testRedisPrefix, testRedisUrl } from '../../test/test-redis.ts';
import { openTwoInstances } from '../../test/two-instances.ts';
import { codeAt, ConsoleClient, makeOperator, PASSWORD, wrongCodeAt } from '../../test/admin-kit.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two instances sharing a store and a Redis key prefix of their own, trusting X-Forwarded-For,
 * and an operator made in that store; all closed and deleted after the test. */
async function twoInstancesWithOperator(email: string) {
  const prefix = testRedisPrefix();
  cleanups.push(() => deleteRedisKeys(prefix));
  const two = await openTwoInstances({
    REDIS_URL: testRedisUrl ?? '',
    REDIS_KEY_PREFIX: prefix,
    TRUST_PROXY: 'true',
  });
  cleanups.push(two.close);
  return { ...two, op: await makeOperator(two.store.db, email, two.clock()) };
}

// Failed sign-ins spread over two instances back off as if there were one: a guesser gains
// nothing from a load balancer sending their tries to different instances.
describe.skipIf(!testRedisUrl)(
  `sign-in back-off across instances${testRedisUrl ? '' : ` (${redisSkipReason})`}`,
  () => {
    it('refuses the sixth try at either instance after five failures spread over both', async () => {
      const { a, b, clock, op } = await twoInstancesWithOperator('shared-backoff@example.com');
      const from = { 'x-forwarded-for': '198.51.100.40' };
      const atA = new ConsoleClient(a.app, from);
      const atB = new ConsoleClient(b.app, from);

      const tries = [atA, atB, atA, atB, atA];
      // (The pair, this address from this network, backs off after five; the network alone after 20.)
      for (const [i, client] of tries.entries())
        expect((await client.password(op.email, `wrong password ${i}`)).statusCode).toBe(401);
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

    it('lets the operator in from another network at once while an attacker fails 100 times at both instances; one alert', async () => {
      const { a, b, store, clock, lines, op } = await twoInstancesWithOperator('shared-alert@example.com');
      const attacker = { 'x-forwarded-for': '203.0.113.9' };
      const clients = [new ConsoleClient(a.app, attacker), new ConsoleClient(b.app, attacker)];
      const answers: number[] = [];
      for (let i = 0; i < 100; i++)
        answers.push((await (clients[i % 2] as ConsoleClient).password(op.email, `guess number ${i}`)).statusCode);
      expect(answers.filter((c) => c === 401)).toHaveLength(5);
      expect(answers.filter((c) => c === 429)).toHaveLength(95);
      // The real operator, another network, either instance: signed in at once.
      await new ConsoleClient(b.app, { 'x-forwarded-for': '198.51.100.200' }).signIn(op, clock());
      clock.advance(30_000); // a code is accepted once
      await new ConsoleClient(a.app, { 'x-forwarded-for': '198.51.100.201' }).signIn(op, clock());
      // Counted in Redis across both instances: exactly one alert, whichever instance saw the 50th try.
      const alerts = await store.db
        .selectFrom('audit_log')
        .select(['subject', 'detail'])
        .where('action', '=', 'sign-in.alert')
        .execute();
      expect(alerts).toEqual([
        { subject: op.email, detail: '50 failed or refused sign-ins within an hour, from any network' },
      ]);
      const warned = lines.filter((l) => l.includes('many failed sign-ins'));
      expect(warned).toHaveLength(1);
      expect(warned[0]).not.toContain(op.email);
    });

    it("holds an operator's authenticator codes at both instances after ten wrong ones spread over both and ten networks", async () => {
      const { a, b, store, clock, lines, op } = await twoInstancesWithOperator('shared-codes@example.com');
      const wrong = wrongCodeAt(op, clock());
      // Five wrong codes at each instance, each from a network of its own: alone, neither instance
      // would hold anything (it takes ten).
      for (let i = 0; i < 10; i++) {
        const c = new ConsoleClient(i % 2 ? b.app : a.app, { 'x-forwarded-for': `2001:db8:77:${i}::1` });
        expect((await c.password(op.email)).statusCode).toBe(200);
        expect((await c.code(wrong)).statusCode).toBe(400);
      }
      for (const [i, app] of [a.app, b.app].entries()) {
        const c = new ConsoleClient(app, { 'x-forwarded-for': `2001:db8:78:${i}::1` });
        expect((await c.password(op.email)).statusCode).toBe(200);
        const held = await c.code(codeAt(op, clock()));
        expect(held.statusCode).toBe(429);
        expect(held.json().error.message).toMatch(/^Codes from your authenticator app are paused/);
        // …and a recovery code still signs in, at either instance.
        const recovered = await c.recovery(op.recoveryCodes[i] ?? '');
        expect(recovered.statusCode, recovered.body).toBe(200);
      }
      const rows = await store.db
        .selectFrom('audit_log')
        .select('subject')
        .where('action', '=', 'sign-in.codes-held')
        .execute();
      expect(rows).toEqual([{ subject: op.email }]);
      expect(lines.filter((l) => l.includes('many wrong authenticator codes'))).toHaveLength(1);
    });
  },
);
