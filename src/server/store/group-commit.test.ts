import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Kysely, sql } from 'kysely';
import { openTestStore, type TestStore } from '../test/test-store.ts';
import { type BatchKind, GroupCommitter, type Job } from './group-commit.ts';
import type { Database } from './schema.ts';
import { StoreUnavailableError } from './store-errors.ts';

// The group committer's behaviour when the store fails (docs/decisions/0020-faults.md); its
// grouping of sign-ups is tested with the sign-up store (signups/signup-store.test.ts).
describe('group commit', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore('sqlite', { migrate: false });
    await sql`create table marks (name text primary key)`.execute(store.db);
  });
  afterEach(() => store.destroy());
  const marks = async () =>
    (await sql<{ name: string }>`select name from marks order by name`.execute(store.db)).rows.map((r) => r.name);

  /** A promise the test opens when it chooses: `opened` resolves once `open()` is called. */
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  };

  describe('when the store fails', () => {
    const mark =
      (name: string): Job<string> =>
      async (trx) => {
        await sql`insert into marks (name) values (${name})`.execute(trx);
        return name;
      };
    it('tells a caller "unavailable" at its deadline while the store does not answer, and never runs a job dropped meanwhile', async () => {
      const committer = new GroupCommitter(store.db, 200, 100);
      // A transaction that hangs, as one does when the database has stopped answering.
      const { opened: stuck, open: answer } = gate();
      const { opened: begun, open: started } = gate();
      const hung = committer.run(async (trx) => {
        started();
        await stuck;
        return mark('hung')(trx);
      });
      // Queued behind the hung batch, not in it.
      await begun;
      const waiting = committer.run(mark('queued'));
      await expect(hung).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(waiting).rejects.toBeInstanceOf(StoreUnavailableError);

      // The database answers again: the hung batch completes (its caller was told it may not have
      // been saved), the job whose caller gave up while it was queued is dropped, and the next one is
      // committed as usual.
      answer();
      await committer.idle();
      expect(await committer.run(mark('after'))).toBe('after');
      expect(await marks()).toEqual(['after', 'hung']);
    });

    it('fails a whole batch at once when the store is unavailable, without retrying job by job', async () => {
      const committer = new GroupCommitter(store.db);
      let runs = 0;
      const counted =
        (job: Job<string>): Job<string> =>
        (trx) => {
          runs++;
          return job(trx);
        };
      const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      const results = await Promise.allSettled([
        committer.run(counted(mark('a'))),
        committer.run(
          counted(async () => {
            throw full;
          }),
        ),
        committer.run(counted(mark('c'))),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(results.every((r) => r.status === 'rejected' && r.reason === full)).toBe(true);
      expect(runs).toBe(2); // a, then the failing one; c never ran
      expect(await marks()).toEqual([]);
    });

    it('retries job by job after any other failure, so one bad job cannot fail the others', async () => {
      const committer = new GroupCommitter(store.db);
      const results = await Promise.allSettled([
        committer.run(mark('a')),
        committer.run(mark('a')),
        committer.run(mark('b')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await marks()).toEqual(['a', 'b']);
    });

    it('gives each caller its own deadline, counted from when it queued, with one timer for all of them', async () => {
      const committer = new GroupCommitter(store.db, 200, 200);
      const { opened: stuck, open: answer } = gate();
      const { opened: begun, open: started } = gate();
      const t0 = performance.now();
      const settledAt = (p: Promise<unknown>) =>
        p.then(
          () => ({ ok: true, at: performance.now() - t0 }),
          (error: unknown) => ({
            ok: error instanceof StoreUnavailableError ? false : error,
            at: performance.now() - t0,
          }),
        );
      const first = settledAt(
        committer.run(async (trx) => {
          started();
          await stuck;
          return mark('first')(trx);
        }),
      );
      await begun;
      await new Promise((resolve) => setTimeout(resolve, 120));
      // Fifty callers queued behind the hung batch cost one deadline timer, not fifty.
      const timers = vi.spyOn(globalThis, 'setTimeout');
      const later = Array.from({ length: 50 }, (_, i) => settledAt(committer.run(mark(`later-${i}`))));
      const armedForLater = timers.mock.calls.filter(([, ms]) => typeof ms === 'number' && ms >= 100).length;
      timers.mockRestore();
      expect(armedForLater).toBe(0);

      const firstOutcome = await first;
      expect(firstOutcome.ok).toBe(false);
      expect(firstOutcome.at).toBeGreaterThanOrEqual(195);
      const laterOutcomes = await Promise.all(later);
      // Not at the first caller's deadline: 200 ms after each queued (at 120 ms or after).
      for (const o of laterOutcomes) {
        expect(o.ok).toBe(false);
        expect(o.at).toBeGreaterThanOrEqual(315);
      }
      answer();
      await committer.idle();
    });
  });

  // A kind that keeps its own writes atomic runs a batch of its own without the committer's
  // transaction (runAlone: PostgreSQL's sign-ups, two round trips instead of four, decision 0053).
  describe('of a kind that runs alone', () => {
    const insertMarks = (db: Kysely<Database>, names: string[]) =>
      sql`insert into marks (name) values ${sql.join(names.map((n) => sql`(${n})`))}`.execute(db);
    const markKind = () => {
      const seen = { alone: [] as string[][], inTransaction: [] as string[][] };
      const kind: BatchKind<string, string> = {
        async run(trx, inputs) {
          seen.inTransaction.push(inputs);
          await insertMarks(trx, inputs);
          return inputs.map((n) => `${n}!`);
        },
        async runAlone(db, inputs) {
          seen.alone.push(inputs);
          // One statement: atomic by itself, as the sign-ups' insert is on PostgreSQL.
          await insertMarks(db, inputs);
          return inputs.map((n) => `${n}!`);
        },
      };
      return { kind, seen };
    };

    it('hands a batch of that kind alone to runAlone, and one shared with other jobs to run in one transaction', async () => {
      const committer = new GroupCommitter(store.db);
      const { kind, seen } = markKind();
      expect(await Promise.all(['a', 'b', 'c'].map((n) => committer.runIn(kind, n)))).toEqual(['a!', 'b!', 'c!']);
      expect(seen).toEqual({ alone: [['a', 'b', 'c']], inTransaction: [] });

      const shared = await Promise.all([
        committer.runIn(kind, 'd'),
        committer.run(async (trx) => {
          await insertMarks(trx, ['job']);
          return 'job';
        }),
        committer.runIn(kind, 'e'),
      ]);
      expect(shared).toEqual(['d!', 'job', 'e!']);
      expect(seen.inTransaction).toEqual([['d', 'e']]);
      expect(await marks()).toEqual(['a', 'b', 'c', 'd', 'e', 'job']);
    });

    it('retries even a lone input whose runAlone failed, in a transaction (as a row written meanwhile is then read)', async () => {
      const committer = new GroupCommitter(store.db);
      const { kind, seen } = markKind();
      let failures = 0;
      const flaky: BatchKind<string, string> = {
        run: kind.run,
        runAlone: () => {
          failures++;
          return Promise.reject(new Error('another instance wrote the row between the read and the write'));
        },
      };
      expect(await committer.runIn(flaky, 'late')).toBe('late!');
      expect(failures).toBe(1);
      expect(seen.inTransaction).toEqual([['late']]);
      expect(await marks()).toEqual(['late']);
    });

    it('retries each input in a transaction of its own when runAlone fails, so one bad input fails alone', async () => {
      await insertMarks(store.db, ['taken']);
      const committer = new GroupCommitter(store.db);
      const { kind, seen } = markKind();
      const results = await Promise.allSettled(['x', 'taken', 'y'].map((n) => committer.runIn(kind, n)));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(seen.alone).toEqual([['x', 'taken', 'y']]);
      expect(seen.inTransaction).toEqual([['x'], ['taken'], ['y']]);
      expect(await marks()).toEqual(['taken', 'x', 'y']);
    });
  });
});
