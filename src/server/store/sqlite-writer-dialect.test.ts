import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type Generated, type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointAfterErasure, openStore, type Store } from './database.ts';

// The SQLite store with its writer on a thread of its own (sqlite-writer.ts,
// sqlite-writer-dialect.ts), against a real file: what Kysely's own driver gave (results, errors
// with SQLite's codes, blobs, transactions that roll back) holds, reads see every answered write,
// and the event loop runs while a transaction waits.

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dh-writer-'));
  store = await openStore(`sqlite:${path.join(dir, 'w.sqlite')}`, { writerThread: true, backgroundCheckpoints: true });
  await sql`create table t (id integer primary key, name text not null unique, blob blob)`.execute(store.db);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

// The table is made by raw SQL, outside the app's schema type.
const db = () => store.db as unknown as Kysely<{ t: { id: Generated<number>; name: string; blob: Buffer | null } }>;

describe('SQLite with its writer on a thread', () => {
  it('answers as Kysely’s driver does: insert ids, affected rows, returning, blobs as Buffers', async () => {
    const inserted = await db()
      .insertInto('t')
      .values({ name: 'a', blob: Buffer.from([0, 1, 255]) })
      .executeTakeFirst();
    expect(inserted.insertId).toBe(1n);
    const returned = await db().insertInto('t').values({ name: 'b', blob: null }).returning(['id', 'name']).execute();
    expect(returned).toEqual([{ id: 2, name: 'b' }]);
    const updated = await db().updateTable('t').set({ name: 'c' }).where('id', '=', 2).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    // A read right after the write answered sees it, on the main thread's connection.
    const rows = await db().selectFrom('t').selectAll().orderBy('id').execute();
    expect(rows.map((r) => r.name)).toEqual(['a', 'c']);
    expect(Buffer.isBuffer(rows[0]?.blob)).toBe(true);
    expect(rows[0]?.blob?.equals(Buffer.from([0, 1, 255]))).toBe(true);
    // Inside a transaction a read goes to the writer too, and a blob comes back a Buffer there.
    const inside = await store.db
      .transaction()
      .execute((trx) =>
        (trx as unknown as ReturnType<typeof db>).selectFrom('t').select('blob').where('id', '=', 1).executeTakeFirst(),
      );
    expect(Buffer.isBuffer(inside?.blob)).toBe(true);
  });

  it('an error keeps SQLite’s code and message, and a failed transaction leaves nothing', async () => {
    await db().insertInto('t').values({ name: 'x' }).execute();
    await expect(db().insertInto('t').values({ name: 'x' }).execute()).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_UNIQUE',
      message: expect.stringContaining('UNIQUE constraint failed: t.name'),
    });
    await expect(
      store.db.transaction().execute(async (trx) => {
        await (trx as unknown as ReturnType<typeof db>).insertInto('t').values({ name: 'y' }).execute();
        await (trx as unknown as ReturnType<typeof db>).insertInto('t').values({ name: 'x' }).execute();
      }),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect((await db().selectFrom('t').select('name').execute()).map((r) => r.name)).toEqual(['x']);
  });

  it('transactions take turns, and reads outside them run beside one that is open', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = store.db.transaction().execute(async (trx) => {
      await (trx as unknown as ReturnType<typeof db>).insertInto('t').values({ name: 'first' }).execute();
      await held;
    });
    // Another writer waits for the first transaction; a read does not, and sees nothing uncommitted.
    let secondDone = false;
    const second = db()
      .insertInto('t')
      .values({ name: 'second' })
      .execute()
      .then(() => (secondDone = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await db().selectFrom('t').select('name').execute()).toEqual([]);
    expect(secondDone).toBe(false);
    release();
    await Promise.all([first, second]);
    expect((await db().selectFrom('t').select('name').orderBy('id').execute()).map((r) => r.name)).toEqual([
      'first',
      'second',
    ]);
  });

  it('a hundred writes at once are each answered once committed, and the event loop keeps running', async () => {
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        store.db.transaction().execute((trx) =>
          (trx as unknown as ReturnType<typeof db>)
            .insertInto('t')
            .values({ name: `n${i}` })
            .execute(),
        ),
      ),
    );
    loop.disable();
    expect(
      (
        await db()
          .selectFrom('t')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirst()
      )?.n,
    ).toBe(100);
    // A hundred COMMITs with synchronous=FULL: each fsync waited on the writer's thread, not here.
    expect(loop.max / 1e6).toBeLessThan(200);
  });

  it('a stream reads rows while writes go on beside it, and an erasure still empties the WAL', async () => {
    await db()
      .insertInto('t')
      .values(Array.from({ length: 50 }, (_, i) => ({ name: `s${i}` })))
      .execute();
    const seen: string[] = [];
    for await (const row of db().selectFrom('t').select('name').orderBy('id').stream()) {
      seen.push(row.name);
      // A write goes on (the writer's connection); a read would wait for the stream, as with
      // Kysely's own driver, since the reading connection is busy until it ends.
      if (seen.length === 1) await db().insertInto('t').values({ name: 'during' }).execute();
    }
    // The stream read one snapshot, from before the write.
    expect(seen).toHaveLength(50);
    expect(await db().selectFrom('t').select('id').where('name', '=', 'during').executeTakeFirst()).toBeDefined();
    await db().deleteFrom('t').where('name', '=', 's0').execute();
    expect(await checkpointAfterErasure(store)).toBe(true);
  });

  it('migrations’ own BEGIN IMMEDIATE through one connection run on the writer, in order', async () => {
    await store.db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      await sql`insert into t (name) values ('m')`.execute(conn);
      // Read inside that transaction: the writer's connection sees its own uncommitted row.
      const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(conn);
      expect(rows[0]?.n).toBe(1);
      await sql`commit`.execute(conn);
    });
    expect(await db().selectFrom('t').select('name').execute()).toEqual([{ name: 'm' }]);
  });
});
