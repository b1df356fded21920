import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../store/database.ts';
import { buildTestApp } from '../../test/built-app.ts';
import { deleteRedisKeys, redisSkipReason, testRedisPrefix, testRedisUrl } from '../../test/test-redis.ts';
import { openTestStore, testPostgresUrl } from '../../test/test-store.ts';
import { openTwoInstances } from '../../test/two-instances.ts';
import { postSignupJson, visitPage } from '../../test/visitor.ts';
import { type WireCounter, wireCounterFor } from '../../test/wire-counter.ts';

// What one sign-up asks of Redis and of PostgreSQL, counted on the wire (test/wire-counter.ts):
// with several instances these round trips are most of what a sign-up costs beyond one instance
// (docs/decisions/0047). A change that adds one fails here.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function counter(protocol: 'redis' | 'postgres', url: string): Promise<WireCounter> {
  const c = await wireCounterFor(protocol, url);
  cleanups.push(() => c.close());
  return c;
}

describe.skipIf(!testRedisUrl)(`Redis per sign-up${testRedisUrl ? '' : ` (${redisSkipReason})`}`, () => {
  it('is one command (the rate limit, one script) per sign-up, and none for a client Redis refused already', async () => {
    const redis = await counter('redis', testRedisUrl ?? '');
    const prefix = testRedisPrefix();
    cleanups.push(() => deleteRedisKeys(prefix));
    const two = await openTwoInstances({
      REDIS_URL: redis.urlFor(testRedisUrl ?? ''),
      REDIS_KEY_PREFIX: prefix,
      SIGNUP_RATE_LIMIT: '4',
      TRUST_PROXY: 'true',
    });
    cleanups.push(two.close);
    const visitor = await visitPage(two.a.app);
    two.clock.advance(5000);
    let n = 0;
    const signUp = (app: typeof two.a.app, ip: string) =>
      postSignupJson(app, visitor, { name: 'Count', email: `count${++n}@example.com` }, { 'x-forwarded-for': ip });
    // Each connection sends a script's text once (EVAL), then its hash (EVALSHA).
    for (const t of [two.a, two.b]) expect((await signUp(t.app, '198.51.100.1')).statusCode).toBe(200);

    redis.reset();
    const many = await Promise.all(Array.from({ length: 12 }, (_, i) => signUp(two.a.app, `198.51.100.${10 + i}`)));
    expect(many.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    expect(redis.counts().requests).toBe(12);
    expect(Object.fromEntries(redis.counts().byName)).toEqual({ evalsha: 12 });

    // One client over the limit: Redis is asked until it says so, then each instance remembers
    // it for the rest of Redis's window.
    redis.reset();
    const flood = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signUp(two.a.app, flood)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429, 429, 429]);
    expect(redis.counts().requests).toBe(5);
    // The other instance shares the count: its first ask is refused, the rest from its memory.
    const atB: number[] = [];
    for (let i = 0; i < 3; i++) atB.push((await signUp(two.b.app, flood)).statusCode);
    expect(atB).toEqual([429, 429, 429]);
    expect(redis.counts().requests).toBe(6);
    // A refusal from memory says when to come back, as Redis's did.
    const refused = await signUp(two.a.app, flood);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  });
});

describe.skipIf(!testPostgresUrl)(
  `PostgreSQL per sign-up${testPostgresUrl ? '' : ' (skipped: set TEST_POSTGRES_URL to run)'}`,
  () => {
    it('is two round trips per batch of new addresses (one read, one write that commits by itself), however many sign-ups it holds', async () => {
      const base = await openTestStore('postgres');
      cleanups.push(() => base.destroy());
      const pg = await counter('postgres', base.url);
      const counted = await openStore(pg.urlFor(base.url), base.pgSchema ? { pgSchema: base.pgSchema } : {});
      const t = await buildTestApp({
        env: { SIGNUP_RATE_LIMIT: '1000' },
        store: {
          ...counted,
          url: base.url,
          ...(base.pgSchema ? { pgSchema: base.pgSchema } : {}),
          destroy: counted.close,
        },
      });
      cleanups.push(async () => {
        await t.close();
        await counted.close();
      });
      const visitor = await visitPage(t.app);
      t.clock.advance(5000);
      let n = 0;
      const signUp = () => postSignupJson(t.app, visitor, { name: 'Count', email: `pg${++n}@example.com` });

      pg.reset();
      let batches = t.app.committer.batches;
      expect((await signUp()).statusCode).toBe(200);
      expect(t.app.committer.batches - batches).toBe(1);
      expect(pg.counts().requests).toBe(2);

      pg.reset();
      batches = t.app.committer.batches;
      const all = await Promise.all(Array.from({ length: 30 }, signUp));
      expect(all.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
      const ran = t.app.committer.batches - batches;
      expect(ran).toBeLessThan(30);
      expect(pg.counts().requests).toBe(2 * ran);
      const rows = await base.db.selectFrom('outbox').select('id').execute();
      expect(rows).toHaveLength(31);

      // A known address has more than one statement to write: they get a transaction of their
      // own (BEGIN, the UPDATE, COMMIT) after the read. A confirmed one is only read.
      pg.reset();
      expect((await postSignupJson(t.app, visitor, { name: 'Again', email: 'pg1@example.com' })).statusCode).toBe(200);
      expect(pg.counts().requests).toBe(4);
      await base.db
        .updateTable('subscribers')
        .set({ status: 'confirmed' })
        .where('email_key', '=', 'pg2@example.com')
        .execute();
      pg.reset();
      expect((await postSignupJson(t.app, visitor, { name: 'Other', email: 'pg2@example.com' })).statusCode).toBe(200);
      expect(pg.counts().requests).toBe(1);
      const kept = await base.db
        .selectFrom('subscribers')
        .select(['email_key', 'name'])
        .where('email_key', 'in', ['pg1@example.com', 'pg2@example.com'])
        .orderBy('email_key')
        .execute();
      expect(kept).toEqual([
        { email_key: 'pg1@example.com', name: 'Again' },
        { email_key: 'pg2@example.com', name: 'Count' },
      ]);

      // The confirmations' claims, tokens and marks go through the app's one committer, as the
      // sign-ups do (decision 0061: a second committer for the mail made p99 worse).
      const before = t.app.committer.batches;
      await t.app.jobs.runOnce('outbox');
      expect(t.app.committer.batches).toBeGreaterThan(before);
      const outcomes = await base.db
        .selectFrom('outbox')
        .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
        .groupBy('status')
        .orderBy('status')
        .execute();
      // pg2 was confirmed before its email left: that one is cancelled.
      expect(outcomes.map((o) => [o.status, Number(o.n)])).toEqual([
        ['cancelled', 1],
        ['sent', 30],
      ]);

      // One confirmation on its own, as a worker sending one at a time sends it: two passes of the
      // worker, each a claim (BEGIN, other kinds, broadcast rows, COMMIT), the second finding
      // nothing; the subscriber's read; the token, one UPDATE without BEGIN and COMMIT (decision
      // 0053: three round trips before); the suppression check; the mark (BEGIN, UPDATE, COMMIT).
      expect((await postSignupJson(t.app, visitor, { name: 'One', email: 'one@example.com' })).statusCode).toBe(200);
      pg.reset();
      await t.app.jobs.runOnce('outbox');
      expect(pg.counts().requests).toBe(14);
      const one = await base.db
        .selectFrom('outbox')
        .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
        .select(['outbox.status', 'outbox.token_hash'])
        .where('subscribers.email_key', '=', 'one@example.com')
        .executeTakeFirstOrThrow();
      expect(one.status).toBe('sent');
      expect(one.token_hash).not.toBeNull();
    });
  },
);

describe('SQLite per sign-up', () => {
  it("shares the sign-ups' committer with the confirmations' claims, tokens and marks", async () => {
    const t = await buildTestApp({ env: { SIGNUP_RATE_LIMIT: '1000' } });
    cleanups.push(() => t.close());
    const visitor = await visitPage(t.app);
    t.clock.advance(5000);
    const signedUp = t.app.committer.batches;
    expect((await postSignupJson(t.app, visitor, { name: 'Lite', email: 'lite@example.com' })).statusCode).toBe(200);
    expect(t.app.committer.batches).toBe(signedUp + 1);
    const before = t.app.committer.batches;
    await t.app.jobs.runOnce('outbox');
    expect(t.app.committer.batches).toBeGreaterThan(before);
    const row = await t.store.db.selectFrom('outbox').select(['status', 'token_hash']).executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
    expect(row.token_hash).not.toBeNull();
  });
});
