import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberDetailSchema } from '../../../shared/admin/subscribers.ts';
import { adminApiPaths, subscriberApiPath } from '../../../shared/paths.ts';
import { buildTestApp, memoryMailer, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { postSignupJson, visitPage } from '../../test/visitor.ts';
import { ConsoleClient, makeOperator, type TestOperator } from '../../test/admin-kit.ts';

// A person's record says whether mail reaches them (suppressed since when, why, heard from where;
// the last bounce or complaint), and a resend to a suppressed address is refused in words with
// nothing queued, rather than answered "on its way" and cancelled by the worker.

const MIN = 60_000;

describe.each(dialectCases)('mail status on a person’s record ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let op: TestOperator;
  let c: ConsoleClient;
  let n = 0;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store, mailer: memoryMailer() });
    op = await makeOperator(store.db, `mail-status-${dialect}@example.com`, t.clock());
    c = new ConsoleClient(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await store?.destroy();
  });

  /** A pending sign-up through the public form; its id. */
  const signUp = async (email: string) => {
    const visitor = await visitPage(t.app);
    // A form sent the instant its page arrived is a bot's, answered alike and not stored.
    t.clock.advance(MIN);
    const res = await postSignupJson(t.app, visitor, { name: 'Fan', email, comment: '' });
    expect(res.statusCode, res.body).toBe(200);
    return (
      await store.db.selectFrom('subscribers').select('id').where('email_key', '=', email).executeTakeFirstOrThrow()
    ).id;
  };
  const record = async (id: string) => {
    const res = await c.post(subscriberApiPath(adminApiPaths.subscriberDetails, id));
    expect(res.statusCode, res.body).toBe(200);
    return subscriberDetailSchema.parse(res.json());
  };
  const resend = (id: string) => c.post(subscriberApiPath(adminApiPaths.subscriberResend, id));
  const outbox = (id: string) =>
    store.db.selectFrom('outbox').select(['id', 'status']).where('subscriber_id', '=', id).execute();
  const resentAudits = async (id: string) =>
    (
      await store.db
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'subscriber.confirmation-resent')
        .where('subject', '=', id)
        .execute()
    ).length;

  it.skipIf(skip)(
    'shows a suppressed person’s status and refuses their resend in words, queuing nothing; after a lift the resend goes',
    async () => {
      n += 1;
      const email = `gone${n}@example.com`;
      const id = await signUp(email);
      await c.signIn(op, t.clock());
      expect((await record(id)).mail).toEqual({ suppressed: null, lastBounce: null });

      // The confirmation bounced: a DSN says the mailbox does not exist.
      const bouncedAt = t.clock().toISOString();
      expect(
        await t.app.suppressions.record(store.db, {
          source: 'dsn',
          eventId: `dsn-${n}`,
          kind: 'hard',
          address: email,
          detail: '5.1.1',
          now: t.clock(),
        }),
      ).toBe('suppressed');
      // Past the cool-down, so only the suppression stands in the way.
      t.clock.advance(16 * MIN);
      await c.signIn(op, t.clock());
      const seen = await record(id);
      expect(seen.mail).toEqual({
        suppressed: { since: bouncedAt, reason: 'hard-bounce', source: 'dsn', detail: '5.1.1' },
        lastBounce: { at: bouncedAt, kind: 'hard', source: 'dsn' },
      });
      expect(seen.resend).toEqual({ allowed: false, availableAt: null });

      const before = await outbox(id);
      const refused = await resend(id);
      expect(refused.statusCode).toBe(409);
      const day = bouncedAt.slice(0, 10);
      const minute = bouncedAt.slice(11, 16);
      expect(refused.json().error.message).toBe(
        `Nothing was sent: mail to this address is suppressed since ${day} ${minute} UTC (The address does not exist (hard bounce), reported as 5.1.1; heard from a bounce report in the bounce mailbox). An owner can lift the suppression on the Suppressions screen once the address works again.`,
      );
      expect(refused.json().error.message).not.toMatch(/on its way/);
      expect(await outbox(id)).toEqual(before);
      expect(await resentAudits(id)).toBe(0);

      // Lifted (an owner, on the Suppressions screen): mail may go again, and the resend does.
      await store.db
        .updateTable('suppressions')
        .set({ lifted_at: t.clock().toISOString(), lifted_by: op.email })
        .execute();
      const lifted = await record(id);
      expect(lifted.mail).toEqual({ suppressed: null, lastBounce: { at: bouncedAt, kind: 'hard', source: 'dsn' } });
      expect(lifted.resend.allowed).toBe(true);
      const ok = await resend(id);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().message).toMatch(/on its way/);
      expect(await outbox(id)).toHaveLength(before.length + 1);
    },
  );

  it.skipIf(skip)(
    'matches a suppression heard before the person signed up (by their address, not their row): a complaint, in words',
    async () => {
      n += 1;
      const email = `angry${n}@example.com`;
      await t.app.suppressions.record(store.db, {
        source: 'mailgun',
        eventId: `mg-${n}`,
        kind: 'complaint',
        address: email,
        detail: 'complained',
        now: t.clock(),
      });
      const heardAt = t.clock().toISOString();
      t.clock.advance(MIN);
      const id = await signUp(email);
      // A suppressed address's sign-up is stored like any other, and no confirmation is queued.
      expect(await outbox(id)).toEqual([]);
      t.clock.advance(16 * MIN);
      await c.signIn(op, t.clock());
      const refused = await resend(id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toMatch(
        /^Nothing was sent: mail to this address is suppressed since .* UTC \(Marked as spam \(complaint\), reported as complained; heard from Mailgun’s webhook\)\./,
      );
      expect(await outbox(id)).toEqual([]);
      expect((await record(id)).mail).toEqual({
        suppressed: { since: heardAt, reason: 'complaint', source: 'mailgun', detail: 'complained' },
        lastBounce: { at: heardAt, kind: 'complaint', source: 'mailgun' },
      });
    },
  );
});
