import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawResponse } from '../../../../bench/lib/http.ts';
import { apiPaths, pagePaths } from '../../../shared/paths.ts';
import { allowlistContent, buildTestApp, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { testAccount, type TestAccount } from '../../test/test-account.ts';
import { deleteRedisKeys, testRedisPrefix, testRedisUrl } from '../../test/test-redis.ts';
import { openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { BURST, expectTally, raceName, raceServerEnv, raceTargets } from '../../test/race-kit.ts';
import { WireBrowser } from '../../test/wire-browser.ts';
import { hashToken } from '../signups/index.ts';

// The allowlist's limits raced (docs/decisions/0063), as src/server/integration/limits-race.test.ts
// races the others: 60 real HTTP requests at once over sockets of their own, the exact number the
// limit promises passing. The production build serves the shipped content file, whose wallet is
// "coming soon", so these apps are built with the wallet in allowlist mode and listen on real
// ports: on SQLite one; on PostgreSQL two on one schema and one Redis, the burst dealt between them.

const SITE = 'https://dh.example';

const json = <T>(res: RawResponse): T => JSON.parse(res.body.toString()) as T;

for (const target of raceTargets) {
  describe.skipIf(target.skip !== null)(raceName("the allowlist's limits", target), () => {
    let store: TestStore;
    const apps: TestApp[] = [];
    const origins: string[] = [];
    const clock = testClock();
    const redisPrefix = testRedisPrefix();
    const run = randomBytes(4).toString('hex');
    /** A browser on its own loopback address, at the i-th request's instance, past the time trap. */
    const browser = (block: number, i: number) =>
      new WireBrowser(origins[i % origins.length] as string, `127.${block}.0.${i + 1}`, SITE);

    beforeAll(async () => {
      store = await openTestStore(target.dialect);
      const env = {
        ...raceServerEnv,
        ALLOWLIST_RATE_LIMIT: '1000',
        ...(target.instances > 1 && testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: redisPrefix } : {}),
      };
      for (let i = 0; i < target.instances; i++) {
        const t = await buildTestApp({ store, clock, env, content: allowlistContent() });
        apps.push(t);
        await t.app.listen({ host: '127.0.0.1', port: 0 });
        origins.push(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
      }
    }, 60_000);

    afterAll(async () => {
      for (const t of apps) await t.close();
      await store?.destroy();
      if (target.instances > 1) await deleteRedisKeys(redisPrefix);
    });

    /** `n` browsers that have loaded the page (its CSRF and time-trap cookies) a few seconds ago. */
    async function visitors(block: number, n: number): Promise<WireBrowser[]> {
      const list = Array.from({ length: n }, (_, i) => browser(block, i));
      await Promise.all(list.map((b) => b.csrf()));
      clock.advance(5_000);
      return list;
    }
    async function signed(b: WireBrowser, account: TestAccount): Promise<{ message: string; signature: string }> {
      const res = await b.send('POST', apiPaths.allowlistChallenge, {
        json: { address: account.address, purpose: 'join' },
      });
      expect(res.status, res.body.toString()).toBe(200);
      const { message } = json<{ message: string }>(res);
      return { message, signature: account.sign(message) };
    }
    const join = (b: WireBrowser, proof: { message: string; signature: string }) =>
      b.send('POST', apiPaths.allowlistJoin, { json: proof });

    it(`a signed message joins once: the same signature sent ${BURST} times at once is taken once`, async () => {
      const people = await visitors(60, BURST);
      const proof = await signed(people[0] as WireBrowser, testAccount());
      const answers = await Promise.all(people.map((b) => join(b, proof)));
      expectTally(answers, { 200: 1, 409: BURST - 1 });
    });

    it(`one entry per address: ${BURST} joins of one wallet at once, each with its own message, make one entry`, async () => {
      const wallet = testAccount();
      const people = await visitors(61, BURST);
      const proofs = await Promise.all(people.map((b) => signed(b, wallet)));
      const answers = await Promise.all(
        people.map((b, i) => join(b, proofs[i] as { message: string; signature: string })),
      );
      expectTally(answers, { 200: BURST });
      expect(new Set(answers.map((a) => json<{ since: string }>(a).since)).size).toBe(1);
      const rows = await store.db
        .selectFrom('allowlist_entries')
        .select('address')
        .where('address', '=', wallet.address)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it(`a join's link token is spent once: ${BURST} links with it at once, one taken`, async () => {
      const people = await visitors(62, BURST);
      const joined = await join(people[0] as WireBrowser, await signed(people[0] as WireBrowser, testAccount()));
      const { linkToken } = json<{ linkToken: string }>(joined);
      const answers = await Promise.all(
        people.map((b, i) =>
          b.send('POST', apiPaths.allowlistLink, {
            json: { linkToken, name: 'Holder', email: `token${i}-${run}@example.com` },
          }),
        ),
      );
      expectTally(answers, { 200: 1, 400: BURST - 1 });
    });

    it(`the wallet-link email's cool-down: ${BURST} wallets asking to link one person at once send one email`, async () => {
      const email = `linked-${run}@example.com`;
      const subscriberId = await insertSubscriber(store.db, email, { status: 'confirmed', now: clock() });
      const people = await visitors(63, BURST);
      const tokens = await Promise.all(
        people.map(async (b) => json<{ linkToken: string }>(await join(b, await signed(b, testAccount()))).linkToken),
      );
      const answers = await Promise.all(
        people.map((b, i) =>
          b.send('POST', apiPaths.allowlistLink, { json: { linkToken: tokens[i], name: 'Holder', email } }),
        ),
      );
      expectTally(answers, { 200: BURST });
      const mails = await store.db
        .selectFrom('outbox')
        .select('id')
        .where('subscriber_id', '=', subscriberId)
        .where('kind', '=', 'wallet-link')
        .execute();
      expect(mails).toHaveLength(1);

      // That email's button, pressed 60 times at once, links the wallet once.
      const token = randomBytes(32).toString('base64url');
      const request = await store.db
        .updateTable('allowlist_link_requests')
        .set({ token_hash: hashToken(token), expires_at: new Date(clock().getTime() + 86_400_000).toISOString() })
        .where('subscriber_id', '=', subscriberId)
        .returning('address')
        .executeTakeFirstOrThrow();
      const presses = await Promise.all(people.map((b) => b.send('POST', pagePaths.walletLink, { form: { token } })));
      expectTally(presses, { 200: 1, 404: BURST - 1 });
      const entry = await store.db
        .selectFrom('allowlist_entries')
        .select('subscriber_id')
        .where('address', '=', request.address)
        .executeTakeFirst();
      expect(entry?.subscriber_id).toBe(subscriberId);
    });
  });
}
