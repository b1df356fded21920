import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../store/database.ts';
import type { Database } from '../store/schema.ts';
import { insertSubscriber } from '../test/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../test/test-store.ts';
import type { Kysely } from 'kysely';
import { smtpMailer } from './mailer.ts';
import { newOutboxRow, type Composer } from './outbox.ts';
import { OutboxWorker, retryDelayMs } from './outbox-worker.ts';

const FROM = 'Diamond Hand <no-reply@dh.example>';

describe('retryDelayMs', () => {
  it('backs off from 30 s, doubling, up to 16 min', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n) / 1000)).toEqual([30, 60, 120, 240, 480, 960, 960, 960]);
  });
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`outbox worker on ${label}, mailing a real SMTP server`, () => {
    let store: TestStore;
    let sink: SmtpSink;
    const clock = testClock();

    // A kind of our own: the worker knows kinds only by their registered composers.
    const note: Composer = async (row) => {
      const to = await store.db.selectFrom('subscribers').select(['email', 'status']).where('id', '=', row.subscriber_id).executeTakeFirst();
      if (!to || to.status === 'unsubscribed') return 'cancel';
      return { to: to.email, subject: 'A note', text: 'Hello', html: '<p>Hello</p>' };
    };
    const worker = (smtpUrl: string, db: Kysely<Database> = store.db, broadcastRatePerSec?: number) =>
      new OutboxWorker({
        db,
        dialect,
        mailer: smtpMailer(smtpUrl, FROM),
        clock,
        kinds: new Map([['note', note]]),
        ...(broadcastRatePerSec ? { broadcastRatePerSec } : {}),
      });

    const queue = async (email: string, kind = 'note', broadcastId: string | null = null) => {
      const id = await insertSubscriber(store.db, email, { now: clock() });
      await store.db.insertInto('outbox').values(newOutboxRow(kind, id, clock(), broadcastId)).execute();
      return id;
    };
    const recipientsOf = () => sink.messages.map((m) => (m.to && 'text' in m.to ? m.to.text : ''));

    beforeEach(async () => {
      clock.set('2026-11-21T12:00:00.000Z');
      store = await openTestStore(dialect);
      sink = await startSmtpSink();
    });
    afterEach(async () => {
      await sink.close();
      await store.destroy();
    });

    it('sends a queued row with its kind’s composer and marks it sent', async () => {
      await queue('ada@example.com');
      expect(await worker(sink.url).runOnce()).toBe(1);
      const [mail] = await sink.waitFor(1);
      expect(mail?.subject).toBe('A note');
      expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe('ada@example.com');
      const row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'sent', attempts: 1, locked_by: null });
    });

    it('retries with back-off while the mail server is down, then delivers once it is back', async () => {
      const port = sink.port;
      await sink.close();
      await queue('bob@example.com');
      const w = worker(`smtp://127.0.0.1:${port}`);
      await w.runOnce();
      let row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: '2026-11-21T12:00:30.000Z' });
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);

      expect(await w.runOnce()).toBe(0); // not due yet
      clock.advance(30_000);
      await w.runOnce();
      row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ attempts: 2, next_attempt_at: '2026-11-21T12:01:30.000Z' });

      sink = await startSmtpSink(port);
      clock.advance(60_000);
      expect(await w.runOnce()).toBe(1);
      const [mail] = await sink.waitFor(1);
      expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe('bob@example.com');
      row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
    });

    it('keeps a row of a kind this instance does not know, for an instance that does', async () => {
      await queue('dan@example.com', 'from-a-newer-version');
      await worker(sink.url).runOnce();
      const row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.last_error).toContain('no composer for outbox kind "from-a-newer-version"');
      expect(sink.messages).toHaveLength(0);
    });

    it('two instances sharing the database never send the same email twice', async () => {
      for (let i = 0; i < 30; i++) await queue(`p${i}@example.com`);
      const second = await openStore(store.url, store.pgSchema ? { pgSchema: store.pgSchema } : {});
      try {
        const a = worker(sink.url);
        const b = worker(sink.url, second.db);
        const drain = async (w: OutboxWorker) => {
          while ((await w.runOnce()) > 0);
        };
        await Promise.all([drain(a), drain(b)]);
        // A send resolves only once the server has taken the message, so the count is final here.
        const recipients = sink.messages.map((m) => (m.to && 'text' in m.to ? m.to.text : ''));
        expect(recipients).toHaveLength(30);
        expect(new Set(recipients).size).toBe(30);
      } finally {
        await second.close();
      }
    });

    it('marks a row cancelled when its composer says it should no longer go out', async () => {
      const id = await queue('carol@example.com');
      await store.db.updateTable('subscribers').set({ status: 'unsubscribed' }).where('id', '=', id).execute();
      await worker(sink.url).runOnce();
      const row = await store.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(row.status).toBe('cancelled');
      expect(sink.messages).toHaveLength(0);
    });

    it('marks a recipient failed at once on a 5xx answer, and retries a 4xx answer with back-off', async () => {
      await sink.close();
      sink = await startSmtpSink(0, (to) =>
        to.startsWith('gone') ? { code: 550, message: 'No such mailbox' } : to.startsWith('busy') ? { code: 451, message: 'Try again later' } : null,
      );
      await queue('gone@example.com');
      await queue('busy@example.com');
      await worker(sink.url).runOnce();
      const rows = await store.db
        .selectFrom('outbox')
        .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
        .select(['subscribers.email', 'outbox.status', 'outbox.attempts', 'outbox.next_attempt_at', 'outbox.last_error'])
        .orderBy('subscribers.email')
        .execute();
      expect(rows[0]).toMatchObject({ email: 'busy@example.com', status: 'pending', attempts: 1, next_attempt_at: '2026-11-21T12:00:30.000Z' });
      expect(rows[0]?.last_error).toMatch(/451/);
      expect(rows[1]).toMatchObject({ email: 'gone@example.com', status: 'failed', attempts: 1 });
      expect(rows[1]?.last_error).toMatch(/550/);
    });

    it('sends every other kind before broadcast rows, and paces broadcast rows at the set rate', async () => {
      for (let i = 0; i < 6; i++) await queue(`b${i}@example.com`, 'note', 'bc-1');
      clock.advance(1000);
      await queue('confirm-me@example.com');
      const w = worker(sink.url, store.db, 2);
      // The first run: the waiting non-broadcast row, then one second's worth (2) of the broadcast.
      expect(await w.runOnce()).toBe(3);
      expect(recipientsOf()[0]).toBe('confirm-me@example.com');
      expect(await w.runOnce()).toBe(0); // no time has passed: the pace allows nothing more
      clock.advance(500);
      expect(await w.runOnce()).toBe(1);
      clock.advance(1000);
      expect(await w.runOnce()).toBe(2);
      clock.advance(10_000);
      expect(await w.runOnce()).toBe(1);
      expect(recipientsOf()).toHaveLength(7);
    });
  });
}
