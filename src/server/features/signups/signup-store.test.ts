import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signupSchema } from '../../../shared/signup-schema.ts';
import { GroupCommitter } from '../../store/group-commit.ts';
import { dataKey, SecretBox } from '../../store/secret-box.ts';
import { dialectCases, openTestStore, testClock, testSecrets, type TestStore } from '../../test/test-store.ts';
import { confirmSubscriber, unsubscribeSubscriber } from './link-store.ts';
import { countAbuseJob, recordConsentWording, signupBatch, signupBatchWith, signupJob } from './signup-store.ts';
import { Suppressions } from '../mail/index.ts';
import { newLinkToken } from './tokens.ts';
import { insertSubscriber } from '../../test/fixtures.ts';

// Parsed as the server does, so a field added to the schema needs nothing here.
const input = signupSchema.parse({ name: 'Ada', email: 'Ada@example.com', comment: '' });

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`signup store on ${label}`, () => {
    let store: TestStore;
    let committer: GroupCommitter;
    const clock = testClock();

    beforeEach(async () => {
      store = await openTestStore(dialect);
      await recordConsentWording(store.db, clock());
      committer = new GroupCommitter(store.db);
      clock.set('2026-11-21T12:00:00.000Z');
    });
    afterEach(() => store.destroy());

    const signUp = (over: Partial<typeof input> = {}) =>
      committer.run(signupJob({ ...input, ...over }, { now: clock(), page: '/' }));

    /** Simulates the worker having sent the confirmation email: gives its row a token. */
    async function sendConfirmation(): Promise<string> {
      const { token, hash } = newLinkToken();
      await store.db
        .updateTable('outbox')
        .set({
          token_hash: hash,
          token_expires_at: new Date(clock().getTime() + 7 * 86400_000).toISOString(),
          status: 'sent',
        })
        .where('status', '=', 'pending')
        .execute();
      return token;
    }

    it('groups concurrent sign-ups into few transactions, each stored exactly once', async () => {
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => signUp({ email: `p${i}@example.com`, name: `P${i}` })),
      );
      expect(results.every((r) => r.outcome === 'created' && r.emailQueued)).toBe(true);
      const n = await store.db
        .selectFrom('subscribers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(60);
      // The first runs alone; the rest queue behind it and share a commit.
      expect(committer.batches).toBeLessThanOrEqual(3);
    });

    it.skipIf(dialect !== 'postgres')(
      'a new address another instance inserts between the read and the write: the insert fails on the unique key and the sign-up is retried as an update',
      async () => {
        // A batch of sign-ups alone reads, then writes in one statement, with no transaction
        // around both (decision 0053). Another instance's insert of the same address, not yet
        // committed when this one reads, makes this one's insert wait and then fail.
        let commitOther!: () => void;
        const release = new Promise<void>((resolve) => (commitOther = resolve));
        let inserted!: () => void;
        const otherHasInserted = new Promise<void>((resolve) => (inserted = resolve));
        const otherInstance = store.db.transaction().execute(async (trx) => {
          await insertSubscriber(trx, 'race@example.com', { now: clock() });
          inserted();
          await release;
        });
        await otherHasInserted;
        const answer = committer.runIn(signupBatch, {
          // Another spelling of the same address.
          input: { ...input, email: 'RACE@Example.COM', name: 'Racer' },
          meta: { now: clock(), page: '/' },
        });
        await expect
          .poll(
            async () =>
              (
                await sql<{ n: string }>`select count(*) as n from pg_stat_activity
                  where wait_event_type = 'Lock' and query like 'with "new_subscribers"%'`.execute(store.db)
              ).rows[0]?.n,
          )
          .toBe('1');
        commitOther();
        await otherInstance;
        expect(await answer).toMatchObject({ outcome: 'updated', emailQueued: false });
        const rows = await store.db.selectFrom('subscribers').select(['email_key', 'name']).execute();
        expect(rows).toEqual([{ email_key: 'race@example.com', name: 'Racer' }]);
        // Inside the other instance's cooldown: no second confirmation.
        expect(await store.db.selectFrom('outbox').select('id').execute()).toHaveLength(0);
      },
    );

    it('handles the same address twice within one batch: one row, one email, latest name', async () => {
      await signUp({ email: 'known@example.com' }); // known before the batch
      const results = await Promise.all([
        committer.runIn(signupBatch, {
          input: { ...input, email: 'Twice@Example.com', name: 'First' },
          meta: { now: clock(), page: '/' },
        }),
        committer.runIn(signupBatch, {
          input: { ...input, email: 'twice@EXAMPLE.com', name: 'Second' },
          meta: { now: clock(), page: '/' },
        }),
        committer.runIn(signupBatch, {
          input: { ...input, email: 'known@example.com', name: 'Known' },
          meta: { now: clock(), page: '/' },
        }),
      ]);
      expect(results.map((r) => [r.outcome, r.emailQueued])).toEqual([
        ['created', true],
        ['updated', false],
        ['updated', false],
      ]);
      const rows = await store.db
        .selectFrom('subscribers')
        .select(['email_key', 'name'])
        .orderBy('email_key')
        .execute();
      expect(rows).toEqual([
        { email_key: 'known@example.com', name: 'Known' },
        { email_key: 'twice@example.com', name: 'Second' },
      ]);
      const mails = await store.db.selectFrom('outbox').select('subscriber_id').execute();
      expect(mails).toHaveLength(2);
    });

    it('a failing job in a batch fails alone; the others are stored', async () => {
      const bad = committer.run(async (trx) => {
        await trx.insertInto('settings').values({ key: 'dup', value: '1' }).execute();
        await trx.insertInto('settings').values({ key: 'dup', value: '2' }).execute();
      });
      const good = Array.from({ length: 5 }, (_, i) => signUp({ email: `g${i}@example.com` }));
      await expect(bad).rejects.toThrow();
      expect((await Promise.all(good)).map((r) => r.outcome)).toEqual(Array(5).fill('created'));
    });

    it('treats case and whitespace variants as the same address', async () => {
      await signUp();
      const again = await signUp({ email: 'ada@EXAMPLE.com', name: 'Ada L.' });
      expect(again.outcome).toBe('updated');
      expect(again.emailQueued).toBe(false);
      const rows = await store.db.selectFrom('subscribers').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.name).toBe('Ada L.');
    });

    it('confirms once with a valid link; the link is then spent', async () => {
      await signUp();
      const token = await sendConfirmation();
      expect(await confirmSubscriber(store.db, token, clock())).toBe('confirmed');
      expect(await confirmSubscriber(store.db, token, clock())).toBe('invalid');
      const sub = await store.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
      expect(sub.status).toBe('confirmed');
      expect(sub.confirmed_at).toBe(clock().toISOString());
    });

    it('refuses an expired link (7 days) and a made-up one', async () => {
      await signUp();
      const token = await sendConfirmation();
      clock.advance(7 * 86400_000 + 1);
      expect(await confirmSubscriber(store.db, token, clock())).toBe('expired');
      expect(await confirmSubscriber(store.db, newLinkToken().token, clock())).toBe('invalid');
      expect(await confirmSubscriber(store.db, "'; drop table subscribers; --", clock())).toBe('invalid');
    });

    it('a confirmed address signing up again gets no email', async () => {
      await signUp();
      await confirmSubscriber(store.db, await sendConfirmation(), clock());
      clock.advance(60 * 60_000);
      const again = await signUp({ comment: 'still here' });
      expect(again).toMatchObject({ outcome: 'updated', emailQueued: false });
    });

    it('unsubscribing cancels pending mail and spends old links; signing up again starts over', async () => {
      const { subscriberId } = await signUp();
      const oldToken = await sendConfirmation();
      await signUp(); // within cooldown: nothing new queued
      expect(await unsubscribeSubscriber(store.db, subscriberId, clock())).toBe('unsubscribed');
      expect(await confirmSubscriber(store.db, oldToken, clock())).toBe('invalid');

      clock.advance(16 * 60_000);
      const back = await signUp();
      expect(back).toMatchObject({ outcome: 'resubscribed', emailQueued: true });
      const sub = await store.db.selectFrom('subscribers').selectAll().executeTakeFirstOrThrow();
      expect(sub.status).toBe('pending');
    });

    it('unsubscribing an unknown id says so', async () => {
      expect(await unsubscribeSubscriber(store.db, 'nobody', clock())).toBe('unknown');
    });

    it('counts bots per day and reason', async () => {
      await committer.run(countAbuseJob('honeypot', clock()));
      await committer.run(countAbuseJob('honeypot', clock()));
      await committer.run(countAbuseJob('too-fast', clock()));
      const rows = await store.db.selectFrom('abuse_counters').selectAll().orderBy('reason').execute();
      expect(rows.map((r) => [r.reason, Number(r.count)])).toEqual([
        ['honeypot', 2],
        ['too-fast', 1],
      ]);
    });

    it('a new sign-up of a suppressed address is stored and answered alike, but gets no email, across a data key rotation', async () => {
      await new Suppressions(testSecrets()).suppress(store.db, {
        address: 'blocked@example.com',
        reason: 'manual',
        source: 'console',
        now: clock(),
      });
      // The data key is rotated: the old one only verifies now, and still matches.
      const rotated = new Suppressions(new SecretBox(dataKey(randomBytes(32)), testSecrets().keys));
      const batch = signupBatchWith(rotated);
      const meta = { now: clock(), page: '/' };
      const blocked = await committer.runIn(batch, {
        input: signupSchema.parse({ name: 'B', email: 'Blocked@Example.com' }),
        meta,
      });
      const fine = await committer.runIn(batch, {
        input: signupSchema.parse({ name: 'F', email: 'fine@example.com' }),
        meta,
      });
      expect(blocked).toMatchObject({ outcome: 'created', emailQueued: false });
      expect(fine).toMatchObject({ outcome: 'created', emailQueued: true });
      const queued = await store.db.selectFrom('outbox').select('subscriber_id').execute();
      expect(queued).toEqual([{ subscriber_id: fine.subscriberId }]);
      // Signing up again later (past the cooldown) still queues nothing.
      clock.advance(24 * 60 * 60_000);
      const again = await committer.runIn(batch, {
        input: signupSchema.parse({ name: 'B', email: 'blocked@example.com' }),
        meta: { now: clock(), page: '/' },
      });
      expect(again).toMatchObject({ emailQueued: false });
      expect(await store.db.selectFrom('outbox').selectAll().execute()).toHaveLength(1);
      await committer.idle();
    });
  });
}
