import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, type RawResponse } from '../../../bench/lib/http.ts';
import { adminApiPaths, apiPaths, pagePaths } from '../../shared/paths.ts';
import { fillPath } from '../../shared/route-contract.ts';
import { newOutboxRow } from '../features/mail/index.ts';
import { hashToken } from '../features/signups/index.ts';
import { makeOperator, type TestOperator } from '../test/admin-kit.ts';
import { insertConfirmedSubscribers, insertSubscriber } from '../test/fixtures.ts';
import { type ServerHandle, startBuiltServer } from '../test/processes.ts';
import { deleteRedisKeys, testRedisPrefix, testRedisUrl } from '../test/test-redis.ts';
import { openTestStore, serverDatabaseUrl, type TestStore } from '../test/test-store.ts';
import { BURST, expectTally, raceName, raceServerEnv, raceTargets } from '../test/race-kit.ts';
import { WireBrowser } from '../test/wire-browser.ts';

// Every limit the product promises, raced (docs/decisions/0063): a burst of real HTTP requests,
// fired at once over sockets of their own against the production build, and the exact number the
// limit promises must pass, no more. On SQLite one instance; on PostgreSQL two instances on one
// schema and one Redis, the burst dealt between them in turn, as a load balancer would. One set of
// servers per store serves every race, so the file pays for its starts once.
// (The allowlist's limits need the wallet in allowlist mode, which the shipped content file does
// not have: their race is features/allowlist/allowlist-race.test.ts, on apps listening on real ports.)

const SIGNUP_LIMIT = 20;
const VISIT_LIMIT = 10;
const ALLOWANCE = 10;
const HOUR_AGO = () => new Date(Date.now() - 60 * 60_000);
const sendgrid = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

/** Resolves when `check` holds (polled), or fails after `timeoutMs`; no fixed sleeps. */
async function until(check: () => Promise<boolean>, what: () => string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const target of raceTargets) {
  describe.skipIf(target.skip !== null)(raceName('every limit', target), () => {
    let store: TestStore;
    let servers: ServerHandle[] = [];
    const run = randomBytes(4).toString('hex');
    const redisPrefix = testRedisPrefix();
    /** The instance the i-th request of a burst goes to. */
    const origin = (i: number) => (servers[i % servers.length] as ServerHandle).origin;
    /** `count` browsers, each on its own loopback address in 127.<block>.x.y. */
    const browsers = (block: number, count: number) =>
      Array.from(
        { length: count },
        (_, i) => new WireBrowser(origin(i), `127.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`),
      );
    /** One browser's session, present at every instance. */
    const everywhere = (b: WireBrowser) => servers.map((s) => b.at(s.origin));
    const burst = (send: (i: number) => Promise<RawResponse>) =>
      Promise.all(Array.from({ length: BURST }, (_, i) => send(i)));

    beforeAll(async () => {
      store = await openTestStore(target.dialect);
      const env = {
        DATABASE_URL: serverDatabaseUrl(store),
        SIGNUP_RATE_LIMIT: String(SIGNUP_LIMIT),
        SIGNUP_MIN_FILL_SECONDS: '0',
        VISIT_RATE_LIMIT: String(VISIT_LIMIT),
        PERSONAL_DATA_DAILY_ALLOWANCE: String(ALLOWANCE),
        BROADCAST_APPROVALS: '2',
        ...raceServerEnv,
        SENDGRID_WEBHOOK_PUBLIC_KEY: sendgrid.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
        ...(target.instances > 1 && testRedisUrl ? { REDIS_URL: testRedisUrl, REDIS_KEY_PREFIX: redisPrefix } : {}),
      };
      servers = await Promise.all(Array.from({ length: target.instances }, () => startBuiltServer(env)));
    }, 90_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await store?.destroy();
      if (target.instances > 1) await deleteRedisKeys(redisPrefix);
    });

    /** An operator made in the store and signed in (fresh proof from now), on every instance. */
    async function operator(name: string): Promise<{ op: TestOperator; at: WireBrowser[] }> {
      const op = await makeOperator(store.db, `${name}-${run}@example.com`, new Date(), 'sender');
      const b = new WireBrowser(origin(0), '127.0.9.1');
      await b.signIn(op);
      return { op, at: everywhere(b) };
    }
    const confirmationsOf = async (subscriberId: string) =>
      (
        await store.db
          .selectFrom('outbox')
          .select('id')
          .where('subscriber_id', '=', subscriberId)
          .where('kind', '=', 'confirmation')
          .execute()
      ).length;

    it(`the sign-up rate limit: ${BURST} sign-ups at once from one network, exactly ${SIGNUP_LIMIT} taken`, async () => {
      const client = new WireBrowser(origin(0), '127.50.0.1');
      await client.csrf();
      const at = everywhere(client);
      const answers = await burst((i) =>
        (at[i % at.length] as WireBrowser).send('POST', pagePaths.signup, {
          json: { name: 'Racer', email: `rate${i}-${run}@example.com` },
        }),
      );
      expectTally(answers, { 200: SIGNUP_LIMIT, 429: BURST - SIGNUP_LIMIT });
    });

    it(`the confirmation email's cool-down: one pending address signed up ${BURST} times at once gets one email`, async () => {
      const email = `again-${run}@example.com`;
      const id = await insertSubscriber(store.db, email, { now: HOUR_AGO() });
      const people = browsers(51, BURST);
      await Promise.all(people.map((p) => p.csrf()));
      const answers = await Promise.all(
        people.map((p) => p.send('POST', pagePaths.signup, { json: { name: 'Again', email } })),
      );
      expectTally(answers, { 200: BURST });
      expect(await confirmationsOf(id)).toBe(1);
    });

    it(`a confirmation link works once: ${BURST} presses at once confirm once`, async () => {
      const id = await insertSubscriber(store.db, `press-${run}@example.com`, { now: HOUR_AGO() });
      const token = randomBytes(32).toString('base64url');
      // Sent already, so the outbox worker leaves it (and its token) alone.
      await store.db
        .insertInto('outbox')
        .values({
          ...newOutboxRow('confirmation', id, HOUR_AGO()),
          status: 'sent',
          token_hash: hashToken(token),
          token_expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        })
        .execute();
      const answers = await Promise.all(
        browsers(52, BURST).map((p) => p.send('POST', pagePaths.confirm, { form: { token } })),
      );
      expectTally(answers, { 200: 1, 404: BURST - 1 });
      const row = await store.db.selectFrom('subscribers').select('status').where('id', '=', id).executeTakeFirst();
      expect(row?.status).toBe('confirmed');
    });

    it(`the console's resend: ${BURST} resends of one person at once queue one email`, async () => {
      const { at } = await operator('resender');
      const id = await insertSubscriber(store.db, `resend-${run}@example.com`, { now: HOUR_AGO() });
      const path = fillPath(adminApiPaths.subscriberResend, { id });
      const answers = await burst((i) => (at[i % at.length] as WireBrowser).send('POST', path, { json: {} }));
      expectTally(answers, { 200: 1, 409: BURST - 1 });
      expect(await confirmationsOf(id)).toBe(1);
    });

    it(`the personal-data allowance: ${BURST} reads at once without fresh proof, exactly ${ALLOWANCE} answered`, async () => {
      const { op, at } = await operator('reader');
      // A session whose code is older than the fresh-proof window: what a stolen cookie carries.
      const owner = await store.db
        .selectFrom('operators')
        .select('id')
        .where('email_key', '=', op.email.toLowerCase())
        .executeTakeFirstOrThrow();
      await store.db
        .updateTable('operator_sessions')
        .set({ fresh_proof_at: null })
        .where('operator_id', '=', owner.id)
        .execute();
      const id = await insertSubscriber(store.db, `read-${run}@example.com`, { now: HOUR_AGO() });
      const path = fillPath(adminApiPaths.subscriberDetails, { id });
      const answers = await burst((i) => (at[i % at.length] as WireBrowser).send('POST', path));
      expectTally(answers, { 200: ALLOWANCE, 403: BURST - ALLOWANCE });
      const reads = await store.db
        .selectFrom('personal_data_reads')
        .select('records')
        .where('operator_id', '=', owner.id)
        .executeTakeFirst();
      expect(Number(reads?.records)).toBe(ALLOWANCE);
    });

    it(`a broadcast's four eyes: ${BURST} approvals at once count once, ${BURST} sends at once queue it once`, async () => {
      const author = await operator('author');
      const second = await operator('second');
      await insertConfirmedSubscribers(
        store.db,
        Array.from({ length: 5 }, (_, i) => `fan${i}-${run}@example.com`),
        HOUR_AGO(),
      );
      const draft = await (author.at[0] as WireBrowser).send('POST', adminApiPaths.broadcasts, {
        json: { subject: `Race ${run}`, body: 'Hello holders.' },
      });
      expect(draft.status, draft.body.toString()).toBe(200);
      const { id } = JSON.parse(draft.body.toString()) as { id: string };
      const read = await (second.at[0] as WireBrowser).send('GET', fillPath(adminApiPaths.broadcast, { id }));
      const { textHash } = JSON.parse(read.body.toString()) as { textHash: string };

      const approvals = await burst((i) =>
        (second.at[i % second.at.length] as WireBrowser).send(
          'POST',
          fillPath(adminApiPaths.broadcastApprove, { id }),
          {
            json: { textHash },
          },
        ),
      );
      expectTally(approvals, { 200: 1, 409: BURST - 1 });
      const audience = (
        await store.db.selectFrom('subscribers').select('id').where('status', '=', 'confirmed').execute()
      ).length;
      const sends = await burst((i) =>
        (author.at[i % author.at.length] as WireBrowser).send('POST', fillPath(adminApiPaths.broadcastSend, { id }), {
          json: {},
        }),
      );
      expectTally(sends, { 200: 1, 409: BURST - 1 });
      const queued = await store.db
        .selectFrom('outbox')
        .select('subscriber_id')
        .where('broadcast_id', '=', id)
        .execute();
      expect(queued).toHaveLength(audience);
      expect(new Set(queued.map((q) => q.subscriber_id)).size).toBe(audience);
      const approved = await store.db
        .selectFrom('audit_log')
        .select('action')
        .where('subject', '=', id)
        .where('action', '=', 'broadcast.approved')
        .execute();
      expect(approved).toHaveLength(1);
    });

    it(`the allowlist's freeze: ${BURST} approvals at once of one request freeze one snapshot`, async () => {
      const asker = await operator('asker');
      const approver = await operator('approver');
      await store.db
        .insertInto('allowlist_entries')
        .values({
          address: '0x52908400098527886E0F7030069857D2E4169EE7',
          joined_at: HOUR_AGO().toISOString(),
          country: null,
        })
        .execute();
      const asked = await (asker.at[0] as WireBrowser).send('POST', adminApiPaths.allowlistFreeze, {
        json: { keepOpen: true },
      });
      expect(asked.status, asked.body.toString()).toBe(200);
      const answers = await burst((i) =>
        (approver.at[i % approver.at.length] as WireBrowser).send('POST', adminApiPaths.allowlistFreezeApprove, {
          json: {},
        }),
      );
      expectTally(answers, { 200: 1, 409: BURST - 1 });
      expect(await store.db.selectFrom('allowlist_snapshots').select('id').execute()).toHaveLength(1);
    });

    it(`a provider's signed delivery is taken once: the same webhook sent ${BURST} times at once`, async () => {
      const raw = JSON.stringify([
        {
          email: `hook-${run}@example.com`,
          timestamp: Math.floor(Date.now() / 1000),
          event: 'delivered',
          sg_event_id: `race-${run}`,
          sg_message_id: `m-${run}.filter0001`,
        },
      ]);
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = sign('sha256', Buffer.from(timestamp + raw), { key: sendgrid.privateKey, dsaEncoding: 'der' });
      const answers = await burst((i) =>
        httpRequest(`${origin(i)}${apiPaths.sendgridWebhook}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-twilio-email-event-webhook-signature': signature.toString('base64'),
            'x-twilio-email-event-webhook-timestamp': timestamp,
          },
          body: raw,
          timeoutMs: 20_000,
        }),
      );
      expectTally(answers, { 200: 1, 409: BURST - 1 });
    });

    it(`the beacon budget: ${BURST} beacons at once from one network, exactly ${VISIT_LIMIT} counted`, async () => {
      const visitor = new WireBrowser(origin(0), '127.53.0.1');
      const at = everywhere(visitor);
      const answers = await burst((i) =>
        (at[i % at.length] as WireBrowser).send('POST', apiPaths.visit, { json: { p: '/' } }),
      );
      expectTally(answers, { 204: BURST });
      const counted = async () => {
        const views = await store.db
          .selectFrom('daily_counts')
          .select((eb) => eb.fn.sum<number>('views').as('n'))
          .where('dimension', '=', 'total')
          .executeTakeFirst();
        const over = await store.db
          .selectFrom('abuse_counters')
          .select((eb) => eb.fn.sum<number>('count').as('n'))
          .where('reason', '=', 'visit-over-budget')
          .executeTakeFirst();
        return { views: Number(views?.n ?? 0), over: Number(over?.n ?? 0) };
      };
      // Beacons are counted after their answer, and written about once a second.
      let last = { views: 0, over: 0 };
      await until(
        async () => {
          last = await counted();
          return last.views + last.over >= BURST;
        },
        () => `every beacon to be counted or dropped (so far ${JSON.stringify(last)})`,
      );
      expect(await counted()).toEqual({ views: VISIT_LIMIT, over: BURST - VISIT_LIMIT });
    });
  });
}
