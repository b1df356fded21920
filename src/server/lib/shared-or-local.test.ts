import { describe, expect, it } from 'vitest';
import { SharedOrLocal, spendBoth, UnreadableCounter, writeBoth, type SharedStore } from './shared-or-local.ts';

function setUp() {
  const events: string[] = [];
  let now = 0;
  const guard = new SharedOrLocal({
    onDown: (reason) => events.push(`down: ${reason}`),
    onUp: (ms) => events.push(`up after ${ms} ms`),
    retryMs: 1000,
    now: () => now,
  });
  return { guard, events, advance: (ms: number) => (now += ms) };
}

const failing = (message: string) => () => Promise.reject(new Error(message));

describe('SharedOrLocal', () => {
  it('answers from the shared store while it answers', async () => {
    const { guard, events } = setUp();
    expect(
      await guard.run(
        async () => 'shared',
        () => 'local',
      ),
    ).toBe('shared');
    expect(events).toEqual([]);
    expect(guard.isDown).toBe(false);
  });

  it('answers locally when the shared store fails, says so once per outage, and in words', async () => {
    const { guard, events, advance } = setUp();
    expect(await guard.run(failing('connect ECONNREFUSED 127.0.0.1:6390'), () => 'local')).toBe('local');
    advance(1500);
    expect(await guard.run(failing('Command timed out'), () => 'local')).toBe('local');
    expect(events).toEqual(['down: connect ECONNREFUSED 127.0.0.1:6390']);
    expect(guard.isDown).toBe(true);
  });

  it('leaves a failing store alone for retryMs, then tries it again and says when it is back', async () => {
    const { guard, events, advance } = setUp();
    await guard.run(failing('Command timed out'), () => 'local');
    let tried = 0;
    const shared = async () => {
      tried++;
      return 'shared';
    };
    advance(999);
    expect(await guard.run(shared, () => 'local')).toBe('local');
    expect(tried).toBe(0);
    advance(1);
    expect(await guard.run(shared, () => 'local')).toBe('shared');
    expect(tried).toBe(1);
    expect(events).toEqual(['down: Command timed out', 'up after 1000 ms']);
  });

  it('uses the shared store again at once when told it is back (the client reconnected)', async () => {
    const { guard, events } = setUp();
    guard.markDown('the connection closed');
    expect(
      await guard.run(
        async () => 'shared',
        () => 'local',
      ),
    ).toBe('local');
    guard.markUp();
    expect(
      await guard.run(
        async () => 'shared',
        () => 'local',
      ),
    ).toBe('shared');
    expect(events).toEqual(['down: the connection closed', 'up after 0 ms']);
  });

  it('never writes an address or a password from an error into its reason', async () => {
    const { guard, events } = setUp();
    await guard.run(
      failing('WRONGPASS for redis://admin:hunter22@cache.internal:6379 by ops@example.com'),
      () => 'local',
    );
    expect(events[0]).not.toMatch(/hunter22|ops@example\.com/);
  });

  it('lets the stricter answer win when both are known: the larger count, whichever store holds it', async () => {
    const { guard } = setUp();
    const larger = { merge: (a: number, b: number) => Math.max(a, b) };
    expect(
      await guard.run(
        async () => 7,
        () => 3,
        larger,
      ),
    ).toBe(7);
    // The shared store lost its count (restarted empty): this instance's own still judges.
    expect(
      await guard.run(
        async () => 1,
        () => 6,
        larger,
      ),
    ).toBe(6);
    // Without a rule, the shared answer as before.
    expect(
      await guard.run(
        async () => 1,
        () => 6,
      ),
    ).toBe(1);
  });

  it('fails closed on an unreadable counter: blocked, not counted as zero, and not taken for an outage', async () => {
    const events: string[] = [];
    let now = 0;
    const guard = new SharedOrLocal({
      onDown: (reason) => events.push(`down: ${reason}`),
      onUp: () => events.push('up'),
      onUnreadable: (reason) => events.push(`unreadable: ${reason}`),
      isUnreadable: (error) => error instanceof Error && /WRONGTYPE/.test(error.message),
      now: () => now,
    });
    const blocked = { unreadable: () => 'blocked' };
    expect(
      await guard.run(
        () => Promise.reject(new UnreadableCounter('not a number')),
        () => 'local',
        blocked,
      ),
    ).toBe('blocked');
    expect(
      await guard.run(
        () => Promise.reject(new Error('WRONGTYPE Operation against a key holding the wrong kind of value')),
        () => 'local',
        blocked,
      ),
    ).toBe('blocked');
    expect(guard.isDown).toBe(false);
    // Said once a minute, not once per request.
    now += 60_000;
    expect(
      await guard.run(
        () => Promise.reject(new UnreadableCounter('not a number')),
        () => 'local',
        blocked,
      ),
    ).toBe('blocked');
    expect(events).toEqual(['unreadable: not a number', 'unreadable: not a number']);
    // An outage is still an outage.
    expect(await guard.run(failing('connect ECONNREFUSED'), () => 'local', blocked)).toBe('local');
    expect(guard.isDown).toBe(true);
  });
});

describe('spendBoth and writeBoth: one limit kept in the shared store and in this instance', () => {
  const storeOf = (guard: SharedOrLocal): SharedStore => ({
    orLocal: (shared, local, opts) => guard.run(shared, local, opts),
  });
  const rule = { stricter: Math.min, blocked: 0 };

  it("gives the stricter answer while the store answers, this instance's while it is out, blocked when unreadable", async () => {
    const { guard } = setUp();
    const store = storeOf(guard);
    expect(await spendBoth(store, 3, async () => 5, rule)).toBe(3);
    expect(await spendBoth(store, 3, async () => 1, rule)).toBe(1);
    expect(await spendBoth(store, 3, () => Promise.reject(new UnreadableCounter('not a number')), rule)).toBe(0);
    expect(guard.isDown).toBe(false);
    expect(await spendBoth(store, 3, failing('Command timed out'), rule)).toBe(3);
    expect(guard.isDown).toBe(true);
  });

  it("writes this instance's count first, and the shared one only while the store answers", async () => {
    const { guard, advance } = setUp();
    const store = storeOf(guard);
    const written: string[] = [];
    await writeBoth(
      store,
      () => void written.push('local'),
      async () => void written.push('shared'),
    );
    await writeBoth(
      store,
      () => void written.push('local'),
      () => Promise.reject(new UnreadableCounter('not a number')),
    );
    await writeBoth(
      store,
      () => void written.push('local'),
      () => Promise.reject(new Error('Command timed out')),
    );
    advance(1000);
    await writeBoth(
      store,
      () => void written.push('local'),
      async () => void written.push('shared'),
    );
    expect(written).toEqual(['local', 'shared', 'local', 'local', 'local', 'shared']);
  });
});
