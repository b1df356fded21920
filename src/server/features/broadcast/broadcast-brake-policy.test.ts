import { describe, expect, it } from 'vitest';
import { dialectCases, testClock } from '../../test/test-store.ts';
import { ratesOf } from './broadcast-brake.ts';
import { brakeStore, startedBroadcast } from '../../test/brake-kit.ts';
import { progressOf } from './broadcast-view.ts';

// A receiver's policy or content filter (5.7.x) refusing a broadcast says nothing of the addresses:
// the brake must not count it as a hard bounce, or one receiver's filter could pause a launch
// (docs/decisions/0035-bounces-complaints-and-suppression.md).
for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`policy refusals and the brake on ${label}`, () => {
    const t = brakeStore(dialect);
    const clock = testClock();

    it('does not count policy refusals as hard bounces, shows them apart, and still pauses on hard ones', async () => {
      const { id, rows } = await startedBroadcast(t.db.db, clock());
      const ids = rows.map((r) => r.id);
      await t.db.db
        .updateTable('outbox')
        .set({ status: 'sent', sent_at: clock().toISOString() })
        .where('id', 'in', ids.slice(0, 300))
        .execute();
      const heard = (row: string | undefined, kind: 'policy' | 'hard', eventId: string) =>
        t.kit.intake.byEnvelope(t.kit.verp.address(row ?? 'missing'), {
          kind,
          source: 'dsn',
          eventId,
          detail: kind === 'policy' ? '5.7.1' : '5.1.1',
          now: clock(),
        });
      const state = async () =>
        (await t.db.db.selectFrom('broadcasts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

      // One receiver's filter refuses 30 of the 300 sent: 10 %, twice the hard-bounce limit.
      for (let i = 0; i < 30; i++) expect(await heard(ids[i], 'policy', `policy-${i}`)).toBe('counted');
      expect(await ratesOf(t.db.db, id)).toEqual({ sent: 300, hard: 0, complaints: 0 });
      expect(await state()).toBe('sending');
      // None of them is suppressed on one refusal.
      expect(await t.db.db.selectFrom('suppressions').select('id').execute()).toEqual([]);
      const b = await t.db.db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const { progress } = await progressOf(t.db.db, b, 10);
      expect(progress).toMatchObject({ bounced: { hard: 0, soft: 0, policy: 30 }, complained: 0 });

      // Real hard bounces still pause it: 16 of 300 is 5.33 %.
      for (let i = 30; i < 46; i++) await heard(ids[i], 'hard', `hard-${i}`);
      expect(await state()).toBe('paused');
    });
  });
}
