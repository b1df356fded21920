import { mkdtempSync, rmSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommitter } from './group-commit.ts';
import type { Database } from './schema.ts';
import { type BatchDurability, sqliteWalSync } from './sqlite-wal-sync.ts';
import { StoreUnavailableError } from './store-errors.ts';

/** A sync the test lets go of: `calls` resolves at each call with the WAL's inode it was given. */
function heldSync() {
  const waiting: { ino: number; release: () => void }[] = [];
  let called: (() => void) | undefined;
  return {
    waiting,
    datasync: async (wal: FileHandle) => {
      const { ino } = await wal.stat();
      await new Promise<void>((release) => {
        waiting.push({ ino, release });
        called?.();
      });
      await wal.datasync();
    },
    /** Resolves once a sync is being held. */
    untilHeld: () =>
      new Promise<void>((resolve) => {
        if (waiting.length > 0) return resolve();
        called = resolve;
      }),
  };
}

describe("SQLite batches: the WAL's sync off the event loop (decision 0054)", () => {
  let dir: string;
  let file: string;
  let sqlite: SqliteDatabase.Database;
  let db: Kysely<Database>;
  let durability: BatchDurability;
  let sync: ReturnType<typeof heldSync>;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dh-walsync-'));
    file = path.join(dir, 'test.sqlite');
    sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    await sql`create table marks (name text primary key)`.execute(db);
    sync = heldSync();
    durability = sqliteWalSync(sqlite, `${file}-wal`, sync.datasync);
  });
  afterEach(async () => {
    await db.destroy();
    await durability.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const level = () => sqlite.pragma('synchronous', { simple: true });
  const marks = async () =>
    (await sql<{ name: string }>`select name from marks order by name`.execute(db)).rows.map((r) => r.name);

  it("answers a batch's callers only once the WAL itself is synced, and serves other queries meanwhile", async () => {
    const committer = new GroupCommitter(db, 200, 10_000, durability);
    let answered = false;
    let levelInside: unknown;
    const write = committer
      .run(async (trx) => {
        levelInside = level();
        await sql`insert into marks (name) values ('one')`.execute(trx);
        return 'one';
      })
      .then((v) => {
        answered = true;
        return v;
      });
    await sync.untilHeld();
    // Committed without SQLite's own sync (NORMAL is 1), and the connection back at FULL (2) for
    // every write that does not come through a committer.
    expect(levelInside).toBe(1);
    expect(level()).toBe(2);
    // The sync is on the WAL file itself...
    expect(sync.waiting[0]?.ino).toBe(statSync(`${file}-wal`).ino);
    // ...and while the disk works, the connection and the event loop serve others: the row is
    // readable, but its caller has not been told it is stored.
    expect(await marks()).toEqual(['one']);
    expect(answered).toBe(false);
    sync.waiting[0]?.release();
    expect(await write).toBe('one');
  });

  it('puts the connection back to FULL when a job fails, and a failed batch is not answered as stored', async () => {
    const committer = new GroupCommitter(db, 200, 10_000, durability);
    const failing = committer.run(async (trx) => {
      await sql`insert into marks (name) values ('bad'), ('bad')`.execute(trx);
      return 'bad';
    });
    await expect(failing).rejects.toThrow(/UNIQUE/);
    expect(level()).toBe(2);
    expect(sync.waiting).toHaveLength(0);
    expect(await marks()).toEqual([]);
  });

  it('a sync that fails answers the batch "unavailable" and does not run its jobs again', async () => {
    const failing = sqliteWalSync(sqlite, `${file}-wal`, () =>
      Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })),
    );
    const committer = new GroupCommitter(db, 200, 10_000, failing);
    let runs = 0;
    const job = (name: string) =>
      committer.run(async (trx) => {
        runs++;
        await sql`insert into marks (name) values (${name})`.execute(trx);
      });
    const answers = await Promise.allSettled([job('a'), job('b')]);
    expect(answers.map((a) => a.status === 'rejected' && a.reason instanceof StoreUnavailableError)).toEqual([
      true,
      true,
    ]);
    expect(runs).toBe(2);
    expect(level()).toBe(2);
    await failing.close();
  });

  it('a batch that commits while another sync is running waits for a sync of its own, begun after its commit', async () => {
    const committer = new GroupCommitter(db, 200, 10_000, durability);
    const first = committer.run(async (trx) => {
      await sql`insert into marks (name) values ('first')`.execute(trx);
    });
    await sync.untilHeld();
    // A write from outside the committer goes on at FULL while the first sync is held; then a
    // second durability run (another committer's, as a retry would be) commits behind it.
    const second = durability.run(db, (conn) => sql`insert into marks (name) values ('second')`.execute(conn));
    await expect.poll(marks).toEqual(['first', 'second']);
    expect(sync.waiting).toHaveLength(1);
    sync.waiting[0]?.release();
    await first;
    // The second's sync starts only after the first's ended, and it is the second's own.
    await expect.poll(() => sync.waiting.length).toBe(2);
    sync.waiting[1]?.release();
    await second;
  });
});
