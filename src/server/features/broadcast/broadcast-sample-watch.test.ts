import { beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, memoryMailer } from '../../test/built-app.ts';
import { dialectCases, testClock } from '../../test/test-store.ts';
import { brakeStore, startedBroadcast } from '../../test/brake-kit.ts';
import { SampleWatch } from './broadcast-sample-watch.ts';

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`the brake re-checked as rows are sent, on ${label}`, () => {
    const t = brakeStore(dialect);
    let watch: SampleWatch;
    const errors: unknown[] = [];
    const clock = testClock();

    beforeEach(() => {
      watch = new SampleWatch(t.db.db, clock, (e) => errors.push(e));
      errors.length = 0;
    });

    /** A 1,000-recipient broadcast (sample: 200), sending; its rows' ids in order. */
    const sending = async () => {
      const { id, rows } = await startedBroadcast(t.db.db, clock());
      return { id, rows: rows.map((r) => r.id) };
    };
    /** Marks rows [from, to) sent and tells the watch of each, as the worker and mail plugin do. */
    const send = async (id: string, rows: string[], from: number, to: number) => {
      for (const row of rows.slice(from, to)) {
        await t.db.db
          .updateTable('outbox')
          .set({ status: 'sent', sent_at: clock().toISOString() })
          .where('id', '=', row)
          .execute();
        watch.rowSent(id);
      }
      await watch.idle(id);
    };
    const complaint = (row: string | undefined, eventId: string) =>
      t.kit.intake.byEnvelope(t.kit.verp.address(row ?? 'missing'), {
        kind: 'complaint',
        source: 'arf',
        eventId,
        now: clock(),
      });
    const state = (id: string) =>
      t.db.db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    // A sample sent through a real outbox and SMTP sink: about 6 s on PostgreSQL here.
    it(
      'complaints heard before the sample pause the broadcast once the sample is sent, with no further event',
      { timeout: 40_000 },
      async () => {
        const { id, rows } = await sending();
        await send(id, rows, 0, 50);
        // Two complaints among the first 50: 4 %, but no verdict below 200 sent.
        await complaint(rows[3], 'arf-1');
        await complaint(rows[7], 'arf-2');
        await send(id, rows, 50, 199);
        expect((await state(id)).status).toBe('sending');
        await send(id, rows, 199, 200);
        // Or, had the 200th read been coalesced into a later one, at most a row or two later.
        await expect.poll(async () => (await state(id)).status).toBe('paused');
        const paused = await state(id);
        expect(paused.paused_by).toBe('automatic');
        expect(paused.paused_reason).toMatch(
          /^Complaints reached 1 % \(2 of 20[0-9] sent\), above the 0\.1 % limit\.$/,
        );
        const audited = await t.db.db
          .selectFrom('audit_log')
          .select('actor')
          .where('subject', '=', id)
          .where('action', '=', 'broadcast.auto-paused')
          .execute();
        expect(audited).toEqual([{ actor: null }]);
        expect(errors).toEqual([]);
      },
    );

    it('reads a broadcast only until its sample is judged; one within the limits is left sending and read no more', async () => {
      const { id, rows } = await sending();
      await send(id, rows, 0, 150);
      expect(await watch.check(id)).toBe('waiting');
      await send(id, rows, 150, 250);
      expect((await state(id)).status).toBe('sending');
      // Settled: a later read is not even attempted (a check would say 'checked' again).
      const spy = { reads: 0 };
      const original = watch.check.bind(watch);
      watch.check = async (b) => {
        spy.reads++;
        return original(b);
      };
      await send(id, rows, 250, 300);
      expect(spy.reads).toBe(0);
    });

    it('leaves a broadcast whose automatic pause an operator overrode', async () => {
      const { id, rows } = await sending();
      await t.db.db
        .updateTable('broadcasts')
        .set({ pause_overridden_by: 'ann@example.com' })
        .where('id', '=', id)
        .execute();
      await complaint(rows[0], 'arf-1');
      await send(id, rows, 0, 200);
      expect(await watch.check(id)).toBe('done');
      expect((await state(id)).status).toBe('sending');
    });
  });
}

describe('the brake re-checked as rows are sent, as the app wires it', () => {
  it('the outbox worker sending the 200th row pauses a broadcast whose complaints all came before the sample', async () => {
    const mailer = memoryMailer();
    // 100 broadcast emails per second of the test clock: each pass of the worker sends 100.
    const t = await buildTestApp({ mailer, env: { MAIL_RATE_PER_SEC: '100' } });
    try {
      const { id } = await startedBroadcast(t.store.db, t.clock());
      await t.app.jobs.runOnce('outbox');
      expect(mailer.sent).toHaveLength(100);
      for (const [i, m] of mailer.sent.slice(0, 2).entries()) {
        expect(
          await t.app.bounces.byEnvelope(m.envelopeFrom ?? '', {
            kind: 'complaint',
            source: 'arf',
            eventId: `arf-${i}`,
            now: t.clock(),
          }),
        ).toBe('suppressed');
      }
      const status = async () =>
        (await t.store.db.selectFrom('broadcasts').select('status').where('id', '=', id).executeTakeFirstOrThrow())
          .status;
      expect(await status()).toBe('sending');
      t.clock.advance(1_000);
      await t.app.jobs.runOnce('outbox');
      expect(mailer.sent).toHaveLength(200);
      await expect.poll(status).toBe('paused');
      // Held back: the next pass sends nothing more of it.
      t.clock.advance(1_000);
      await t.app.jobs.runOnce('outbox');
      expect(mailer.sent).toHaveLength(200);
    } finally {
      await t.close();
    }
  });
});
