// A broadcast sent in batches (docs/decisions/0046-broadcast-throughput.md): rows leased many at a
// time and marked many at a time, by the real outbox worker with the app's group committer, the
// real broadcast composer and a real SMTP server. What the batches must not weaken: a pause stops
// the send as promptly as before, a crash resends at most the rows sent but not yet marked, and
// a whole send costs far fewer transactions than emails.
import { smtpMailer, type Mailer } from '../mail/mailer.ts';
import { OutboxWorker } from '../mail/outbox-worker.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/database.ts';
import { GroupCommitter } from '../../store/group-commit.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { startedBroadcast } from '../../test/brake-kit.ts';
import { broadcastComposer } from './broadcast-composer.ts';
import { pause, resume } from './broadcast-sending.ts';
import { BROADCAST_KIND } from './broadcast-store.ts';

const FROM = 'Diamond Hand <no-reply@dh.example>';
const RECIPIENTS = 200;
const CONCURRENCY = 4; // the default MAIL_CONCURRENCY: three slots for broadcast rows
const BROADCAST_SLOTS = CONCURRENCY - 1;

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`a broadcast sent in batches, on ${label}`, () => {
    let t: TestApp;
    let store: TestStore;
    let sink: SmtpSink;
    const clock = testClock();
    const opened: { worker: OutboxWorker; mailer: Mailer }[] = [];

    beforeEach(async () => {
      clock.set('2026-11-26T12:00:00.000Z');
      store = await openTestStore(dialect);
      t = await buildTestApp({ store, clock });
    });
    afterEach(async () => {
      for (const { worker, mailer } of opened.splice(0)) {
        await worker.stop();
        mailer.close();
      }
      await sink.close();
      await t.close();
      await store.destroy();
    });

    /** The worker as the mail plugin makes it, over `store` (the app's unless given). */
    const worker = (opts: { store?: Store; committer?: GroupCommitter; markBatch?: number; markDelayMs?: number }) => {
      const db = opts.store?.db ?? t.store.db;
      const mailer = smtpMailer(sink.url, FROM, CONCURRENCY);
      const w = new OutboxWorker({
        db,
        dialect,
        mailer,
        clock,
        kinds: new Map([
          [
            BROADCAST_KIND,
            broadcastComposer({ db, keys: t.app.keys, publicUrl: 'https://dh.example', siteName: 'Diamond Hand' }),
          ],
        ]),
        committer: opts.committer ?? t.app.committer,
        concurrency: CONCURRENCY,
        broadcastRatePerSec: 1000,
        ...(opts.markBatch ? { markBatch: opts.markBatch } : {}),
        ...(opts.markDelayMs ? { markDelayMs: opts.markDelayMs } : {}),
      });
      opened.push({ worker: w, mailer });
      return w;
    };
    const recipients = () => sink.messages.map((m) => (m.to && 'text' in m.to ? m.to.text : ''));
    const rowsOf = (id: string) =>
      t.store.db
        .selectFrom('outbox')
        .select(['status', 'attempts', 'locked_by', 'last_error'])
        .where('broadcast_id', '=', id)
        .execute();
    /** Resolves when `check` holds, polled; no fixed sleeps. */
    const until = async (check: () => boolean | Promise<boolean>, what: string) => {
      const end = Date.now() + 30_000;
      while (!(await check())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    it('sends every recipient once in far fewer transactions than emails', async () => {
      sink = await startSmtpSink();
      const { id } = await startedBroadcast(t.store.db, clock(), RECIPIENTS);
      const batchesBefore = t.app.committer.batches;
      const w = worker({});
      w.start();
      await sink.waitFor(RECIPIENTS, 60_000);
      await w.stop();
      expect(new Set(recipients()).size).toBe(RECIPIENTS);
      expect(recipients()).toHaveLength(RECIPIENTS);
      const rows = await rowsOf(id);
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 1 && r.locked_by === null)).toBe(true);
      // One claim for up to 32 rows ahead, one mark for up to 32 rows: a row at a time was
      // a claim and a mark per email (two transactions, or one when the committer joined them).
      expect(w.writes.rowsMarked).toBe(RECIPIENTS);
      console.log(
        `${label}: ${RECIPIENTS} emails, ${w.writes.claims} claims, ${w.writes.marks} marks, ${t.app.committer.batches - batchesBefore} commits`,
      );
      expect(w.writes.claims).toBeLessThanOrEqual(RECIPIENTS / 10);
      expect(w.writes.marks).toBeLessThanOrEqual(RECIPIENTS / 4);
      expect(w.writes.others).toBe(0);
      const commits = t.app.committer.batches - batchesBefore;
      expect(commits).toBeLessThanOrEqual(w.writes.claims + w.writes.marks);
      expect(commits / RECIPIENTS).toBeLessThan(0.5);
    });

    it('a pause mid-send lets out only the emails already in their SMTP exchange, not the rows leased ahead', async () => {
      // The sink holds each message in its exchange until the test lets it go.
      let open: () => void = () => {};
      let gate = new Promise<void>((resolve) => (open = resolve));
      let held = 0;
      sink = await startSmtpSink(0, undefined, {
        async beforeAccept() {
          held++;
          await gate;
          held--;
        },
      });
      const letGo = () => {
        open();
        gate = new Promise<void>((resolve) => (open = resolve));
      };
      const { id } = await startedBroadcast(t.store.db, clock(), RECIPIENTS);
      const w = worker({});
      w.start();
      // Mid-send: a few rounds have gone, the broadcast's slots are full again.
      const slotsFull = (round: number) =>
        until(
          () => held === BROADCAST_SLOTS && sink.messages.length === BROADCAST_SLOTS * round,
          'the broadcast slots to fill',
        );
      for (let round = 0; round < 3; round++) {
        await slotsFull(round);
        letGo();
      }
      await slotsFull(3);
      const leased = (await rowsOf(id)).filter((r) => r.status === 'pending' && r.locked_by !== null).length;
      // A batch is leased ahead of the slots (a row at a time leased four ahead).
      expect(leased).toBeGreaterThan(BROADCAST_SLOTS + CONCURRENCY + 10);

      expect(await pause(t.store.db, id, 'ops@example.com', clock())).toBe(true);
      const acceptedAtPause = sink.messages.length;
      const inExchange = held;
      expect(inExchange).toBe(BROADCAST_SLOTS);
      // Let everything go: the three in their exchange finish; nothing leased ahead follows.
      const releasing = setInterval(letGo, 5);
      try {
        await until(async () => {
          const rows = await rowsOf(id);
          return rows.every((r) => r.locked_by === null) && sink.messages.length >= acceptedAtPause + inExchange;
        }, 'the leased rows to be let go');
        // One more pass of the worker finds nothing to send: the rows let go wait for the resume.
        w.nudge('broadcast');
        await until(async () => (await rowsOf(id)).every((r) => r.locked_by === null), 'the worker to settle');
      } finally {
        clearInterval(releasing);
      }
      const afterPause = sink.messages.length - acceptedAtPause;
      expect(afterPause).toBe(inExchange);
      expect(afterPause).toBeLessThanOrEqual(BROADCAST_SLOTS);
      // Held without counting an attempt or an error: they are waiting, not failing.
      const waiting = (await rowsOf(id)).filter((r) => r.status === 'pending');
      expect(waiting.length).toBe(RECIPIENTS - sink.messages.length);
      expect(waiting.every((r) => r.attempts === 0 && r.last_error === null)).toBe(true);

      const releaseAll = setInterval(letGo, 5);
      try {
        expect(await resume(t.store.db, id, 'ops@example.com', clock())).toMatchObject({ resumed: true });
        w.nudge('broadcast');
        await sink.waitFor(RECIPIENTS, 60_000);
      } finally {
        clearInterval(releaseAll);
      }
      expect(new Set(recipients()).size).toBe(RECIPIENTS);
      expect(recipients()).toHaveLength(RECIPIENTS);
    });

    it('a crash mid-send resends only the rows sent but not yet marked; every recipient is accounted for', async () => {
      sink = await startSmtpSink();
      const { id } = await startedBroadcast(t.store.db, clock(), RECIPIENTS);
      // The worker on a connection of its own, which dies with it.
      const own = await openStore(store.url, store.pgSchema ? { pgSchema: store.pgSchema } : {});
      const markBatch = 8;
      // A long delay: marks are written by the count alone, so the window is MARK_BATCH's.
      const w = worker({ store: own, committer: new GroupCommitter(own.db), markBatch, markDelayMs: 60_000 });
      w.start();
      await sink.waitFor(60, 60_000);
      // The crash: its database connection and its mail connections end at once.
      await own.close().catch(() => undefined);
      opened[0]?.mailer.close();
      // Dead: it writes nothing more (its marks fail with the connection) and starts no send.
      await w.stop().catch(() => undefined);
      const marked = (await rowsOf(id)).filter((r) => r.status === 'sent').length;
      expect(marked).toBeGreaterThan(0);
      const sentByFirst = sink.messages.length;

      // The leases of the dead worker lapse (5 minutes: the database says so at once here).
      await t.store.db
        .updateTable('outbox')
        .set({ locked_until: '2000-01-01T00:00:00.000Z' })
        .where('broadcast_id', '=', id)
        .where('locked_by', 'is not', null)
        .execute();
      opened.shift();
      const again = worker({});
      again.start();
      await until(async () => (await rowsOf(id)).every((r) => r.status !== 'pending'), 'every row to be sent');
      await again.stop();
      const perRecipient = new Map<string, number>();
      for (const r of recipients()) perRecipient.set(r, (perRecipient.get(r) ?? 0) + 1);
      // Nobody missed; nobody mailed more than twice.
      expect(perRecipient.size).toBe(RECIPIENTS);
      expect(Math.max(...perRecipient.values())).toBeLessThanOrEqual(2);
      // Twice: only rows the first worker had sent and not marked, which are at most the marks
      // waiting for their batch, one batch committing, and the emails in their exchange.
      const twice = recipients().length - RECIPIENTS;
      expect(twice).toBeLessThanOrEqual(2 * markBatch + BROADCAST_SLOTS);
      // Every row the first worker sent and did not mark went again (one whose message the sink
      // was still reading at the crash may add to them), and no other row did.
      expect(twice).toBeGreaterThanOrEqual(sentByFirst - marked);
      expect((await rowsOf(id)).every((r) => r.status === 'sent')).toBe(true);
    });
  });
}
