import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOperator, operatorIdOf } from '../../test/admin-kit.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { claimRecoveryCode, claimTotpStep } from './operators.ts';
import { claimChallengeTry, createChallenge, SECOND_FACTOR_TRIES } from './sessions.ts';

// The second factor's other limits, each one conditional UPDATE (issue 38 asked that they be
// checked): a pending sign-in's five tries, an authenticator step used once, a recovery code used
// once. Claimed many times at once (on PostgreSQL over several pooled connections), each gives
// exactly what it promises.
describe.each(dialectCases)('one-use claims at once ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let operatorId: string;
  let recoveryCode: string;
  const clock = testClock();
  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    const op = await makeOperator(store.db, `claims-${dialect}@example.com`, clock());
    operatorId = await operatorIdOf(store.db, op.email);
    recoveryCode = op.recoveryCodes[0] ?? '';
  });
  afterAll(async () => {
    await store?.destroy();
  });
  const atOnce = <T>(n: number, claim: () => Promise<T>) => Promise.all(Array.from({ length: n }, claim));

  it.skipIf(skip)('a pending sign-in gives exactly its five tries to fifty claims', async () => {
    const pending = await createChallenge(store.db, operatorId, clock());
    const tries = await atOnce(50, () => claimChallengeTry(store.db, pending));
    expect(tries.filter((t) => t !== null).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      Array.from({ length: SECOND_FACTOR_TRIES }, (_, i) => i + 1),
    );
  });

  it.skipIf(skip)('an authenticator step and a recovery code each work once of twenty at once', async () => {
    const steps = await atOnce(20, () => claimTotpStep(store.db, operatorId, 1000));
    expect(steps.filter(Boolean)).toHaveLength(1);
    const codes = await atOnce(20, () => claimRecoveryCode(store.db, operatorId, recoveryCode, clock()));
    expect(codes.filter(Boolean)).toHaveLength(1);
  });
});
