import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawResponse } from '../../../../bench/lib/http.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { apiPaths, pagePaths } from '../../../shared/paths.ts';
import type { ReferralStatus } from '../../store/schema.ts';
import { type ServerHandle, startBuiltServer } from '../../test/processes.ts';
import { raceServerEnv, raceTargets } from '../../test/race-kit.ts';
import { inviteCodeIn } from '../../test/referral-kit.ts';
import { deleteRedisKeys, testRedisPrefix, testRedisUrl } from '../../test/test-redis.ts';
import { openTestStore, serverDatabaseUrl, type TestStore } from '../../test/test-store.ts';
import { WireBrowser } from '../../test/wire-browser.ts';
import { hashToken } from '../signups/index.ts';

// Invite limits raced (issue 38, docs/decisions/0063): invitees sign up through the production
// build over real HTTP (their networks from X-Forwarded-For), then their confirmations are fired
// at once, each on a socket of its own, and exactly what each limit promises counts. On SQLite one
// instance; on PostgreSQL two instances on one schema and one Redis, the burst dealt between them
// in turn (test/race-kit.ts).

const CAPS = { referrer: 7, network: 5, domain: 5 };

/** `act` on every item, `width` at a time (the sign-ups: a setup, not the race). */
async function inBatches<T>(items: readonly T[], width: number, act: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(act));
}

for (const target of raceTargets) {
  describe.skipIf(target.skip !== null)(
    `invite limits under confirmations sent at once: ${target.label}${target.skip ? ` (${target.skip})` : ''}`,
    { timeout: 180_000 },
    () => {
      let store: TestStore;
      let servers: ServerHandle[] = [];
      const run = randomBytes(3).toString('hex');
      const redisPrefix = testRedisPrefix();
      let turn = 0;
      const nextServer = (): ServerHandle => {
        const server = servers[turn++ % servers.length];
        if (!server) throw new Error('no server started');
        return server;
      };

      beforeAll(async () => {
        store = await openTestStore(target.dialect);
        const env = {
          ...raceServerEnv,
          DATABASE_URL: serverDatabaseUrl(store),
          TRUST_PROXY: 'true',
          SIGNUP_MIN_FILL_SECONDS: '0',
          SIGNUP_RATE_LIMIT: '100000',
          REFERRALS_PER_REFERRER_DAILY: String(CAPS.referrer),
          REFERRALS_PER_NETWORK_DAILY: String(CAPS.network),
          REFERRALS_PER_PRIVATE_DOMAIN: String(CAPS.domain),
          ...(target.instances > 1 && testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: redisPrefix } : {}),
        };
        servers = await Promise.all(Array.from({ length: target.instances }, () => startBuiltServer(env)));
      }, 120_000);
      afterAll(async () => {
        await Promise.all(servers.map((s) => s.stop()));
        if (target.instances > 1 && testRedisUrl) await deleteRedisKeys(redisPrefix);
        await store?.destroy();
      });

      /**
       * The form's sign-up from `ip` (X-Forwarded-For: the app trusts it here), as a browser sends
       * it: CSRF cookies first, then JSON.
       */
      async function signUp(p: { email: string; ip: string; invite?: string }): Promise<void> {
        const browser = new WireBrowser(nextServer().origin);
        const from = { 'x-forwarded-for': p.ip };
        await browser.send('GET', apiPaths.csrf, undefined, from);
        const json = { name: 'Friend', email: p.email, ...(p.invite ? { invite: p.invite } : {}) };
        let res = await browser.send('POST', pagePaths.signup, { json }, from);
        // A setup, not the race: a store busy for a moment on a loaded machine is asked again.
        for (let i = 0; i < 10 && res.status === 503; i++) {
          await new Promise((r) => setTimeout(r, 200));
          res = await browser.send('POST', pagePaths.signup, { json }, from);
        }
        if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${res.body.toString()}`);
      }

      /**
       * A confirmation token for `email`'s pending sign-up. The link in their email carries one the
       * store knows only by its hash, made as the outbox composes the email; once it is there, the
       * test puts the hash of a token it knows in its place.
       */
      async function tokenFor(email: string): Promise<string> {
        const { id } = await store.db
          .selectFrom('subscribers')
          .select('id')
          .where('email_key', '=', email.toLowerCase())
          .executeTakeFirstOrThrow();
        const token = randomBytes(32).toString('base64url');
        const end = Date.now() + 60_000;
        for (;;) {
          const set = await store.db
            .updateTable('outbox')
            .set({ token_hash: hashToken(token) })
            .where('subscriber_id', '=', id)
            .where('token_hash', 'is not', null)
            .executeTakeFirst();
          if (set.numUpdatedRows > 0n) return token;
          if (Date.now() > end) throw new Error(`no confirmation email composed for ${email} within 60 s`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }

      /** The press on the confirmation page, from `ip`. */
      const confirm = (token: string, ip: string): Promise<RawResponse> =>
        new WireBrowser(nextServer().origin).send(
          'POST',
          localePath('en', pagePaths.confirm),
          { form: { token } },
          { 'x-forwarded-for': ip },
        );

      /** A confirmed referrer of their own (a network no invitee uses): their invite code. */
      async function referrer(name: string): Promise<string> {
        const email = `${name}-${run}@example.net`;
        const ip = `192.0.2.${1 + (turn % 250)}`;
        await signUp({ email, ip });
        const page = await confirm(await tokenFor(email), ip);
        expect(page.status).toBe(200);
        return inviteCodeIn(page.body.toString());
      }

      /**
       * Signs every invitee up, then fires all their confirmations at once: how the invites to
       * their referrers were decided.
       */
      async function raceConfirmations(
        invitees: { email: string; ip: string; invite: string }[],
      ): Promise<Record<string, number>> {
        await inBatches(invitees, 8, signUp);
        const pressed = await Promise.all(invitees.map(async (p) => ({ token: await tokenFor(p.email), ip: p.ip })));
        const answers = await Promise.all(pressed.map((p) => confirm(p.token, p.ip)));
        expect(answers.map((a) => a.status)).toEqual(invitees.map(() => 200));
        const rows = await store.db
          .selectFrom('referral_attributions as a')
          .innerJoin('referral_codes as c', 'c.subscriber_id', 'a.referrer_id')
          .select('a.status')
          .where('c.code', 'in', [...new Set(invitees.map((p) => p.invite))])
          .execute();
        const tally: Partial<Record<ReferralStatus, number>> = {};
        for (const r of rows) tally[r.status] = (tally[r.status] ?? 0) + 1;
        return tally;
      }

      it(`50 invitees of two referrers from one network: exactly ${CAPS.network} count`, async () => {
        const [a, b] = [await referrer('net-a'), await referrer('net-b')];
        const invitees = Array.from({ length: 50 }, (_, i) => ({
          email: `one-net-${i}-${run}@gmail.com`,
          ip: '198.51.100.77',
          invite: i % 2 === 0 ? a : b,
        }));
        expect(await raceConfirmations(invitees)).toEqual({ counted: CAPS.network, capped: 50 - CAPS.network });
      });

      it(`50 invitees of one referrer from 50 networks: exactly ${CAPS.referrer} count`, async () => {
        const code = await referrer('daily');
        const invitees = Array.from({ length: 50 }, (_, i) => ({
          email: `many-nets-${i}-${run}@gmail.com`,
          ip: `203.0.113.${i + 1}`,
          invite: code,
        }));
        expect(await raceConfirmations(invitees)).toEqual({ counted: CAPS.referrer, capped: 50 - CAPS.referrer });
      });

      it('24 invitees in one mailbox (+tags) over 8 networks: exactly 1 counts', async () => {
        const code = await referrer('tags');
        const invitees = Array.from({ length: 24 }, (_, i) => ({
          email: `farm-${run}+${i + 1}@example.org`,
          ip: `198.18.0.${(i % 8) + 1}`,
          invite: code,
        }));
        expect(await raceConfirmations(invitees)).toEqual({ counted: 1, same_mailbox: 23 });
      });

      it('24 spellings of one Gmail mailbox (dots, case, googlemail.com) over 8 networks: exactly 1 counts', async () => {
        const code = await referrer('dots');
        const local = `farm${run}`;
        const invitees = Array.from({ length: 24 }, (_, i) => {
          // A dot after the (i mod 8)-th letter; the second eight have another before the last
          // letter and capitals; the third eight are at googlemail.com.
          const at = (i % 8) + 1;
          const dotted = `${local.slice(0, at)}.${local.slice(at)}`;
          const group = Math.floor(i / 8);
          const spelt = group === 1 ? `${dotted.slice(0, -1)}.${dotted.slice(-1)}`.toUpperCase() : dotted;
          return {
            email: `${spelt}@${group === 2 ? 'googlemail.com' : 'gmail.com'}`,
            ip: `198.18.1.${(i % 8) + 1}`,
            invite: code,
          };
        });
        expect(new Set(invitees.map((p) => p.email)).size).toBe(24);
        expect(await raceConfirmations(invitees)).toEqual({ counted: 1, same_mailbox: 23 });
      });

      it(`24 invitees at one catch-all domain (and its subdomains) over 24 networks: exactly ${CAPS.domain} count`, async () => {
        const code = await referrer('catchall');
        const invitees = Array.from({ length: 24 }, (_, i) => ({
          email: `x${i}@${i % 2 === 0 ? '' : `s${i}.`}farm-${run}.example`,
          ip: `198.18.2.${i + 1}`,
          invite: code,
        }));
        expect(await raceConfirmations(invitees)).toEqual({ counted: CAPS.domain, one_domain: 24 - CAPS.domain });
      });

      it(`24 invitees from 24 /64s of one IPv6 /48 (one tunnel): exactly ${CAPS.network} count`, async () => {
        const code = await referrer('tunnel');
        const invitees = Array.from({ length: 24 }, (_, i) => ({
          email: `v6-${i}-${run}@gmail.com`,
          ip: `2001:db8:4242:${(i + 1).toString(16)}::${i + 7}`,
          invite: code,
        }));
        expect(await raceConfirmations(invitees)).toEqual({ counted: CAPS.network, capped: 24 - CAPS.network });
      });

      it('a second sign-up of someone’s pending address with an invite does not claim their confirmation', async () => {
        const code = await referrer('claimer');
        const victim = `victim-${run}@gmail.com`;
        await signUp({ email: victim, ip: '198.18.3.1' });
        // The attacker submits the same address with their code, from elsewhere.
        await signUp({ email: victim, ip: '198.18.3.2', invite: code });
        const page = await confirm(await tokenFor(victim), '198.18.3.1');
        expect(page.status).toBe(200);
        const rows = await store.db
          .selectFrom('referral_attributions as a')
          .innerJoin('referral_codes as c', 'c.subscriber_id', 'a.referrer_id')
          .select('a.status')
          .where('c.code', '=', code)
          .execute();
        expect(rows).toEqual([]);
      });
    },
  );
}
