import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminApiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import {
  closedPort,
  deleteRedisKeys,
  openSharedRedis,
  redisSkipReason,
  testRedisPrefix,
  testRedisUrl,
} from '../../test/test-redis.ts';
import {
  addressAlertPolicy,
  blockAfter,
  laterBlock,
  memoryFailureCounters,
  networkPolicy,
  redisFailureCounters,
  sharedOrLocalFailureCounters,
  type FailureCounters,
} from './sign-in-backoff.ts';
import { isUnreadableReply, type SharedRedis } from '../../plugins/redis.ts';
import { codeAt, ConsoleClient, makeOperator, PASSWORD, type TestOperator } from '../../test/admin-kit.ts';

describe('the back-off schedule', () => {
  it('allows five failures, then 30 s doubling up to 16 minutes', () => {
    expect([1, 2, 3, 4].map(blockAfter)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10, 11, 20].map((n) => blockAfter(n) / 1000)).toEqual([
      30, 60, 120, 240, 480, 960, 960, 960,
    ]);
  });

  it('gives a client network 20 free failures, and an address from every network only an alert past 50 in an hour', () => {
    expect([19, 20, 21].map((n) => networkPolicy.blockAfter(n) / 1000)).toEqual([0, 30, 60]);
    expect([49, 50, 500].map((n) => addressAlertPolicy.blockAfter(n) / 60_000)).toEqual([0, 60, 60]);
    expect(addressAlertPolicy.forgetAfterMs).toBe(3600_000);
  });
});

// The same contract for both stores: the routes cannot tell which one they were given.
const stores = [
  {
    label: 'in memory',
    skip: false,
    open: async () => ({ counters: memoryFailureCounters(), close: async () => undefined }),
  },
  {
    label: testRedisUrl ? 'in Redis' : `in Redis (${redisSkipReason})`,
    skip: !testRedisUrl,
    open: async () => {
      const prefix = testRedisPrefix();
      const shared = await openSharedRedis(testRedisUrl ?? '', prefix);
      return {
        counters: redisFailureCounters(shared.redis),
        close: async () => {
          await shared.close();
          await deleteRedisKeys(prefix);
        },
      };
    },
  },
  {
    label: testRedisUrl ? 'in Redis with the local fallback' : `in Redis with the local fallback (${redisSkipReason})`,
    skip: !testRedisUrl,
    open: async () => {
      const prefix = testRedisPrefix();
      const shared = await openSharedRedis(testRedisUrl ?? '', prefix);
      return {
        counters: sharedOrLocalFailureCounters(shared.redis),
        close: async () => {
          await shared.close();
          await deleteRedisKeys(prefix);
        },
      };
    },
  },
  {
    // Needs no Redis server: the fallback alone must keep the schedule.
    label: 'in Redis with the local fallback, while Redis cannot be reached',
    skip: false,
    open: async () => {
      const shared = await openSharedRedis(`redis://127.0.0.1:${await closedPort()}`, testRedisPrefix());
      return { counters: sharedOrLocalFailureCounters(shared.redis), close: shared.close };
    },
  },
];

for (const { label, skip, open } of stores) {
  describe(`failure counters ${label}`, () => {
    let c: FailureCounters;
    let close: () => Promise<void>;
    beforeAll(async () => {
      if (skip) return;
      ({ counters: c, close } = await open());
    });
    afterAll(() => close?.());

    it.skipIf(skip)('lets a key try while it has failures left, then blocks it for 30 s from its fifth', async () => {
      expect(await c.blockedUntil('fresh', 0)).toBeNull();
      for (let i = 0; i < 4; i++) await c.recordFailure('four', 1000);
      expect(await c.blockedUntil('four', 1000)).toBeNull();
      await c.recordFailure('four', 2000);
      expect(await c.blockedUntil('four', 2000)).toBe(32_000);
      expect(await c.blockedUntil('four', 32_000)).toBeNull();
      expect(await c.blockedUntil('another', 2000)).toBeNull();
    });

    it.skipIf(skip)('forgets a key at reset, and a day after its last failure', async () => {
      for (let i = 0; i < 5; i++) await c.recordFailure('k', 0);
      expect(await c.blockedUntil('k', 1000)).toBe(30_000);
      await c.reset('k');
      expect(await c.blockedUntil('k', 1000)).toBeNull();
      for (let i = 0; i < 5; i++) await c.recordFailure('k', 0);
      expect(await c.blockedUntil('k', 24 * 3600_000 + 1)).toBeNull();
      await c.recordFailure('k', 24 * 3600_000 + 1);
      expect(await c.blockedUntil('k', 24 * 3600_000 + 2)).toBeNull();
    });

    it.skipIf(skip)('counts every failure recorded at once (two instances failing together lose none)', async () => {
      const counts = await Promise.all(Array.from({ length: 7 }, () => c.recordFailure('burst', 5000)));
      expect(counts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      // The seventh failure blocks for 30 s × 2² = 120 s.
      expect(await c.blockedUntil('burst', 5000)).toBe(125_000);
    });

    it.skipIf(skip)('takes exactly the five free tries of fifty taken at once (issue 38)', async () => {
      const takes = await Promise.all(Array.from({ length: 50 }, () => c.take('race', 7000)));
      const taken = takes.flatMap((t) => ('taken' in t ? [t.taken.failures] : []));
      expect(taken.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
      expect(takes.filter((t) => 'until' in t)).toEqual(Array(45).fill({ until: 37_000 }));
      // Past the block, one more try (the sixth) is taken, then 60 s.
      expect(await c.take('race', 37_000)).toMatchObject({ taken: { failures: 6, at: 37_000 } });
      expect(await c.take('race', 37_001)).toEqual({ until: 97_000 });
    });

    it.skipIf(skip)(
      'gives a try back: the count falls, and the last try’s time goes back to the one before',
      async () => {
        await c.recordFailure('back', 1000);
        for (let i = 0; i < 3; i++) await c.recordFailure('back', 2000);
        const fifth = await c.take('back', 3000);
        if (!('taken' in fifth)) throw new Error('the fifth try should be free');
        expect(await c.blockedUntil('back', 3000)).toBe(33_000);
        await c.giveBack('back', fifth.taken);
        expect(await c.blockedUntil('back', 3000)).toBeNull();
        // Four failures, the last at 2000: a fifth at 2000 would block until 32 s.
        expect(await c.recordFailure('back', 2000)).toBe(5);
        expect(await c.blockedUntil('back', 2000)).toBe(32_000);
        // A try given back after others were taken: only the count falls.
        await c.reset('back');
        const first = await c.take('back', 1000);
        await c.take('back', 2000);
        if (!('taken' in first)) throw new Error('free');
        await c.giveBack('back', first.taken);
        for (let i = 0; i < 4; i++) await c.recordFailure('back', 2000);
        expect(await c.blockedUntil('back', 2000)).toBe(32_000);
        // The only try given back: nothing is left.
        await c.reset('back');
        const only = await c.take('back', 1000);
        if (!('taken' in only)) throw new Error('free');
        await c.giveBack('back', only.taken);
        for (let i = 0; i < 4; i++) await c.recordFailure('back', 1000);
        expect(await c.blockedUntil('back', 1000)).toBeNull();
      },
    );
  });
}

describe('the merge rule', () => {
  it('takes the later block; null is no block', () => {
    expect(laterBlock(null, null)).toBeNull();
    expect(laterBlock(5, null)).toBe(5);
    expect(laterBlock(null, 9)).toBe(9);
    expect(laterBlock(30_000, 60_000)).toBe(60_000);
    expect(laterBlock(60_000, 30_000)).toBe(60_000);
  });
});

describe.skipIf(!testRedisUrl)(`garbage in Redis fails closed${testRedisUrl ? '' : ` (${redisSkipReason})`}`, () => {
  let shared: { redis: SharedRedis; close(): Promise<void> };
  let prefix: string;
  beforeAll(async () => {
    prefix = testRedisPrefix();
    shared = await openSharedRedis(testRedisUrl ?? '', prefix);
  });
  afterAll(async () => {
    await shared?.close();
    await deleteRedisKeys(prefix);
  });

  it('blocks a key whose counter is not a number, or not a hash, and keeps blocking while it stays so', async () => {
    const c = sharedOrLocalFailureCounters(shared.redis);
    await shared.redis.client.hset('sign-in-backoff:text', 'failures', 'lots', 'last', '1000');
    await shared.redis.client.hset('sign-in-backoff:half', 'failures', '9');
    await shared.redis.client.set('sign-in-backoff:string', 'garbage');
    for (const key of ['text', 'half', 'string']) {
      expect(await c.blockedUntil(key, 10_000), key).toBe(40_000);
      await c.recordFailure(key, 10_000);
      // Still blocked (a half-written hash is completed by the failure, at its own count).
      expect(await c.blockedUntil(key, 50_000), key).toBeGreaterThanOrEqual(80_000);
    }
    // Taking a try from such a key is refused the same way, and takes nothing from this instance.
    for (const key of ['text', 'half', 'string']) expect(await c.take(key, 60_000), key).toHaveProperty('until');
    // A clean key beside them is untouched, and Redis is not taken for down.
    expect(await c.blockedUntil('clean', 10_000)).toBeNull();
    await c.recordFailure('clean', 10_000);
    expect(await shared.redis.client.hget('sign-in-backoff:clean', 'failures')).toBe('1');
  });

  it("reads Redis's own complaints about a value as unreadable (the rate limits' INCR), and an outage as an outage", async () => {
    await shared.redis.client.set('rate-limit:garbage', 'not a count');
    const incr = shared.redis.client.incr('rate-limit:garbage');
    await expect(incr).rejects.toSatisfy(isUnreadableReply);
    await shared.redis.client.set('rate-limit:hash', '1');
    await expect(shared.redis.client.hincrby('rate-limit:hash', 'n', 1)).rejects.toSatisfy(isUnreadableReply);
    const blocked = await shared.redis.orLocal(
      () => shared.redis.client.incr('rate-limit:garbage'),
      () => 1,
      { unreadable: () => Infinity },
    );
    expect(blocked).toBe(Infinity);
    expect(isUnreadableReply(new Error('Command timed out'))).toBe(false);
  });

  it("keeps this instance's block when Redis lost the count (the larger wins)", async () => {
    const c = sharedOrLocalFailureCounters(shared.redis);
    for (let i = 0; i < 5; i++) await c.recordFailure('lost', 1000);
    expect(await c.blockedUntil('lost', 1000)).toBe(31_000);
    await shared.redis.client.del('sign-in-backoff:lost');
    expect(await c.blockedUntil('lost', 2000)).toBe(31_000);
  });
});

describe('failed sign-ins back off (server)', () => {
  let t: TestApp;
  let op: TestOperator;
  let n = 0;
  const lines: string[] = [];
  // One app (the machine is shared and busy); each test has its own operator and client addresses.
  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    t = await buildTestApp({ env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' }, logStream });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    op = await makeOperator(t.store.db, `backoff${++n}@example.com`, t.clock());
  });

  const from = (ip: string) => new ConsoleClient(t.app, { 'x-forwarded-for': ip });

  it('refuses an address from one network for 30 s after 5 failures, even with the right password, then 60 s after the next', async () => {
    const a = from('198.51.100.10');
    for (let i = 0; i < 5; i++) expect((await a.password(op.email, `wrong password ${i}`)).statusCode).toBe(401);
    // The same network, another browser, the right password: the pair is backing off, decided
    // before any hash.
    const b = from('198.51.100.10');
    const refused = await b.password(op.email, PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.json()).toEqual({
      error: { code: 'rate_limited', message: 'Too many failed tries. Please wait 30 seconds and try again.' },
    });
    t.clock.advance(20_000);
    expect((await b.password(op.email)).headers['retry-after']).toBe('10');

    t.clock.advance(10_000);
    expect((await b.password(op.email, 'wrong again')).statusCode).toBe(401);
    const next = await b.password(op.email);
    expect(next.statusCode).toBe(429);
    expect(next.headers['retry-after']).toBe('60');
    t.clock.advance(60_000);
    // The right password and code sign in, and clear the count.
    await b.signIn(op, t.clock());
    expect((await b.password(op.email, 'wrong')).statusCode).toBe(401);
  });

  it('caps the wait at 16 minutes', async () => {
    const a = from('198.51.100.12');
    for (let i = 0; i < 4; i++) await a.password(op.email, 'wrong password!!');
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      expect((await a.password(op.email, 'wrong password!!')).statusCode).toBe(401);
      const refused = await a.password(op.email, 'wrong password!!');
      waits.push(Number(refused.headers['retry-after']));
      t.clock.advance((waits.at(-1) ?? 0) * 1000);
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 960, 960]);
  });

  it('refuses a client network after 20 failures whatever addresses it tries, and its whole IPv6 /64', async () => {
    const a = from('2001:db8:5:6::1');
    for (let i = 0; i < 19; i++)
      expect((await a.password(`guess${i}@example.com`, 'whatever whatever')).statusCode).toBe(401);
    expect((await a.password(op.email)).statusCode).toBe(200);
    expect((await a.password('guess-last@example.com', 'whatever whatever')).statusCode).toBe(401);
    expect((await a.password(op.email)).statusCode).toBe(429);
    expect((await from('2001:db8:5:6::ffff').password(op.email)).statusCode).toBe(429);
    expect((await from('2001:db8:5:7::1').password(op.email)).statusCode).toBe(200);
  });

  it('counts wrong codes at the second step too', async () => {
    const a = from('198.51.100.13');
    await a.password(op.email);
    for (let i = 0; i < 4; i++) expect((await a.code('000000')).statusCode).toBe(400);
    // The fifth ends this sign-in; the password step again is backing off for the pair.
    expect((await a.code('000000')).statusCode).toBe(401);
    const refused = await a.password(op.email);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(30);
  });

  it('never lets strangers lock the operator out: 100 tries from one network, the operator signs in from another at once, an alert', async () => {
    const attacker = from('203.0.113.66');
    const answers: number[] = [];
    for (let i = 0; i < 100; i++) answers.push((await attacker.password(op.email, `guess number ${i}`)).statusCode);
    // Five real failures, then the pair backs off (decided before any hash).
    expect(answers.filter((c) => c === 401)).toHaveLength(5);
    expect(answers.filter((c) => c === 429)).toHaveLength(95);
    const operator = from('198.51.100.77');
    await operator.signIn(op, t.clock());
    expect((await operator.get(adminApiPaths.session)).statusCode).toBe(200);

    // One alert (at the 50th try), in the audit log and as a warn line; neither holds an address or IP.
    const alerts = await t.store.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'sign-in.alert')
      .where('subject', '=', op.email)
      .execute();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      actor: null,
      via: 'anonymous',
      detail: expect.stringMatching(/^50 failed or refused sign-ins within an hour, from any network$/),
    });
    const warned = lines.filter((l) => l.includes('many failed sign-ins'));
    expect(warned).toHaveLength(1);
    const operatorId = (
      await t.store.db.selectFrom('operators').select('id').where('email', '=', op.email).executeTakeFirstOrThrow()
    ).id;
    expect(JSON.parse(warned[0] ?? '{}')).toMatchObject({ level: 40, operator: operatorId });
    expect(warned[0]).not.toContain(op.email);
    expect(warned[0]).not.toContain('203.0.113.66');
  });

  it("alerts on an address that is no operator's by its keyed hash, and audits it without a subject", async () => {
    const before = lines.length;
    const stranger = `nobody${n}@example.com`;
    for (let i = 0; i < 10; i++) {
      const net = from(`192.0.2.${i + 1}`);
      for (let j = 0; j < 5; j++) await net.password(stranger, 'not the password');
    }
    const warned = lines.slice(before).filter((l) => l.includes('many failed sign-ins'));
    expect(warned).toHaveLength(1);
    expect(JSON.parse(warned[0] ?? '{}')).toMatchObject({
      operator: null,
      addressHash: expect.stringMatching(/^[\w-]{16,}$/),
    });
    expect(warned[0]).not.toContain(stranger);
    const alerts = await t.store.db
      .selectFrom('audit_log')
      .select(['subject', 'detail'])
      .where('action', '=', 'sign-in.alert')
      .where('subject', 'is', null)
      .execute();
    expect(alerts.at(-1)?.detail).toMatch(/not an operator’s address/);
  });

  it("lets a recovery code through the pair's back-off at the second step, but not a TOTP code", async () => {
    const a = from('198.51.100.88');
    // Five failures for the pair: a wrong password, then four wrong codes (a fifth would end the
    // pending sign-in itself).
    expect((await a.password(op.email, 'not the password at all')).statusCode).toBe(401);
    expect((await a.password(op.email)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await a.code('000000')).statusCode).toBe(400);
    expect((await a.code(codeAt(op, t.clock()))).statusCode).toBe(429);
    const res = await a.recovery(op.recoveryCodes[0] ?? '');
    expect(res.statusCode, res.body).toBe(200);
    expect((await a.get(adminApiPaths.session)).statusCode).toBe(200);
  });

  it('keeps neither addresses nor IPs in the counters: the log holds no client address either', async () => {
    await from('198.51.100.14').password(op.email, 'wrong wrong wrong');
    const log = await t.store.db.selectFrom('audit_log').selectAll().execute();
    expect(JSON.stringify(log)).not.toContain('198.51.100.14');
    expect((await from('198.51.100.14').get(adminApiPaths.session)).statusCode).toBe(401);
  });
});
