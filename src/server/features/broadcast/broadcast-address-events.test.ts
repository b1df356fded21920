import { describe, expect, it } from 'vitest';
import { dialectCases, testClock } from '../../test/test-store.ts';
import { ratesOf } from './broadcast-brake.ts';
import { brakeStore, startedBroadcast } from '../../test/brake-kit.ts';

// A provider's webhook names the recipient's address, not our email (decision 0040): it still
// suppresses the address, and counts towards the latest broadcast that mailed it within 7 days.
const DAY = 24 * 60 * 60_000;

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`provider events naming only an address, on ${label}`, () => {
    const t = brakeStore(dialect);
    const clock = testClock();

    /** A 1,000-recipient broadcast with its first `sent` rows sent at `at`; each row's id and address. */
    const broadcast = async (sent: number, at: Date) => {
      const { id, rows } = await startedBroadcast(t.db.db, clock());
      if (sent > 0)
        await t.db.db
          .updateTable('outbox')
          .set({ status: 'sent', sent_at: at.toISOString() })
          .where(
            'id',
            'in',
            rows.slice(0, sent).map((r) => r.id),
          )
          .execute();
      return { id, rows };
    };
    const provider = (address: string, eventId: string, kind: 'hard' | 'complaint', now = clock()) =>
      t.kit.suppressions.record(t.db.db, { source: 'mailgun', eventId, kind, address, detail: kind, now });
    const eventRow = (eventId: string) =>
      t.db.db.selectFrom('bounce_events').select('outbox_id').where('event_id', '=', eventId).executeTakeFirstOrThrow();
    const status = async (id: string) =>
      (await t.db.db.selectFrom('broadcasts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

    it('suppresses the address, counts towards the broadcast that mailed it, and the brake pauses on it', async () => {
      const { id, rows } = await broadcast(300, clock());
      const [first, second, third] = rows;
      if (!first || !second || !third) throw new Error('no rows');
      // The provider writes the address its own way: case and a display name do not matter.
      expect(await provider(`Fan <${first.email.toUpperCase()}>`, 'mg-1', 'complaint')).toBe('suppressed');
      expect(await eventRow('mg-1')).toEqual({ outbox_id: first.id });
      expect(await t.kit.suppressions.isSuppressed(t.db.db, first.email)).toBe(true);
      expect(await ratesOf(t.db.db, id)).toMatchObject({ sent: 300, complaints: 1 });
      // One complaint is one person, whatever its rate (COMPLAINT_MIN_COUNT); a second person's
      // makes 2 of 300 sent, 0.67 %: past the 0.1 % limit, and past the sample of 200.
      expect(await status(id)).toBe('sending');
      expect(await provider(third.email, 'mg-3', 'complaint')).toBe('suppressed');
      expect(await status(id)).toBe('paused');
      expect(await ratesOf(t.db.db, id)).toMatchObject({ sent: 300, complaints: 2 });

      // The same email heard through its VERP address too: its row counts once.
      await t.kit.intake.byEnvelope(t.kit.verp.address(second.id), {
        kind: 'hard',
        source: 'dsn',
        eventId: 'dsn-2',
        now: clock(),
      });
      await provider(second.email, 'mg-2', 'hard');
      expect(await eventRow('mg-2')).toEqual({ outbox_id: second.id });
      expect((await ratesOf(t.db.db, id)).hard).toBe(1);
    });

    it('counts an event that arrives while its email is still in its SMTP exchange (leased, not yet marked sent)', async () => {
      const { rows } = await broadcast(0, clock());
      const [row] = rows;
      if (!row) throw new Error('no rows');
      const lease = new Date(clock().getTime() + 60_000).toISOString();
      await t.db.db
        .updateTable('outbox')
        .set({ locked_by: 'worker-1', locked_until: lease })
        .where('id', '=', row.id)
        .execute();
      await provider(row.email, 'mg-early', 'hard');
      expect(await eventRow('mg-early')).toEqual({ outbox_id: row.id });
    });

    it('leaves an email sent more than 7 days before the event, or an address no broadcast mailed, counted towards nothing but suppressed', async () => {
      const { id, rows } = await broadcast(300, new Date(clock().getTime() - 8 * DAY));
      const [first] = rows;
      if (!first) throw new Error('no rows');
      expect(await provider(first.email, 'mg-old', 'complaint')).toBe('suppressed');
      expect(await eventRow('mg-old')).toEqual({ outbox_id: null });
      expect(await status(id)).toBe('sending');
      expect(await provider('stranger@example.com', 'mg-stranger', 'hard')).toBe('suppressed');
      expect(await eventRow('mg-stranger')).toEqual({ outbox_id: null });
      expect(await t.kit.suppressions.isSuppressed(t.db.db, 'stranger@example.com')).toBe(true);
    });
  });
}
