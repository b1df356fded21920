import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStore } from '../../store/database.ts';
import type { Database } from '../../store/schema.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { startSmtpSink, type SinkHooks, type SmtpSink } from '../../test/smtp-sink.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { captureUpdates } from '../../test/update-capture.ts';
import type { Kysely } from 'kysely';
import { smtpMailer, type Mailer } from './mailer.ts';
import { newOutboxRow, type Composer } from './outbox.ts';
import { OutboxWorker, retryDelayMs } from './outbox-worker.ts';
import { VisitorFirstPace } from './visitor-first-pace.ts';

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
      const to = await store.db
        .selectFrom('subscribers')
        .select(['email', 'status'])
        .where('id', '=', row.subscriber_id)
        .executeTakeFirst();
      if (!to || to.status === 'unsubscribed') return 'cancel';
      return { to: to.email, subject: 'A note', text: 'Hello', html: '<p>Hello</p>' };
    };
    // Each worker's pooled connections are closed after the test, as the mail plugin does on close.
    const opened: { worker: OutboxWorker; mailer: Mailer }[] = [];
    const worker = (
      smtpUrl: string,
      db: Kysely<Database> = store.db,
      broadcastRatePerSec?: number,
      concurrency = 1,
      more: {
        /** What the worker sends through, made from the SMTP mailer (which is closed after the test). */
        wrap?: (smtp: Mailer) => Mailer;
        visitorPace?: VisitorFirstPace;
        pollMs?: number;
      } = {},
    ) => {
      const mailer = smtpMailer(smtpUrl, FROM, concurrency);
      const w = new OutboxWorker({
        db,
        dialect,
        mailer: more.wrap ? more.wrap(mailer) : mailer,
        clock,
        kinds: new Map([['note', note]]),
        concurrency,
        ...(broadcastRatePerSec ? { broadcastRatePerSec } : {}),
        ...(more.visitorPace ? { visitorPace: more.visitorPace } : {}),
        ...(more.pollMs ? { pollMs: more.pollMs } : {}),
      });
      opened.push({ worker: w, mailer });
      return w;
    };

    const queue = async (email: string, kind = 'note', broadcastId: string | null = null) => {
      const id = await insertSubscriber(store.db, email, { now: clock() });
      await store.db
        .insertInto('outbox')
        .values(newOutboxRow(kind, id, clock(), broadcastId))
        .execute();
      return id;
    };
    const recipientsOf = () => sink.messages.map((m) => (m.to && 'text' in m.to ? m.to.text : ''));

    beforeEach(async () => {
      clock.set('2026-11-21T12:00:00.000Z');
      store = await openTestStore(dialect);
      sink = await startSmtpSink();
    });
    afterEach(async () => {
      for (const { worker: w, mailer } of opened.splice(0)) {
        await w.stop();
        mailer.close();
      }
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
        to.startsWith('gone')
          ? { code: 550, message: 'No such mailbox' }
          : to.startsWith('busy')
            ? { code: 451, message: 'Try again later' }
            : null,
      );
      await queue('gone@example.com');
      await queue('busy@example.com');
      await worker(sink.url).runOnce();
      const rows = await store.db
        .selectFrom('outbox')
        .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
        .select([
          'subscribers.email',
          'outbox.status',
          'outbox.attempts',
          'outbox.next_attempt_at',
          'outbox.last_error',
        ])
        .orderBy('subscribers.email')
        .execute();
      expect(rows[0]).toMatchObject({
        email: 'busy@example.com',
        status: 'pending',
        attempts: 1,
        next_attempt_at: '2026-11-21T12:00:30.000Z',
      });
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

    /**
     * A sink that holds every message (for which `holds` says so) in the middle of its SMTP
     * exchange until the test releases them, and counts how many it holds at once.
     */
    async function holdingSink(holds: (recipient: string) => boolean = () => true) {
      await sink.close();
      const newGate = () => {
        let open = () => {};
        const promise = new Promise<void>((resolve) => (open = resolve));
        return { promise, open };
      };
      let gate = newGate();
      const held = { now: 0, max: 0 };
      const changed: (() => void)[] = [];
      const hooks: SinkHooks = {
        async beforeAccept([to]) {
          if (!to || !holds(to)) return;
          held.now++;
          held.max = Math.max(held.max, held.now);
          for (const c of changed.splice(0)) c();
          await gate.promise;
          held.now--;
        },
      };
      sink = await startSmtpSink(0, undefined, hooks);
      return {
        held,
        /** Resolves once `n` messages are held (no timer: the sink's hook says when). */
        until: (n: number) =>
          new Promise<void>((resolve) => {
            const check = () => (held.now >= n ? resolve() : changed.push(check));
            check();
          }),
        release() {
          gate.open();
          gate = newGate();
        },
      };
    }

    it('has at most MAIL_CONCURRENCY emails in their SMTP exchange at once, over as many pooled connections', async () => {
      const hold = await holdingSink();
      for (let i = 0; i < 10; i++) await queue(`c${i}@example.com`);
      const w = worker(sink.url, store.db, undefined, 3);
      w.start();
      for (let sent = 0; sent < 10;) {
        // Every free slot is filled while the held ones wait: exactly 3 are held (the last round 1).
        const expected = Math.min(3, 10 - sent);
        await hold.until(expected);
        expect(hold.held.now).toBe(expected);
        hold.release();
        sent += expected;
        await sink.waitFor(sent);
      }
      expect(hold.held.max).toBe(3);
      expect(new Set(recipientsOf()).size).toBe(10);
      // Pooled: three connections carried ten emails.
      expect(sink.connections()).toBeLessThanOrEqual(3);
      await w.stop();
      const left = await store.db.selectFrom('outbox').select('status').where('status', '!=', 'sent').execute();
      expect(left).toEqual([]);
    });

    it('sends a confirmation queued during a broadcast at once: broadcast mail never takes the last slot', async () => {
      const hold = await holdingSink((to) => to.startsWith('b'));
      for (let i = 0; i < 40; i++) await queue(`b${i}@example.com`, 'note', 'bc-1');
      const w = worker(sink.url, store.db, 1000, 3);
      w.start();
      // Two of the three slots fill with broadcast mail, held at the server.
      await hold.until(2);
      await queue('confirm-me@example.com');
      w.nudge();
      await sink.waitFor(1);
      expect(recipientsOf()).toEqual(['confirm-me@example.com']);
      // The broadcast sends were still in their SMTP exchange when the confirmation went out.
      expect(hold.held.now).toBe(2);
      expect(hold.held.max).toBe(2);
      // Marked by its lease holder just after the server's 250.
      await vi.waitFor(async () => {
        const row = await store.db
          .selectFrom('outbox')
          .innerJoin('subscribers', 'subscribers.id', 'outbox.subscriber_id')
          .select('outbox.status')
          .where('subscribers.email', '=', 'confirm-me@example.com')
          .executeTakeFirstOrThrow();
        expect(row.status).toBe('sent');
      });
      // Released, the broadcast goes on to the end, two at a time.
      for (let sent = 1; sent < 41;) {
        await hold.until(Math.min(2, 41 - sent));
        const n = hold.held.now;
        hold.release();
        sent += n;
        await sink.waitFor(sent);
      }
      expect(hold.held.max).toBe(2);
      await w.stop();
    });

    it('claims a backlog of confirmations in batches, not once per email, and sends each once in queue order', async () => {
      const emails = Array.from({ length: 60 }, (_, i) => `q${String(i).padStart(2, '0')}@example.com`);
      for (const email of emails) {
        await queue(email);
        clock.advance(1);
      }
      const w = worker(sink.url);
      w.start();
      await sink.waitFor(60);
      await w.stop();
      expect(recipientsOf()).toEqual(emails);
      // A slot's worth per claim was one claim per email (60); full claims double the batch up to 32.
      expect(w.writes.claims).toBeLessThanOrEqual(12);
      const left = await store.db.selectFrom('outbox').select('status').where('status', '!=', 'sent').execute();
      expect(left).toEqual([]);
    });

    it('while visitors keep arriving and the loop is busy, spaces a backlog of emails at the floor, each still sent once, in order', async () => {
      const emails = Array.from({ length: 40 }, (_, i) => `v${String(i).padStart(2, '0')}@example.com`);
      for (const email of emails) {
        await queue(email);
        clock.advance(1);
      }
      const startedAt: number[] = [];
      // The loop reads as fully busy, as in a burst; 50 a second is 20 ms apart.
      const pace = new VisitorFirstPace({ busy: () => 1, floorPerSec: 50, tickMs: 10 });
      // When the pace let each email go: what it spaces. A send starts a compose later, and the
      // compose of one email can take longer than the next one's on a loaded machine, so the gaps
      // between sends are the pace's plus that jitter (a 7 ms gap seen under one core).
      const goes: number[] = [];
      const decide = pace.next.bind(pace);
      pace.next = (now: number) => {
        const wait = decide(now);
        if (wait === 0) goes.push(now);
        return wait;
      };
      // Every claim the worker sends, to tell its looks for broadcast rows from the others.
      const { db, updates } = captureUpdates(store.db);
      const w = worker(sink.url, db, undefined, 1, {
        wrap: (smtp) => ({ ...smtp, send: (m) => (startedAt.push(performance.now()), smtp.send(m)) }),
        visitorPace: pace,
      });
      // A visitor has arrived before the worker first looks, as in a burst; then one every 5 ms.
      const began = performance.now();
      w.nudge();
      const arrivals = setInterval(() => w.nudge(), 5);
      try {
        w.start();
        await sink.waitFor(40);
      } finally {
        clearInterval(arrivals);
      }
      expect(recipientsOf()).toEqual(emails);
      expect(pace.perSec).toBe(50);
      // While the claims come back full (a backlog: the first 20 here, well before the queue's
      // end), 50 a second: the pace lets one go every 20 ms at the most (a late timer saves up no
      // second turn), so never two at once, and the sends follow it. At the queue's end the
      // backlog is gone and the last few go as the slot allows.
      const paced = goes.slice(0, 10);
      const gaps = paced.slice(1).map((t, i) => t - (paced[i] ?? 0));
      expect(paced).toHaveLength(10);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(20 - 1);
      startedAt.slice(0, 10).forEach((sentAt, i) => expect(sentAt).toBeGreaterThanOrEqual(paced[i] ?? Infinity));
      // A visitor's nudge looks for confirmations, not for broadcast rows: those are looked for at
      // the start and at each poll (a second apart), where each nudge used to send the worker
      // looking (65 looks in this test before; a claim in nearly every group commit of a burst).
      const elapsedMs = performance.now() - began;
      const broadcastLooks = updates.filter((q) => /set "locked_by".*"broadcast_id" is not null/s.test(q.sql));
      expect(broadcastLooks.length).toBeLessThanOrEqual(1 + Math.ceil(elapsedMs / 1000));
    });

    it('finds rows nobody nudged about at its poll, however often visitors nudge in between', async () => {
      // The poll is how a broadcast row another instance queued (or a retry come due) is found:
      // a visitor's nudge does not look for broadcast rows (decision 0051), so a stream of them
      // must not keep putting the poll off.
      const w = worker(sink.url, store.db, undefined, 1, { pollMs: 100 });
      w.start();
      const arrivals = setInterval(() => w.nudge(), 10);
      try {
        // Started, looked once and found nothing; the broadcast row comes in without a word.
        await vi.waitFor(() => expect(w.writes.claims).toBeGreaterThan(0), { timeout: 5_000, interval: 10 });
        await queue('from-another-instance@example.com', 'note', 'bc-1');
        await sink.waitFor(1);
        expect(recipientsOf()).toEqual(['from-another-instance@example.com']);
      } finally {
        clearInterval(arrivals);
      }
    });

    it('a confirmation with no backlog behind it is not held by the pace, however busy the loop', async () => {
      await queue('trickle@example.com');
      // A pace that would space emails a second apart, and a loop that reads as fully busy.
      const pace = new VisitorFirstPace({ busy: () => 1, floorPerSec: 1, tickMs: 10 });
      const w = worker(sink.url, store.db, undefined, 1, { visitorPace: pace });
      w.nudge();
      w.start();
      const began = performance.now();
      await sink.waitFor(1);
      expect(recipientsOf()).toEqual(['trickle@example.com']);
      // Held by the pace, it would have waited its second.
      expect(performance.now() - began).toBeLessThan(900);
      expect(pace.perSec).toBe(Number.POSITIVE_INFINITY);
    });

    it('on stop, lets go of the rows it leased but had not started, and finishes the one under way', async () => {
      const hold = await holdingSink();
      for (let i = 0; i < 3; i++) await queue(`s${i}@example.com`);
      const w = worker(sink.url, store.db, undefined, 1);
      w.start();
      await hold.until(1);
      const leased = await store.db.selectFrom('outbox').select('id').where('locked_by', 'is not', null).execute();
      // One in its SMTP exchange, one more leased ahead of the slot.
      expect(leased).toHaveLength(2);
      const stopping = w.stop();
      hold.release();
      await stopping;
      const rows = await store.db.selectFrom('outbox').select(['status', 'locked_by']).orderBy('status').execute();
      expect(rows).toEqual([
        { status: 'pending', locked_by: null },
        { status: 'pending', locked_by: null },
        { status: 'sent', locked_by: null },
      ]);
      expect(recipientsOf()).toHaveLength(1);
    });
  });
}
