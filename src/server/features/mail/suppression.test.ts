import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertSubscriber, noteWorker } from '../../test/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dialectCases, openTestStore, testClock, testSecrets, type TestStore } from '../../test/test-store.ts';
import { smtpMailer, type Mailer } from './mailer.ts';
import { newOutboxRow } from './outbox.ts';
import { GIVE_UP_AFTER_MS, type OutboxWorker } from './outbox-worker.ts';
import { normaliseAddress, Suppressions } from './suppression.ts';

const FROM = 'Diamond Hand <no-reply@dh.example>';
const DAY = 24 * 60 * 60_000;

describe('normaliseAddress', () => {
  it('drops the display name and case', () => {
    expect(normaliseAddress('Ada Lovelace <Ada@Example.COM>')).toBe('ada@example.com');
    expect(normaliseAddress('  BOB@example.com ')).toBe('bob@example.com');
  });
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`suppression list on ${label}`, () => {
    let store: TestStore;
    let sink: SmtpSink;
    let suppressions: Suppressions;
    const clock = testClock();
    const opened: { worker: OutboxWorker; mailer: Mailer }[] = [];

    const worker = () => {
      const mailer = smtpMailer(sink.url, FROM);
      const w = noteWorker({ db: store.db, dialect, mailer, clock, suppressions });
      opened.push({ worker: w, mailer });
      return w;
    };
    const queue = async (subscriberId: string) => {
      const row = newOutboxRow('note', subscriberId, clock());
      await store.db.insertInto('outbox').values(row).execute();
      return row.id;
    };
    const outboxRow = (id: string) =>
      store.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const standing = () => store.db.selectFrom('suppressions').selectAll().where('lifted_at', 'is', null).execute();

    const startSink = async (refuse: Record<string, number>) => {
      sink = await startSmtpSink(0, (rcpt) => {
        const code = refuse[rcpt.toLowerCase()];
        return code ? { code, message: code >= 500 ? '5.1.1 No such mailbox' : '4.2.2 Mailbox full' } : null;
      });
    };

    beforeEach(async () => {
      clock.set('2026-11-21T12:00:00.000Z');
      store = await openTestStore(dialect);
      suppressions = new Suppressions(testSecrets());
    });
    afterEach(async () => {
      for (const { worker: w, mailer } of opened.splice(0)) {
        await w.stop();
        mailer.close();
      }
      await sink?.close();
      await store.destroy();
    });

    it('suppresses an address the mail server refuses with 5xx, and never mails it again', async () => {
      await startSink({ 'gone@example.com': 550 });
      const id = await insertSubscriber(store.db, 'Gone@Example.com', { now: clock() });
      const first = await queue(id);
      await worker().runOnce();
      expect(await outboxRow(first)).toMatchObject({ status: 'failed' });
      const [row, ...more] = await standing();
      expect(more).toEqual([]);
      expect(row).toMatchObject({ reason: 'hard-bounce', source: 'smtp', subscriber_id: id, detail: '5.1.1' });
      // The list keeps no address: only its keyed hash.
      expect(JSON.stringify(row)).not.toMatch(/gone@/i);

      const second = await queue(id);
      await worker().runOnce();
      expect(await outboxRow(second)).toMatchObject({
        status: 'cancelled',
        last_error: expect.stringMatching(/suppress/),
      });
      expect(sink.messages).toEqual([]);
    });

    it('counts a 4xx until the row is given up as one soft bounce; the third in seven days suppresses', async () => {
      await startSink({ 'full@example.com': 452 });
      const id = await insertSubscriber(store.db, 'full@example.com', { now: clock() });
      for (let i = 0; i < 3; i++) {
        const rowId = await queue(id);
        await worker().runOnce();
        // Retried, not a bounce yet.
        expect(await outboxRow(rowId)).toMatchObject({ status: 'pending' });
        clock.advance(GIVE_UP_AFTER_MS);
        await worker().runOnce();
        expect(await outboxRow(rowId)).toMatchObject({ status: 'failed' });
        expect(await standing()).toHaveLength(i < 2 ? 0 : 1);
        clock.advance(DAY / 4);
      }
      expect(await standing()).toMatchObject([{ reason: 'soft-bounce-limit' }]);
    });

    it('lets soft bounces further apart than seven days go by', async () => {
      for (let i = 0; i < 4; i++) {
        const outcome = await suppressions.record(store.db, {
          source: 'dsn',
          eventId: `e${i}`,
          kind: 'soft',
          address: 'slow@example.com',
          now: clock(),
        });
        expect(outcome).toBe('counted');
        clock.advance(4 * DAY);
      }
      expect(await standing()).toEqual([]);
    });

    it('counts the same event once', async () => {
      const e = { source: 'mailgun', eventId: 'evt-1', kind: 'soft' as const, address: 'twice@example.com' };
      expect(await suppressions.record(store.db, { ...e, now: clock() })).toBe('counted');
      expect(await suppressions.record(store.db, { ...e, now: clock() })).toBe('duplicate');
      expect(await suppressions.record(store.db, { ...e, now: clock() })).toBe('duplicate');
      expect(await store.db.selectFrom('bounce_events').selectAll().execute()).toHaveLength(1);
      expect(await standing()).toEqual([]);
    });

    describe('a policy or content refusal (554 5.7.1: a receiver’s filter)', () => {
      const refusals = () =>
        store.db.selectFrom('bounce_events').select(['kind', 'source']).where('kind', '=', 'policy').execute();
      const refuseFiltered = () =>
        startSmtpSink(0, (rcpt) =>
          rcpt.toLowerCase().startsWith('filtered')
            ? { code: 554, message: '5.7.1 Message refused: content looks like spam' }
            : null,
        ).then((s) => (sink = s));

      it('is recorded as a policy refusal, not a hard bounce, and a launch’s few emails do not suppress', async () => {
        await refuseFiltered();
        const id = await insertSubscriber(store.db, 'filtered@example.com', { now: clock() });
        // A launch: the confirmation, a resend and a broadcast within days, all refused by one filter.
        for (let i = 0; i < 3; i++) {
          const rowId = await queue(id);
          await worker().runOnce();
          // The email itself is given up (the same content will be refused again) …
          expect(await outboxRow(rowId)).toMatchObject({ status: 'failed' });
          clock.advance(2 * DAY);
        }
        // … but the address is not suppressed.
        expect(await refusals()).toEqual([
          { kind: 'policy', source: 'smtp' },
          { kind: 'policy', source: 'smtp' },
          { kind: 'policy', source: 'smtp' },
        ]);
        expect(await standing()).toEqual([]);
        expect(await suppressions.isSuppressed(store.db, 'filtered@example.com')).toBe(false);
      });

      it('suppresses once three different emails were refused over 14 days or more (within 60)', async () => {
        await refuseFiltered();
        const id = await insertSubscriber(store.db, 'filtered-for-good@example.com', { now: clock() });
        for (const gapDays of [0, 8, 6]) {
          clock.advance(gapDays * DAY);
          await queue(id);
          await worker().runOnce();
          // The first two, and the third at 14 days from the first, … (checked after the loop)
          if (gapDays !== 6) expect(await standing()).toEqual([]);
        }
        const [row, ...more] = await standing();
        expect(more).toEqual([]);
        expect(row).toMatchObject({ reason: 'policy-refusals', source: 'smtp', detail: '5.7.1', subscriber_id: id });
      });

      it('lets refusals spread over more than 60 days go by', async () => {
        await refuseFiltered();
        const id = await insertSubscriber(store.db, 'filtered-now-and-then@example.com', { now: clock() });
        for (const gapDays of [0, 40, 40]) {
          clock.advance(gapDays * DAY);
          await queue(id);
          await worker().runOnce();
        }
        expect(await refusals()).toHaveLength(3);
        expect(await standing()).toEqual([]);
      });
    });

    it('a complaint suppresses, unsubscribes and cancels what was waiting', async () => {
      const id = await insertSubscriber(store.db, 'angry@example.com', { status: 'confirmed', now: clock() });
      const waiting = await queue(id);
      expect(
        await suppressions.record(store.db, {
          source: 'arf',
          eventId: 'c1',
          kind: 'complaint',
          address: 'ANGRY@example.com',
          now: clock(),
        }),
      ).toBe('suppressed');
      expect(await standing()).toMatchObject([{ reason: 'complaint', subscriber_id: id }]);
      expect(
        await store.db.selectFrom('subscribers').select('status').where('id', '=', id).executeTakeFirstOrThrow(),
      ).toEqual({ status: 'unsubscribed' });
      expect(await outboxRow(waiting)).toMatchObject({ status: 'cancelled' });
    });
  });
}
