import { describe, expect, it } from 'vitest';
import { dialectCases, testClock } from '../../test/test-store.ts';
import { brakeReason, minSampleOf, reasonPastSample } from './broadcast-brake.ts';
import { brakeStore, startedBroadcast } from '../../test/brake-kit.ts';
import { resume } from './broadcast-sending.ts';
import { progressOf, toBroadcast } from './broadcast-view.ts';

describe('brakeReason', () => {
  it('waits for the larger of 200 sent or 2 % of the recipients', () => {
    expect(minSampleOf(1_000)).toBe(200);
    expect(minSampleOf(50_000)).toBe(1_000);
    expect(brakeReason({ sent: 199, hard: 100, complaints: 100 }, 1_000)).toBeNull();
    expect(brakeReason({ sent: 999, hard: 100, complaints: 0 }, 50_000)).toBeNull();
  });
  it('pauses above 5 % hard bounces and above 0.1 % complaints, not at them', () => {
    expect(brakeReason({ sent: 1_000, hard: 50, complaints: 1 }, 1_000)).toBeNull();
    expect(brakeReason({ sent: 1_000, hard: 51, complaints: 0 }, 1_000)).toBe(
      'Hard bounces reached 5.1 % (51 of 1000 sent), above the 5 % limit.',
    );
    expect(brakeReason({ sent: 1_000, hard: 0, complaints: 2 }, 1_000)).toBe(
      'Complaints reached 0.2 % (2 of 1000 sent), above the 0.1 % limit.',
    );
  });
  it('never pauses on one complaint, whatever its rate: any one subscriber can file one', () => {
    expect(brakeReason({ sent: 337, hard: 0, complaints: 1 }, 1_000)).toBeNull();
    expect(brakeReason({ sent: 200, hard: 0, complaints: 1 }, 200)).toBeNull();
    expect(brakeReason({ sent: 337, hard: 0, complaints: 2 }, 1_000)).toBe(
      'Complaints reached 0.59 % (2 of 337 sent), above the 0.1 % limit.',
    );
    // From 2,000 sent the rate decides alone again: 2 is then at or under 0.1 %.
    expect(brakeReason({ sent: 2_000, hard: 0, complaints: 2 }, 5_000)).toBeNull();
    expect(brakeReason({ sent: 2_000, hard: 0, complaints: 3 }, 5_000)).toBe(
      'Complaints reached 0.15 % (3 of 2000 sent), above the 0.1 % limit.',
    );
  });
  it('asks hard bounces for a count too: fewer than 10 are no verdict, whatever their rate', () => {
    expect(reasonPastSample({ sent: 100, hard: 9, complaints: 0 })).toBeNull();
    expect(reasonPastSample({ sent: 100, hard: 10, complaints: 0 })).toBe(
      'Hard bounces reached 10 % (10 of 100 sent), above the 5 % limit.',
    );
    expect(reasonPastSample({ sent: 100, hard: 0, complaints: 1 })).toBeNull();
  });
});

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`a broadcast that stops itself on ${label}`, () => {
    const t = brakeStore(dialect);
    const clock = testClock();

    /** A 1,000-recipient broadcast, sending; returns its id and its rows' ids in order. */
    const sending = async () => {
      const { id, rows } = await startedBroadcast(t.db.db, clock());
      return { id, rows: rows.map((r) => r.id) };
    };
    /** The mail server took the first `n` rows (as the worker marks them). */
    const sentUpTo = async (rows: string[], n: number) => {
      await t.db.db
        .updateTable('outbox')
        .set({ status: 'sent', sent_at: clock().toISOString() })
        .where('id', 'in', rows.slice(0, n))
        .execute();
    };
    /** A DSN for this row, heard in the bounce mailbox: the real event path. */
    const bounce = (row: string | undefined, eventId: string, kind: 'hard' | 'complaint' = 'hard') =>
      t.kit.intake.byEnvelope(t.kit.verp.address(row ?? 'missing'), {
        kind,
        source: kind === 'hard' ? 'dsn' : 'arf',
        eventId,
        now: clock(),
      });
    const state = async (id: string) =>
      await t.db.db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const autoPauses = (id: string) =>
      t.db.db
        .selectFrom('audit_log')
        .selectAll()
        .where('subject', '=', id)
        .where('action', '=', 'broadcast.auto-paused')
        .execute();

    it('does not judge below the sample, pauses once past 5 % hard bounces, and audits it once', async () => {
      const { id, rows } = await sending();
      await sentUpTo(rows, 100);
      // 20 % of 100 sent: alarming, but 100 is below the sample of 200.
      for (let i = 0; i < 20; i++) expect(await bounce(rows[i], `dsn-${i}`)).toBe('suppressed');
      expect((await state(id)).status).toBe('sending');

      await sentUpTo(rows, 900);
      // 45 of 900 is exactly 5 %: not above it.
      for (let i = 20; i < 45; i++) await bounce(rows[i], `dsn-${i}`);
      expect((await state(id)).status).toBe('sending');
      await bounce(rows[45], 'dsn-45');
      const paused = await state(id);
      expect(paused).toMatchObject({ status: 'paused', paused_by: 'automatic' });
      expect(paused.paused_reason).toBe('Hard bounces reached 5.11 % (46 of 900 sent), above the 5 % limit.');
      // Rows not yet sent are held back, as an operator's pause holds them.
      const held = await t.db.db
        .selectFrom('outbox')
        .select('next_attempt_at')
        .where('broadcast_id', '=', id)
        .where('status', '=', 'pending')
        .execute();
      expect(held).toHaveLength(100);
      expect(held.every((r) => r.next_attempt_at.startsWith('9999'))).toBe(true);

      for (let i = 46; i < 60; i++) await bounce(rows[i], `dsn-${i}`);
      const audited = await autoPauses(id);
      expect(audited).toHaveLength(1);
      expect(audited[0]).toMatchObject({ actor: null, via: 'system', detail: paused.paused_reason });

      const { progress } = await progressOf(t.db.db, await state(id), 10);
      expect(progress).toMatchObject({
        sent: 900,
        delivered: 900 - 60,
        bounced: { hard: 60, soft: 0 },
        complained: 0,
        queued: 100,
      });
    });

    it('pauses past 0.1 % complaints after the sample, once', async () => {
      const { id, rows } = await sending();
      await sentUpTo(rows, 150);
      for (let i = 0; i < 3; i++) await bounce(rows[i], `arf-${i}`, 'complaint');
      expect((await state(id)).status).toBe('sending');
      await sentUpTo(rows, 990);
      // 3 of 990 is 0.3 %: the next complaint re-counts and pauses.
      await bounce(rows[3], 'arf-3', 'complaint');
      expect(await state(id)).toMatchObject({
        status: 'paused',
        paused_by: 'automatic',
        paused_reason: 'Complaints reached 0.4 % (4 of 990 sent), above the 0.1 % limit.',
      });
      await bounce(rows[4], 'arf-4', 'complaint');
      expect(await autoPauses(id)).toHaveLength(1);
      const { progress } = await progressOf(t.db.db, await state(id), 10);
      // A complaint is a delivery; its person is suppressed (and unsubscribed).
      expect(progress).toMatchObject({ sent: 990, delivered: 990, complained: 5 });
    });

    it('does not pause on one complaint in 337 sent (one person), and pauses on the second', async () => {
      const { id, rows } = await sending();
      await sentUpTo(rows, 337);
      expect(await bounce(rows[5], 'arf-5', 'complaint')).toBe('suppressed');
      expect((await state(id)).status).toBe('sending');
      expect(await autoPauses(id)).toHaveLength(0);
      // The same person's report heard again, by another source: still one row, one complaint.
      await bounce(rows[5], 'arf-5-again', 'complaint');
      expect((await state(id)).status).toBe('sending');
      await bounce(rows[9], 'arf-9', 'complaint');
      expect(await state(id)).toMatchObject({
        status: 'paused',
        paused_by: 'automatic',
        paused_reason: 'Complaints reached 0.59 % (2 of 337 sent), above the 0.1 % limit.',
      });
      expect(await autoPauses(id)).toHaveLength(1);
    });

    it('counts the same event once, and a row heard twice once', async () => {
      const { id, rows } = await sending();
      await sentUpTo(rows, 900);
      for (let i = 0; i < 45; i++) await bounce(rows[i], `dsn-${i}`);
      expect(await bounce(rows[44], 'dsn-44')).toBe('duplicate');
      // Another report of a row already counted (a second DSN): still 45 rows of 900.
      await bounce(rows[44], 'dsn-44-again');
      expect((await state(id)).status).toBe('sending');
      await bounce(rows[45], 'dsn-45');
      expect((await state(id)).status).toBe('paused');
    });

    it('pauses once when many events past the threshold are stored at once', async () => {
      const { id, rows } = await sending();
      await sentUpTo(rows, 900);
      for (let i = 0; i < 45; i++) await bounce(rows[i], `dsn-${i}`);
      // Concurrent transactions (separate connections on PostgreSQL), as two instances would be.
      await Promise.all(Array.from({ length: 8 }, (_, k) => bounce(rows[45 + k], `dsn-${45 + k}`)));
      expect((await state(id)).status).toBe('paused');
      expect(await autoPauses(id)).toHaveLength(1);
    });

    it('is resumed only by an operator, and the row says who overrode the automatic pause', async () => {
      const { id, rows } = await sending();
      await sentUpTo(rows, 900);
      for (let i = 0; i < 46; i++) await bounce(rows[i], `dsn-${i}`);
      expect(await resume(t.db.db, id, 'bob@example.com', clock())).toEqual({
        resumed: true,
        overrode: 'Hard bounces reached 5.11 % (46 of 900 sent), above the 5 % limit.',
      });
      const b = await state(id);
      expect(b).toMatchObject({ status: 'sending', pause_overridden_by: 'bob@example.com' });
      expect(
        toBroadcast(b, 'sending', (await progressOf(t.db.db, b, 10)).progress, null, 1).automaticPause,
      ).toMatchObject({
        overriddenBy: 'bob@example.com',
      });
      // The operator decided: later bounces, the rate still above 5 %, do not pause it again.
      await bounce(rows[46], 'dsn-46');
      expect((await state(id)).status).toBe('sending');
      expect(await autoPauses(id)).toHaveLength(1);
    });
  });
}
