import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signupSchema } from '../../../shared/signup-schema.ts';
import { consentWordingIn } from '../signups/consent-wordings.ts';
import { subscriberDataExportSchema, personRecordSchema } from '../../../shared/admin/subscribers.ts';
import { GroupCommitter } from '../../store/group-commit.ts';
import { ledgerEntryFor } from '../../store/erasure-ledger.ts';
import { dialectCases, openTestStore, testClock, testSecrets, type TestStore } from '../../test/test-store.ts';
import { signupsPerDay } from '../signups/index.ts';
import { eraseSubscriber, resendConfirmation } from './subscriber-actions.ts';
import { listSubscribers } from './subscriber-list.ts';
import { subscriberDataExport, subscriberDetail } from './subscriber-records.ts';
import { unsubscribeSubscriber } from '../signups/link-store.ts';
import { CONFIRMATION_COOLDOWN_MS, recordConsentWording, signupJob } from '../signups/signup-store.ts';

const consentWording = consentWordingIn('en');

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`one subscriber: detail, resend, export, erase on ${label}`, () => {
    let store: TestStore;
    let committer: GroupCommitter;
    const clock = testClock();

    beforeEach(async () => {
      clock.set('2026-11-21T12:00:00.000Z');
      store = await openTestStore(dialect);
      await recordConsentWording(store.db, clock());
      committer = new GroupCommitter(store.db);
    });
    afterEach(() => store.destroy());

    const signUp = (email: string, name = 'Ada') =>
      committer.run(
        signupJob(
          // Parsed as the server does, so a field added to the schema needs nothing here.
          signupSchema.parse({ name, email, comment: 'Hello' }),
          { now: clock(), page: '/privacy', location: { country: 'DE', region: 'Land Berlin', city: 'Berlin' } },
        ),
      );
    const outboxCount = async (id: string) =>
      Number(
        (
          await store.db
            .selectFrom('outbox')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('subscriber_id', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('shows the consent record with its wording, the coarse place and the emails, never a token', async () => {
      const { subscriberId } = await signUp('ada@example.com');
      await store.db
        .updateTable('outbox')
        .set({
          token_hash: 'secret-hash',
          token_expires_at: '2026-11-28T12:00:00.000Z',
          status: 'sent',
          attempts: 1,
          sent_at: '2026-11-21T12:00:05.000Z',
        })
        .execute();
      const detail = await subscriberDetail(store.db, subscriberId, clock());
      expect(personRecordSchema.parse(detail)).toEqual(detail);
      expect(detail).toMatchObject({
        id: subscriberId,
        email: 'ada@example.com',
        name: 'Ada',
        comment: 'Hello',
        status: 'pending',
        consent: {
          version: consentWording.version,
          text: consentWording.text,
          at: '2026-11-21T12:00:00.000Z',
          page: '/privacy',
        },
        location: { country: 'DE', region: 'Land Berlin', city: 'Berlin' },
        locale: 'en',
        emails: [
          {
            kind: 'confirmation',
            status: 'sent',
            attempts: 1,
            createdAt: '2026-11-21T12:00:00.000Z',
            sentAt: '2026-11-21T12:00:05.000Z',
            lastError: null,
          },
        ],
        resend: {
          allowed: false,
          availableAt: new Date(Date.parse('2026-11-21T12:00:00.000Z') + CONFIRMATION_COOLDOWN_MS).toISOString(),
        },
      });
      expect(JSON.stringify(detail)).not.toContain('secret-hash');
      expect(await subscriberDetail(store.db, 'no-such-id', clock())).toBeNull();
    });

    it('resends a confirmation only to a pending person, once per cool-down, even when two operators click at once', async () => {
      const { subscriberId } = await signUp('ada@example.com');
      expect(await resendConfirmation(store.db, subscriberId, clock())).toEqual({
        outcome: 'cooling-down',
        retryAt: new Date(clock().getTime() + CONFIRMATION_COOLDOWN_MS).toISOString(),
      });
      expect(await outboxCount(subscriberId)).toBe(1);

      clock.advance(CONFIRMATION_COOLDOWN_MS);
      const both = await Promise.all([
        resendConfirmation(store.db, subscriberId, clock()),
        resendConfirmation(store.db, subscriberId, clock()),
      ]);
      expect(both.map((r) => r.outcome).sort()).toEqual(['cooling-down', 'queued']);
      expect(await outboxCount(subscriberId)).toBe(2);
      expect((await subscriberDetail(store.db, subscriberId, clock()))?.resend.allowed).toBe(false);

      // A repeat sign-up respects the operator's resend too: it is one cool-down.
      clock.advance(60_000);
      expect((await signUp('ada@example.com')).emailQueued).toBe(false);

      await unsubscribeSubscriber(store.db, subscriberId, clock());
      clock.advance(CONFIRMATION_COOLDOWN_MS);
      expect(await resendConfirmation(store.db, subscriberId, clock())).toEqual({
        outcome: 'not-pending',
        status: 'unsubscribed',
      });
      expect(await resendConfirmation(store.db, 'no-such-id', clock())).toEqual({ outcome: 'unknown' });
    });

    it('exports everything held about a person as JSON', async () => {
      const { subscriberId } = await signUp('ada@example.com');
      const data = await subscriberDataExport(store.db, subscriberId, clock());
      expect(subscriberDataExportSchema.parse(data)).toEqual(data);
      expect(data?.exportedAt).toBe('2026-11-21T12:00:00.000Z');
      expect(data?.person).toMatchObject({
        email: 'ada@example.com',
        comment: 'Hello',
        consent: { text: consentWording.text },
      });
      expect(data?.person.emails).toHaveLength(1);
      expect(Object.keys(data?.person ?? {})).not.toContain('resend');
    });

    it('erases a person from the list, the search and the outbox, and keeps the sign-up totals', async () => {
      const { subscriberId } = await signUp('ada@example.com');
      await signUp('bob@example.com', 'Bob');
      clock.advance(86_400_000);
      await signUp('carol@example.com', 'Carol');
      const before = await signupsPerDay(store.db, '2026-11-21', '2026-11-22');
      expect([...before]).toEqual([
        ['2026-11-21', 2],
        ['2026-11-22', 1],
      ]);

      const entry = (emailKey: string) => ledgerEntryFor(testSecrets(), emailKey, clock());
      expect((await eraseSubscriber(store.db, subscriberId, entry)).outcome).toBe('erased');
      expect((await eraseSubscriber(store.db, subscriberId, entry)).outcome).toBe('unknown');
      expect(await subscriberDetail(store.db, subscriberId, clock())).toBeNull();
      expect(await outboxCount(subscriberId)).toBe(0);
      const list = await listSubscribers(store, { sort: 'newest', limit: 10 });
      expect(list.items.map((i) => i.maskedEmail)).toEqual(['c•••@example.com', 'b•••@example.com']);
      for (const budget of [20_000, 1]) {
        expect((await listSubscribers(store, { sort: 'newest', limit: 10, q: 'ada@ex' }, budget)).items).toEqual([]);
      }
      expect(await signupsPerDay(store.db, '2026-11-21', '2026-11-22')).toEqual(before);

      // Signing up again after erasure is a new sign-up, counted on its day.
      await signUp('ada@example.com');
      expect((await signupsPerDay(store.db, '2026-11-22', '2026-11-22')).get('2026-11-22')).toBe(2);
    });
  });
}
