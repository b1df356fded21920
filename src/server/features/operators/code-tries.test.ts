import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOperator, operatorIdOf } from '../../test/admin-kit.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { codesHeldUntil, giveCodeTryBack, OPERATOR_HOLD_MS, OPERATOR_WRONG_CODES, takeCodeTry } from './code-tries.ts';

// The per-operator count of wrong authenticator codes (issue 38): each try is taken in one
// statement before the code is checked, so tries taken at once never pass ten between them.
describe.each(dialectCases)('wrong-code tries per operator ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let n = 0;
  beforeAll(async () => {
    if (!skip) store = await openTestStore(dialect);
  });
  afterAll(async () => {
    await store?.destroy();
  });

  /** A new operator's id, so each test starts from no tries. */
  async function operator(at: Date): Promise<string> {
    const email = `codes-${dialect}-${n++}@example.com`;
    await makeOperator(store.db, email, at);
    return operatorIdOf(store.db, email);
  }

  it.skipIf(skip)('takes exactly ten of sixty tries taken at once, then holds for an hour', async () => {
    const clock = testClock();
    const id = await operator(clock());
    const tries = await Promise.all(Array.from({ length: 60 }, () => takeCodeTry(store.db, id, clock())));
    const numbers = tries.flatMap((t) => (t.taken ? [t.number] : [])).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: OPERATOR_WRONG_CODES }, (_, i) => i + 1));
    const until = new Date(clock().getTime() + OPERATOR_HOLD_MS);
    expect(tries.filter((t) => !t.taken)).toEqual(Array(50).fill({ taken: false, heldUntil: until }));
    expect(await codesHeldUntil(store.db, id, clock())).toEqual(until);

    // A refused try does not move the hold; it ends an hour after the tenth, and counting starts again.
    clock.advance(OPERATOR_HOLD_MS - 1);
    expect(await takeCodeTry(store.db, id, clock())).toEqual({ taken: false, heldUntil: until });
    clock.advance(1);
    expect(await codesHeldUntil(store.db, id, clock())).toBeNull();
    expect(await takeCodeTry(store.db, id, clock())).toEqual({ taken: true, number: 1 });
  });

  it.skipIf(skip)('a try given back (a right code) does not count, and a quiet hour forgets', async () => {
    const clock = testClock();
    const id = await operator(clock());
    for (let i = 0; i < OPERATOR_WRONG_CODES - 1; i++) await takeCodeTry(store.db, id, clock());
    expect(await takeCodeTry(store.db, id, clock())).toEqual({ taken: true, number: 10 });
    await giveCodeTryBack(store.db, id);
    expect(await codesHeldUntil(store.db, id, clock())).toBeNull();
    expect(await takeCodeTry(store.db, id, clock())).toEqual({ taken: true, number: 10 });
    await giveCodeTryBack(store.db, id);

    clock.advance(OPERATOR_HOLD_MS + 1);
    expect(await takeCodeTry(store.db, id, clock())).toEqual({ taken: true, number: 1 });
  });
});
