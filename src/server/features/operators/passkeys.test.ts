import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { registrationOptions } from './passkey-registration.ts';
import { purgeExpiredPasskeyChallenges } from './passkey-store.ts';
import { authenticationOptions, relyingPartyFor } from './passkeys.ts';
import { createChallenge, createSession, endSessionByToken, tokenHash } from './sessions.ts';
import { makeOperator } from '../../test/admin-kit.ts';

// The ceremonies' challenges in the store: tied to a session or a pending sign-in and gone with
// it, and dropped by the purge job once five minutes have passed unanswered.
describe.each(dialectCases)('passkey challenges in the store ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  const clock = testClock();
  const rp = relyingPartyFor('https://dh.example', 'Diamond Hand');

  beforeAll(async () => {
    if (!skip) store = await openTestStore(dialect);
  });
  afterAll(async () => {
    await store?.destroy();
  });

  const challenges = () =>
    store.db.selectFrom('operator_passkey_challenges').select(['challenge', 'purpose']).execute();

  it.skipIf(skip)(
    'drops a challenge with its session or pending sign-in, and any left unanswered after five minutes',
    async () => {
      if (!rp) throw new Error('dh.example is a domain');
      const email = `store-${dialect}@example.com`;
      await makeOperator(store.db, email, clock());
      const { id: operatorId } = await store.db
        .selectFrom('operators')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const session = await createSession(store.db, {
        operatorId,
        browser: 'Chrome on Linux',
        now: clock(),
        freshProof: true,
      });
      const pending = await createChallenge(store.db, operatorId, clock());
      await store.db
        .insertInto('operator_passkeys')
        .values({
          id: 'k1',
          operator_id: operatorId,
          credential_id: 'Y3JlZA',
          public_key: 'a2V5',
          counter: 0,
          transports: '["usb"]',
          device_type: 'singleDevice',
          name: 'Key',
          created_at: clock().toISOString(),
          last_used_at: null,
        })
        .execute();

      const reg = await registrationOptions(store.db, rp, { id: operatorId, email, sessionId: session.id }, clock());
      expect(reg.excludeCredentials).toEqual([{ id: 'Y3JlZA', type: 'public-key', transports: ['usb'] }]);
      await authenticationOptions(
        store.db,
        rp,
        { operatorId, purpose: 'sign-in', binding: { pendingHash: tokenHash(pending) } },
        clock(),
      );
      clock.advance(4 * 60_000);
      await authenticationOptions(
        store.db,
        rp,
        { operatorId, purpose: 'fresh-proof', binding: { sessionId: session.id } },
        clock(),
      );
      expect((await challenges()).map((c) => c.purpose).sort()).toEqual(['fresh-proof', 'register', 'sign-in']);

      // The pending sign-in ends (signed in, or timed out and purged): its challenge goes with it.
      await store.db.deleteFrom('operator_challenges').where('token_hash', '=', tokenHash(pending)).execute();
      expect((await challenges()).map((c) => c.purpose).sort()).toEqual(['fresh-proof', 'register']);
      // Five minutes after the first: that one is purged, the newer one stays.
      clock.advance(60_000);
      await purgeExpiredPasskeyChallenges(store.db, clock());
      expect((await challenges()).map((c) => c.purpose)).toEqual(['fresh-proof']);
      // Signing out ends the session, and the ceremony it began.
      await endSessionByToken(store.db, session.token);
      expect(await challenges()).toEqual([]);
    },
  );
});
